package repo

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"primegames/live"
	"primegames/play"
)

// GameEventsChannel is the Postgres notification channel that announces every change of a game or
// its seats, so that every server instance can wake the live streams of the game and drop its kept
// record of it (records.go).
//
// The payload is "<game id>:<version>", followed by ":<classroom id>" for a game of a classroom, so
// that the classroom's streams wake too. A trigger sends it (migration 00026) inside the transaction
// that makes the change, so Postgres delivers it on commit only, in commit order. For the streams
// they are hints: a stream reads the history itself, so a notification that is lost (the listener
// was reconnecting) or coalesced costs latency, never an entry; the kept records are used only while
// the listener is connected.
const GameEventsChannel = "game_events"

// GameNotice is one notification on GameEventsChannel.
type GameNotice struct {
	GameID      string
	Version     int64  // the game's version after the change
	ClassroomID string // "" for a game outside classrooms
}

// ParseGameNotice reads a GameEventsChannel payload.
func ParseGameNotice(payload string) (GameNotice, bool) {
	id, rest, ok := strings.Cut(payload, ":")
	if !ok || id == "" {
		return GameNotice{}, false
	}
	version, classroom, _ := strings.Cut(rest, ":")
	v, err := strconv.ParseInt(version, 10, 64)
	if err != nil || v < 0 {
		return GameNotice{}, false
	}
	return GameNotice{GameID: id, Version: v, ClassroomID: classroom}, true
}

// Progress reads the game and up to limit history entries with seq > after, in one read-only
// repeatable-read transaction, so the game's status and version match the entries.
func (s *Games) Progress(ctx context.Context, gameID string, after int64, limit int) (*play.ProgressRecord, error) {
	tx, err := s.db.Pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return nil, err
	}
	defer tx.Rollback(ctx) //nolint:errcheck // read-only
	p := &play.ProgressRecord{}
	if p.Game, err = readGame(ctx, tx, gameID); err != nil {
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

// ClassroomPosition reads, for every game of the classroom, its last entry recorded before `before`
// and whether it had ended by then; with before nil, as of now.
func (s *Games) ClassroomPosition(ctx context.Context, classroomID string, before *time.Time) (*play.ClassroomPosition, error) {
	p := &play.ClassroomPosition{LastSeq: map[string]int64{}, Over: map[string]bool{}}
	rows, err := s.db.Pool.Query(ctx, `SELECT g.id::text,
			coalesce(max(a.seq) FILTER (WHERE $2::timestamptz IS NULL OR a.created_at < $2), -1),
			g.finished_at IS NOT NULL AND ($2::timestamptz IS NULL OR g.finished_at < $2)
		FROM games g LEFT JOIN actions a ON a.game_id = g.id
		WHERE g.classroom_id = $1
		GROUP BY g.id`, classroomID, before)
	if err != nil {
		return nil, err
	}
	var id string
	var last int64
	var over bool
	_, err = pgx.ForEachRow(rows, []any{&id, &last, &over}, func() error {
		p.LastSeq[id], p.Over[id] = last, over
		return nil
	})
	return p, err
}

// EntryTime is when entry seq of a game of the classroom was recorded.
func (s *Games) EntryTime(ctx context.Context, classroomID, gameID string, seq int64) (time.Time, error) {
	var at time.Time
	err := s.db.Pool.QueryRow(ctx, `SELECT a.created_at FROM actions a JOIN games g ON g.id = a.game_id
		WHERE g.classroom_id = $1 AND a.game_id = $2 AND a.seq = $3`, classroomID, gameID, seq).Scan(&at)
	if errors.Is(err, pgx.ErrNoRows) {
		return at, play.ErrNotFound
	}
	return at, err
}

// AuthorityChannel is the Postgres notification channel that announces every change ending what a
// token may do (a token rotated or revoked, a student removed or erased, a seat left), so that
// every instance ends the live streams that hold it. A trigger sends it (migration 00028) inside
// the transaction that makes the change, so Postgres delivers it on commit only, in commit order
// with the GameEventsChannel notices, to the same listening connection. The payload is
// "<reason> <key>", the key as live.AuthorityKey names it.
const AuthorityChannel = "authority_changes"

// ParseRevocation reads an AuthorityChannel payload.
func ParseRevocation(payload string) (live.Revocation, bool) {
	reason, key, ok := strings.Cut(payload, " ")
	if !ok || reason == "" || key == "" {
		return live.Revocation{}, false
	}
	return live.Revocation{Key: live.AuthorityKey(key), Reason: reason}, true
}
