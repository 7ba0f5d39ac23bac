package repo

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"primegames/play"
)

// ReadPool is where a read that may go to the replica goes now.
func (db *DB) ReadPool(ctx context.Context) *pgxpool.Pool { return db.reads(ctx) }

// ReplicaPool is the replica's pool, nil without one.
func (db *DB) ReplicaPool() *pgxpool.Pool {
	if db.replica == nil {
		return nil
	}
	return db.replica.pool
}

// RunRawGameTx runs fn as the game master's transactions run, for tests that break one: send sends
// a statement at once, with the writes queued before it; queue keeps one to go with the COMMIT.
func (db *DB) RunRawGameTx(ctx context.Context, fn func(send, queue func(sql string) error) error) error {
	return db.inGameTx(ctx, time.Now(), func(t *gameTx) error {
		send := func(sql string) error { return t.one(ctx, sql, nil, func(r pgx.Row) error { return r.Scan(nil) }) }
		queue := func(sql string) error { return t.queue(ctx, sql) }
		return fn(send, queue)
	})
}

// Setting is a setting of the migrations' sessions.
func (m *Migrator) Setting(ctx context.Context, name string) (string, error) {
	var v string
	err := m.sqlDB.QueryRowContext(ctx, "SELECT current_setting($1)", name).Scan(&v)
	return v, err
}

// UpdateUnchangedThen is UpdateUnchanged with raw statements sent after fn's writes, in the same
// round trip, for tests that break one.
func (s *Games) UpdateUnchangedThen(ctx context.Context, now time.Time, expect *play.GameRecord, fn func(play.Tx) error, then ...string) error {
	return s.UpdateUnchanged(ctx, now, expect, nil, func(tx play.Tx) error {
		if err := fn(tx); err != nil {
			return err
		}
		for _, sql := range then {
			if err := tx.GameTx.(*gameTx).queue(ctx, sql); err != nil {
				return err
			}
		}
		return nil
	})
}

// WebhookQueueSQL are the sender's searches of the deliveries, for the plan test.
var WebhookQueueSQL = map[string]string{"claim": claimSQL, "next due": nextDueSQL}

// RunTx runs fn as inTx runs the store's transactions (ended by a deadlock, run again).
func (db *DB) RunTx(ctx context.Context, fn func(pgx.Tx) error) error { return db.inTx(ctx, fn) }

// ProgressSQL are the reads of a classroom's progress and of the review queue, for the plan test.
var ProgressSQL = map[string]string{"progress days": progressDaysSQL, "claim review": claimReviewSQL}
