package repo_test

import (
	"context"
	"testing"

	"primegames/repo"
	"primegames/repo/repotest"
)

const dieHere = `SELECT pg_terminate_backend(pg_backend_pid())`

// A connection lost before COMMIT was sent left nothing committed: the transaction runs once more,
// on another connection, and commits.
func TestGameTxLostBeforeCommitRunsAgain(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := repotest.NewDB(t)
	if _, err := db.Pool.Exec(ctx, `CREATE TABLE marks (run int)`); err != nil {
		t.Fatal(err)
	}
	runs := 0
	err := db.RunRawGameTx(ctx, func(send, queue func(string) error) error {
		runs++
		if err := send(`SELECT 1`); err != nil {
			return err
		}
		if err := queue(`INSERT INTO marks VALUES (0)`); err != nil {
			return err
		}
		if runs == 1 {
			return send(dieHere) // the queued insert goes first, and is lost with the connection
		}
		return nil
	})
	if err != nil || runs != 2 {
		t.Fatalf("err = %v after %d runs, want success on the second", err, runs)
	}
	var n int
	if err := db.Pool.QueryRow(ctx, `SELECT count(*) FROM marks`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("marks = %d (%v), want the second run's only", n, err)
	}
}

// Writes travel with the COMMIT: a connection lost once they were sent may or may not have
// committed, so the transaction is not run again and the error says the outcome is in doubt.
func TestGameTxLostWithItsCommitIsInDoubt(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := repotest.NewDB(t)
	runs := 0
	err := db.RunRawGameTx(ctx, func(send, queue func(string) error) error {
		runs++
		if err := send(`SELECT 1`); err != nil {
			return err
		}
		return queue(dieHere)
	})
	if !repo.InDoubt(err) || runs != 1 {
		t.Fatalf("err = %v after %d runs, want in doubt after one", err, runs)
	}
}
