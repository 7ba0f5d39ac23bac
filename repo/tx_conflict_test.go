package repo_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5"

	"primegames/repo/repotest"
)

// Two transactions that take two locks in opposite orders deadlock on their first run; Postgres
// ends one of them, which runs again (nothing of it was committed) and succeeds: both callers see
// success, and each one's row is written once.
func TestTransactionEndedByADeadlockRunsAgain(t *testing.T) {
	t.Parallel()
	db := repotest.NewDB(t)
	ctx := context.Background()
	var runs atomic.Int32
	var holding sync.WaitGroup
	holding.Add(2)
	swap := func(first, second int) error {
		run := 0
		return db.RunTx(ctx, func(tx pgx.Tx) error {
			run++
			runs.Add(1)
			if _, err := tx.Exec(ctx, `INSERT INTO webhook_outbox (game_id, seq, created_at) VALUES (gen_random_uuid(), $1, now())`, first); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, first); err != nil {
				return err
			}
			if run == 1 {
				// Each holds its first lock before it asks for the other's: a deadlock.
				holding.Done()
				holding.Wait()
			}
			_, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, second)
			return err
		})
	}
	errs := make(chan error, 2)
	go func() { errs <- swap(1, 2) }()
	go func() { errs <- swap(2, 1) }()
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatalf("a transaction failed: %v", err)
		}
	}
	if n := runs.Load(); n != 3 {
		t.Errorf("the transactions ran %d times; want 3 (one ended by the deadlock, run again)", n)
	}
	var a, b int
	if err := db.Pool.QueryRow(ctx, `SELECT count(*) FILTER (WHERE seq = 1), count(*) FILTER (WHERE seq = 2) FROM webhook_outbox`).Scan(&a, &b); err != nil || a != 1 || b != 1 {
		t.Fatalf("rows written %d and %d times, %v; want once each", a, b, err)
	}
}

// The same holds for the game master's transactions, whose writes go with their COMMIT.
func TestGameTransactionEndedByADeadlockRunsAgain(t *testing.T) {
	t.Parallel()
	db := repotest.NewDB(t)
	ctx := context.Background()
	var runs atomic.Int32
	var holding sync.WaitGroup
	holding.Add(2)
	swap := func(first, second int) error {
		run := 0
		return db.RunRawGameTx(ctx, func(send, queue func(sql string) error) error {
			run++
			runs.Add(1)
			if err := send(fmt.Sprintf(`SELECT pg_advisory_xact_lock(%d)`, first)); err != nil {
				return err
			}
			if run == 1 {
				holding.Done()
				holding.Wait()
			}
			if err := send(fmt.Sprintf(`SELECT pg_advisory_xact_lock(%d)`, second)); err != nil {
				return err
			}
			return queue(fmt.Sprintf(`INSERT INTO webhook_outbox (game_id, seq, created_at) VALUES (gen_random_uuid(), %d, now())`, first))
		})
	}
	errs := make(chan error, 2)
	go func() { errs <- swap(1, 2) }()
	go func() { errs <- swap(2, 1) }()
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatalf("a transaction failed: %v", err)
		}
	}
	if n := runs.Load(); n != 3 {
		t.Errorf("the transactions ran %d times; want 3 (one ended by the deadlock, run again)", n)
	}
	var a, b int
	if err := db.Pool.QueryRow(ctx, `SELECT count(*) FILTER (WHERE seq = 1), count(*) FILTER (WHERE seq = 2) FROM webhook_outbox`).Scan(&a, &b); err != nil || a != 1 || b != 1 {
		t.Fatalf("rows written %d and %d times, %v; want once each", a, b, err)
	}
}
