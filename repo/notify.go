package repo

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"primegames/domain"
)

// GameEventsChannel is the Postgres notification channel that announces changes to games' histories,
// so that every server instance can wake the live streams of the game.
//
// The payload is "<game id>:<seq>" once history entry seq has been appended (the start, seq 0,
// included), and "<game id>:end" when a game ends without a new entry (it is aborted); for a game of
// a classroom, ":<classroom id>" follows, so that the classroom's streams wake too. Notifications
// are sent inside the transaction that makes the change, so Postgres delivers them on commit only,
// in commit order. They are hints: a listener reads the history itself, so a notification that is
// lost (the listener was reconnecting) or coalesced costs latency, never an entry.
const GameEventsChannel = "game_events"

// GameNotice is one notification on GameEventsChannel.
type GameNotice struct {
	GameID      string
	Seq         int64  // the appended entry; -1 for End
	End         bool   // the game ended without a new entry
	ClassroomID string // "" for a game outside classrooms
}

// ParseGameNotice reads a GameEventsChannel payload.
func ParseGameNotice(payload string) (GameNotice, bool) {
	id, rest, ok := strings.Cut(payload, ":")
	if !ok || id == "" {
		return GameNotice{}, false
	}
	what, classroom, _ := strings.Cut(rest, ":")
	if what == "end" {
		return GameNotice{GameID: id, Seq: -1, End: true, ClassroomID: classroom}, true
	}
	seq, err := strconv.ParseInt(what, 10, 64)
	if err != nil || seq < 0 {
		return GameNotice{}, false
	}
	return GameNotice{GameID: id, Seq: seq, ClassroomID: classroom}, true
}

// notifySQL sends "<game id>:<what>", followed by ":<classroom id>" for a classroom's game.
const notifySQL = `SELECT pg_notify($1, $2::text || ':' || $3::text ||
	coalesce(':' || (SELECT classroom_id::text FROM games WHERE id = $2::text::uuid), ''))`

// notifyEntry announces, on commit, that entry seq of the game was appended.
func notifyEntry(ctx context.Context, tx pgx.Tx, gameID string, seq int64) error {
	_, err := tx.Exec(ctx, notifySQL, GameEventsChannel, gameID, strconv.FormatInt(seq, 10))
	return err
}

// notifyEnd announces, on commit, that the game ended without a new entry.
func notifyEnd(ctx context.Context, tx pgx.Tx, gameID string) error {
	_, err := tx.Exec(ctx, notifySQL, GameEventsChannel, gameID, "end")
	return err
}

// Progress is a game and the next entries of its history, read from one snapshot so they agree.
type Progress struct {
	Game    *Game
	Entries []Entry // up to the limit asked for, after the seq asked for, in order
	// LastSeq is the seq of the game's last entry (-1 before the start), which may lie beyond Entries.
	LastSeq int64
}

// VersionAfter is the game's version right after entry seq. After the start only appended entries
// move the version, one each, and an abort moves it once more without an entry.
func (p *Progress) VersionAfter(seq int64) int64 {
	v := p.Game.Version - (p.LastSeq - seq)
	if p.Game.Status == StatusAborted {
		v--
	}
	return v
}

// StatusAfter is the game's status right after entry seq.
func (p *Progress) StatusAfter(seq int64) Status {
	if seq == p.LastSeq && p.Game.Status == StatusFinished {
		return StatusFinished
	}
	return StatusActive
}

// Caught reports whether Entries reach the game's last entry.
func (p *Progress) Caught(after int64) bool {
	if len(p.Entries) > 0 {
		after = p.Entries[len(p.Entries)-1].Seq
	}
	return after >= p.LastSeq
}

// Progress reads the game and up to limit history entries with seq > after, in one read-only
// repeatable-read transaction, so the game's status and version match the entries.
func (s *Games) Progress(ctx context.Context, gameID string, after int64, limit int) (*Progress, error) {
	tx, err := s.db.Pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return nil, err
	}
	defer tx.Rollback(ctx) //nolint:errcheck // read-only
	p := &Progress{}
	if p.Game, err = loadGame(ctx, tx, s.db.Kinds, gameID, false); err != nil {
		return nil, err
	}
	if err := tx.QueryRow(ctx, `SELECT coalesce(max(seq), -1) FROM actions WHERE game_id = $1`, gameID).Scan(&p.LastSeq); err != nil {
		return nil, err
	}
	if after < p.LastSeq {
		rows, err := tx.Query(ctx, `SELECT `+entryColumns+` FROM actions WHERE game_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
			gameID, after, limit)
		if err != nil {
			return nil, err
		}
		if p.Entries, err = pgx.CollectRows(rows, scanEntry); err != nil {
			return nil, err
		}
	}
	return p, tx.Commit(ctx)
}

// ClassroomPosition is where each game of a classroom stood at a point in time.
type ClassroomPosition struct {
	// At is the database's clock when the position was read.
	At time.Time
	// LastSeq is each game's last entry (-1 before its start); Over, whether it had ended.
	LastSeq map[string]int64
	Over    map[string]bool
}

// ClassroomPosition reads, for every game of the classroom, its last entry recorded before `before`
// and whether it had ended by then; with before nil, as of now.
func (s *Games) ClassroomPosition(ctx context.Context, classroomID string, before *time.Time) (*ClassroomPosition, error) {
	p := &ClassroomPosition{LastSeq: map[string]int64{}, Over: map[string]bool{}}
	rows, err := s.db.Pool.Query(ctx, `SELECT g.id::text,
			coalesce(max(a.seq) FILTER (WHERE $2::timestamptz IS NULL OR a.created_at < $2), -1),
			g.finished_at IS NOT NULL AND ($2::timestamptz IS NULL OR g.finished_at < $2),
			now()
		FROM games g LEFT JOIN actions a ON a.game_id = g.id
		WHERE g.classroom_id = $1
		GROUP BY g.id`, classroomID, before)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var last int64
		var over bool
		if err := rows.Scan(&id, &last, &over, &p.At); err != nil {
			return nil, err
		}
		p.LastSeq[id], p.Over[id] = last, over
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if p.At.IsZero() {
		if err := s.db.Pool.QueryRow(ctx, `SELECT now()`).Scan(&p.At); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// EntryTime is when entry seq of a game of the classroom was recorded.
func (s *Games) EntryTime(ctx context.Context, classroomID, gameID string, seq int64) (time.Time, error) {
	var at time.Time
	err := s.db.Pool.QueryRow(ctx, `SELECT a.created_at FROM actions a JOIN games g ON g.id = a.game_id
		WHERE g.classroom_id = $1 AND a.game_id = $2 AND a.seq = $3`, classroomID, gameID, seq).Scan(&at)
	if errors.Is(err, pgx.ErrNoRows) {
		return at, domain.Errorf(domain.KindNotFound, "event_not_found", "Entry %d of game %s is not an event of this classroom.", seq, gameID)
	}
	return at, err
}
