package repo

import (
	"context"

	"github.com/jackc/pgx/v5"

	"primegames/play"
)

const entryColumns = `seq, version, seat, action, outcome, random, created_at, service, coalesce(bot, ''), timeout`

// scanEntry scans the JSON columns as bytes, as gameRow does.
func scanEntry(row pgx.CollectableRow) (play.Entry, error) {
	var e play.Entry
	var seat *int32
	var random []int32
	var bot string
	if err := row.Scan(&e.Seq, &e.Version, &seat, (*[]byte)(&e.Action), (*[]byte)(&e.Outcome), &random, &e.CreatedAt, &e.Service, &bot, &e.Timeout); err != nil {
		return e, err
	}
	if seat != nil {
		s := int(*seat)
		e.Seat = &s
	}
	setText(&e.Bot, bot)
	e.Random = make([]int, len(random))
	for i, v := range random {
		e.Random[i] = int(v)
	}
	return e, nil
}

// Entries returns up to limit history entries with seq > after, in order.
func (s *Games) entries(ctx context.Context, gameID string, after int64, limit int) ([]play.Entry, error) {
	rows, err := s.db.reads(ctx).Query(ctx, `SELECT `+entryColumns+` FROM actions WHERE game_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
		gameID, after, limit)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, scanEntry)
}

// EachEntry calls fn for every history entry in order, reading them as it goes, for streaming.
func (s *Games) EachEntry(ctx context.Context, gameID string, fn func(play.Entry) error) error {
	rows, err := s.db.reads(ctx).Query(ctx, `SELECT `+entryColumns+` FROM actions WHERE game_id = $1 ORDER BY seq`, gameID)
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

// EntriesThrough returns the entries with seq <= through, in order.
func (s *Games) entriesThrough(ctx context.Context, gameID string, through int64) ([]play.Entry, error) {
	rows, err := s.db.reads(ctx).Query(ctx, `SELECT `+entryColumns+` FROM actions WHERE game_id = $1 AND seq <= $2 ORDER BY seq`, gameID, through)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, scanEntry)
}

// EntryCount is the number of entries in a game's history, the start included.
func (s *Games) entryCount(ctx context.Context, gameID string) (int64, error) {
	var n int64
	err := s.db.Pool.QueryRow(ctx, `SELECT count(*) FROM actions WHERE game_id = $1`, gameID).Scan(&n)
	return n, err
}
