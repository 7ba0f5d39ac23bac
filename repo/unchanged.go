package repo

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"primegames/play"
)

// An action on a game whose record this instance keeps is sent in one round trip instead of two:
// it is worked out on the kept record, without reading, and its writes travel after migration
// 00027's check that the game is still as the record has it, all in one implicit transaction. A
// record kept may be older than the game (its change not heard yet); the check then fails, nothing
// is applied, and the action is done again as before.

// errNeedsReads is what a read answers in a play.WriteOnlyTx (UpdateUnchanged).
var errNeedsReads = play.ErrNeedsReads

// KeptGame is a copy of the record this instance keeps of the game, nil when it keeps none; it may
// be older than the game.
func (s *Games) KeptGame(id string) *play.GameRecord {
	if s.db.records == nil {
		return nil
	}
	return s.db.records.peek(id)
}

// UpdateUnchanged runs fn as Update does, in a play.WriteOnlyTx on expect (a record KeptGame gave,
// which the caller changes no more) without reading: the game locked by fn is a copy of expect, and
// the writes fn queues are sent in one round trip after the check that the game is still at expect's version and
// next seq, and that no entry is kept under lookup (an Idempotency-Key's, or nil). play.ErrStale
// when fn read anything, the check failed, or the database refused the writes: nothing was applied.
func (s *Games) UpdateUnchanged(ctx context.Context, now time.Time, expect *play.GameRecord, lookup []byte, fn func(play.Tx) error) error {
	conn, err := s.db.Pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release() // a connection left in doubt is closed, not reused
	tx := newGameTx(conn.Conn(), now)
	tx.mode, tx.expect = play.WriteOnlyTx, expect
	if err := fn(tx.ports()); err != nil {
		if errors.Is(err, errNeedsReads) {
			return play.ErrStale
		}
		return err
	}
	var written []*writtenRecord
	if s.db.records != nil {
		for _, g := range tx.saved {
			written = append(written, s.db.records.writing(g, false))
		}
	}
	err = tx.commitUnchanged(ctx, lookup)
	var doubt *inDoubt
	if errors.As(err, &doubt) && tx.appended != nil {
		err = s.settle(ctx, tx, doubt)
	}
	if s.db.records != nil {
		s.db.records.sentInOneTrip(err)
		for _, w := range written {
			if err == nil {
				s.db.records.writingCommitted(w)
			} else {
				s.db.records.notWritten(w)
			}
		}
	}
	return err
}

// commitUnchanged sends the check and the queued writes in one implicit transaction.
func (t *gameTx) commitUnchanged(ctx context.Context, lookup []byte) error {
	b := &pgx.Batch{}
	b.Queue(`SELECT expect_game_unchanged($1, $2, $3, $4, $5)`, t.expect.ID, t.expect.Version, t.expect.NextSeq, lookup, t.keyAlive())
	b.QueuedQueries = append(b.QueuedQueries, t.queued.QueuedQueries...)
	t.queued = pgx.Batch{}
	err := t.conn.SendBatch(ctx, b).Close()
	var pgErr *pgconn.PgError
	switch {
	case err == nil:
		return nil
	case pgconn.SafeToRetry(err):
		return play.ErrStale
	case errors.As(err, &pgErr) && !connectionLost(err):
		// Postgres refused a statement (the check's PGC01 or another), which ended the implicit
		// transaction: nothing was applied.
		return play.ErrStale
	}
	return &inDoubt{err: err}
}

// settle finds out, on another connection, whether a change in one round trip whose connection was
// lost was applied: it was (all of it, in its implicit transaction) when the history holds its
// entry, at its seq, of its time, seat and action. Connections a restart of Postgres ended are
// found so, when the first change sent on each fails. It stays in doubt when the database cannot
// tell.
func (s *Games) settle(ctx context.Context, tx *gameTx, doubt *inDoubt) error {
	conn, err := s.db.acquireLive(ctx)
	if err != nil {
		return doubt
	}
	defer conn.Release()
	e := tx.appended
	var applied bool
	err = conn.QueryRow(ctx, `SELECT EXISTS (SELECT FROM actions WHERE game_id = $1 AND seq = $2 AND created_at = $3
			AND seat IS NOT DISTINCT FROM $4 AND action = $5::jsonb)`, e.gameID, e.seq, tx.now, e.seat, e.action).Scan(&applied)
	switch {
	case err != nil:
		return doubt
	case applied:
		return nil
	}
	return play.ErrStale
}
