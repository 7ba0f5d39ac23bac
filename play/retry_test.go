package play_test

import (
	"context"
	"encoding/json"
	"testing"

	"primegames/play"
	"primegames/repo/repotest"
)

// An action whose connection is terminated while it waits for the game's row lock (before COMMIT)
// was rolled back by Postgres; it is run again on another connection and applied exactly once.
func TestActRetriesATransactionWhoseBackendWasTerminated(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, master, created, mover := climbForTwo(t)
	g := created.Game

	// Hold the game's row lock so that the action waits, on a backend we can find and terminate.
	holder, err := db.Pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Rollback(ctx) //nolint:errcheck
	if _, err := holder.Exec(ctx, `SELECT 1 FROM games WHERE id = $1 FOR UPDATE`, g.ID); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := master.Act(ctx, play.Action{GameID: g.ID, Action: json.RawMessage(`{"type":"roll"}`)}, mover, nil)
		done <- err
	}()
	pid := repotest.LockWaiter(t, db, 0, done)
	var terminated bool
	if err := holder.QueryRow(ctx, `SELECT pg_terminate_backend($1)`, pid).Scan(&terminated); err != nil || !terminated {
		t.Fatalf("terminate backend %d: %v %v", pid, terminated, err)
	}
	// The retry waits for the lock in turn, on another backend; let it go once it does.
	repotest.LockWaiter(t, db, pid, done)
	if err := holder.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("Act = %v, want it applied after one retry", err)
	}
	var actions, version int64
	if err := db.Pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM actions WHERE game_id = $1), version FROM games WHERE id = $1`, g.ID).
		Scan(&actions, &version); err != nil {
		t.Fatal(err)
	}
	if actions != 2 || version != g.Version+1 {
		t.Errorf("after one roll: %d history entries and version %d, want 2 (start and roll) and %d", actions, version, g.Version+1)
	}
}
