package repo

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// inTx runs fn in a transaction, committing when fn succeeds.
//
// When the connection is lost before COMMIT was sent, Postgres has rolled the transaction back, so
// fn runs once more, from the start, on another connection. fn must therefore derive everything it
// writes from what it reads inside the transaction. A connection lost during COMMIT is not retried:
// the transaction may have committed, and the error says so (InDoubt).
//
// When Postgres ended the transaction to break a deadlock or a serialization conflict (conflicted),
// nothing was committed either: fn runs again, up to conflictRetries more times, on the pool.
func (db *DB) inTx(ctx context.Context, fn func(pgx.Tx) error) error {
	retry, err := tryTx(ctx, db.Pool, fn)
	for tries := 0; retry && conflicted(err) && tries < conflictRetries && ctx.Err() == nil; tries++ {
		retry, err = tryTx(ctx, db.Pool, fn)
	}
	if !retry || conflicted(err) || ctx.Err() != nil {
		return err
	}
	conn, err := db.acquireLive(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	_, err = tryTx(ctx, conn, fn)
	return err
}

// tryTx runs fn in one transaction and reports whether a failure left nothing committed, so that
// running it again cannot apply anything twice.
func tryTx(ctx context.Context, on interface {
	Begin(context.Context) (pgx.Tx, error)
}, fn func(pgx.Tx) error) (retry bool, err error) {
	tx, err := on.Begin(ctx)
	if err != nil {
		return connectionLost(err), err
	}
	defer tx.Rollback(ctx) //nolint:errcheck // a no-op after Commit
	if err := fn(tx); err != nil {
		return connectionLost(err) || conflicted(err), err
	}
	if cerr := tx.Commit(ctx); cerr != nil {
		if pgconn.SafeToRetry(cerr) || conflicted(cerr) {
			return true, cerr
		}
		if connectionLost(cerr) {
			return false, &inDoubt{err: cerr}
		}
		return false, cerr
	}
	return false, nil
}

// inGameTx is inTx for a gameTx whose time is now: fn runs once more, on another connection, when
// the connection is lost before the batch carrying COMMIT was sent (with the same now, the time of
// the change); once it was sent, a lost connection leaves the outcome in doubt.
//
// Like inTx, it runs fn again when Postgres ended the transaction to break a deadlock or a
// serialization conflict.
func (db *DB) inGameTx(ctx context.Context, now time.Time, fn func(*gameTx) error) error {
	retry, err := db.tryGameTx(ctx, db.Pool.Acquire, now, fn)
	for tries := 0; retry && conflicted(err) && tries < conflictRetries && ctx.Err() == nil; tries++ {
		retry, err = db.tryGameTx(ctx, db.Pool.Acquire, now, fn)
	}
	if !retry || conflicted(err) || ctx.Err() != nil {
		return err
	}
	_, err = db.tryGameTx(ctx, db.acquireLive, now, fn)
	return err
}

func (db *DB) tryGameTx(ctx context.Context, acquire func(context.Context) (*pgxpool.Conn, error), now time.Time, fn func(*gameTx) error) (retry bool, err error) {
	conn, err := acquire(ctx)
	if err != nil {
		return connectionLost(err), err
	}
	defer conn.Release() // a connection left in a transaction is closed, not reused
	tx := newGameTx(conn.Conn(), now)
	if err := fn(tx); err != nil {
		tx.rollback(ctx)
		return connectionLost(err) || conflicted(err), err
	}
	// The records the transaction saved are kept once their announcements are heard (records.go).
	var written []*writtenRecord
	if db.records != nil {
		for _, g := range tx.saved {
			written = append(written, db.records.writing(g, true))
		}
	}
	retry, err = tx.commit(ctx)
	if err != nil {
		for _, w := range written {
			db.records.notWritten(w)
		}
	}
	return retry, err
}

// conflictRetries bounds how many more times a transaction ended by a conflict runs.
const conflictRetries = 2

// conflicted reports whether Postgres ended the transaction to break a deadlock (40P01) or a
// serialization conflict (40001): it rolled back, committing nothing, and the same work may succeed
// when run again.
func conflicted(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && (pgErr.Code == "40P01" || pgErr.Code == "40001")
}

// acquireLive takes a connection from the pool that answers a ping. Once one connection is lost,
// the pool's idle ones may have gone with it (a restart ends them all); each dead one is dropped.
func (db *DB) acquireLive(ctx context.Context) (*pgxpool.Conn, error) {
	for tries := db.Pool.Config().MaxConns; ; tries-- {
		conn, err := db.Pool.Acquire(ctx)
		if err != nil {
			return nil, err
		}
		err = conn.Ping(ctx)
		if err == nil {
			return conn, nil
		}
		conn.Release() // a lost connection is closed, and the pool drops it
		if !connectionLost(err) || tries <= 1 {
			return nil, err
		}
	}
}

// inDoubt is a connection lost while COMMIT was under way: the transaction may or may not have
// committed.
type inDoubt struct{ err error }

func (e *inDoubt) Error() string { return "connection lost during commit: " + e.err.Error() }
func (e *inDoubt) Unwrap() error { return e.err }

// InDoubt reports whether err is a connection lost during COMMIT, after which the change may or may
// not have been saved.
func InDoubt(err error) bool {
	var d *inDoubt
	return errors.As(err, &d)
}
