package repo

import (
	"context"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
)

// GameEventsChannel is the Postgres notification channel that announces changes to games' histories,
// so that every server instance can wake the live streams of the game.
//
// The payload is "<game id>:<seq>" once history entry seq has been appended (the start, seq 0,
// included), and "<game id>:end" when a game ends without a new entry (it is aborted). Notifications
// are sent inside the transaction that makes the change, so Postgres delivers them on commit only,
// in commit order. They are hints: a listener reads the history itself, so a notification that is
// lost (the listener was reconnecting) or coalesced costs latency, never an entry.
const GameEventsChannel = "game_events"

// GameNotice is one notification on GameEventsChannel.
type GameNotice struct {
	GameID string
	Seq    int64 // the appended entry; -1 for End
	End    bool  // the game ended without a new entry
}

// ParseGameNotice reads a GameEventsChannel payload.
func ParseGameNotice(payload string) (GameNotice, bool) {
	id, rest, ok := strings.Cut(payload, ":")
	if !ok || id == "" {
		return GameNotice{}, false
	}
	if rest == "end" {
		return GameNotice{GameID: id, Seq: -1, End: true}, true
	}
	seq, err := strconv.ParseInt(rest, 10, 64)
	if err != nil || seq < 0 {
		return GameNotice{}, false
	}
	return GameNotice{GameID: id, Seq: seq}, true
}

// notifyEntry announces, on commit, that entry seq of the game was appended.
func notifyEntry(ctx context.Context, tx pgx.Tx, gameID string, seq int64) error {
	_, err := tx.Exec(ctx, `SELECT pg_notify($1, $2)`, GameEventsChannel, gameID+":"+strconv.FormatInt(seq, 10))
	return err
}

// notifyEnd announces, on commit, that the game ended without a new entry.
func notifyEnd(ctx context.Context, tx pgx.Tx, gameID string) error {
	_, err := tx.Exec(ctx, `SELECT pg_notify($1, $2)`, GameEventsChannel, gameID+":end")
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
	if p.Game, err = loadGame(ctx, tx, gameID, false); err != nil {
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
