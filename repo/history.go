package repo

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"primegames/domain"
)

const entryColumns = `seq, seat, action, outcome, random, created_at`

func scanEntry(row pgx.CollectableRow) (Entry, error) {
	var e Entry
	var seat *int32
	var random []int32
	if err := row.Scan(&e.Seq, &seat, &e.Action, &e.Outcome, &random, &e.CreatedAt); err != nil {
		return e, err
	}
	if seat != nil {
		s := int(*seat)
		e.Seat = &s
	}
	e.Random = make([]int, len(random))
	for i, v := range random {
		e.Random[i] = int(v)
	}
	return e, nil
}

// Entries returns up to limit history entries with seq > after, in order.
func (s *Games) Entries(ctx context.Context, gameID string, after int64, limit int) ([]Entry, error) {
	rows, err := s.db.Pool.Query(ctx, `SELECT `+entryColumns+` FROM actions WHERE game_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
		gameID, after, limit)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, scanEntry)
}

// EachEntry calls fn for every history entry in order, reading them as it goes, for streaming.
func (s *Games) EachEntry(ctx context.Context, gameID string, fn func(Entry) error) error {
	rows, err := s.db.Pool.Query(ctx, `SELECT `+entryColumns+` FROM actions WHERE game_id = $1 ORDER BY seq`, gameID)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		e, err := scanEntry(rows)
		if err != nil {
			return err
		}
		if err := fn(e); err != nil {
			return err
		}
	}
	return rows.Err()
}

// StateAt rebuilds the game's state after entry seq from the history alone (G-2).
func (s *Games) StateAt(ctx context.Context, g *Game, seq int64) (domain.State, error) {
	rows, err := s.db.Pool.Query(ctx, `SELECT `+entryColumns+` FROM actions WHERE game_id = $1 AND seq <= $2 ORDER BY seq`, g.ID, seq)
	if err != nil {
		return nil, err
	}
	entries, err := pgx.CollectRows(rows, scanEntry)
	if err != nil {
		return nil, err
	}
	if len(entries) == 0 || entries[len(entries)-1].Seq != seq {
		return nil, domain.Errorf(domain.KindNotFound, "step_not_found", "Game %s has no step %d.", g.ID, seq)
	}
	return Fold(g, entries)
}

// Fold replays a game's entries, the start first, into the state they lead to.
func Fold(g *Game, entries []Entry) (domain.State, error) {
	if len(entries) == 0 || entries[0].Seq != 0 {
		return nil, fmt.Errorf("game %s: history does not begin with its start", g.ID)
	}
	setup := domain.Setup{Options: g.Options, Seats: g.SeatCount, Random: entries[0].Random}
	records := make([]domain.Record, 0, len(entries)-1)
	for _, e := range entries[1:] {
		records = append(records, domain.Record{Seat: *e.Seat, Action: e.Action, Random: e.Random})
	}
	return domain.Fold(g.Rules, setup, records)
}

// EntryCount is the number of entries in a game's history, the start included.
func (s *Games) EntryCount(ctx context.Context, gameID string) (int64, error) {
	var n int64
	err := s.db.Pool.QueryRow(ctx, `SELECT count(*) FROM actions WHERE game_id = $1`, gameID).Scan(&n)
	return n, err
}
