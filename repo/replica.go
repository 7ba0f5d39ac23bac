package repo

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// replicaPause is how long reads stay on the primary after the replica failed to answer, so that a
// replica that is down costs one failed attempt, not one per read.
const replicaPause = 5 * time.Second

// replica is a hot standby that reads may go to.
type replica struct {
	pool *pgxpool.Pool
	// failedAt is when the replica last failed to answer (unix nanoseconds), 0 if never.
	failedAt atomic.Int64
}

// reads is where a read that needs no transaction goes: the replica, when there is one and it has
// replayed everything the primary had written when the read began, else the primary. So a read
// sees every write committed before it, its caller's own included, wherever it goes: a commit
// returns once its WAL is flushed, hence at or before pg_current_wal_lsn() (with the default
// synchronous_commit, which the service does not change). It costs a round trip to each server
// more than the read itself, worth it for the reads that return a game's whole history.
func (db *DB) reads(ctx context.Context) *pgxpool.Pool {
	r := db.replica
	if r == nil || time.Since(time.Unix(0, r.failedAt.Load())) < replicaPause {
		return db.Pool
	}
	var written string
	if err := db.Pool.QueryRow(ctx, `SELECT pg_current_wal_lsn()::text`).Scan(&written); err != nil {
		return db.Pool
	}
	var caughtUp bool
	err := r.pool.QueryRow(ctx, `SELECT coalesce(pg_last_wal_replay_lsn() >= $1::pg_lsn, false)`, written).Scan(&caughtUp)
	switch {
	case err != nil:
		if ctx.Err() == nil {
			r.failedAt.Store(time.Now().UnixNano())
		}
		return db.Pool
	case !caughtUp:
		return db.Pool
	}
	return r.pool
}
