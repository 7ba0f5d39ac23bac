package repo_test

import (
	"context"
	"errors"
	"testing"

	"github.com/jackc/pgx/v5"

	"primegames/play"
	"primegames/repo"
	"primegames/repo/repotest"
)

// A read whose pooled connection was terminated (pg_terminate_backend, 57P01) runs once more on
// another connection instead of failing: a request that only reads need not answer 503 for it.
func TestReadsRetryOnceWhenTheirConnectionWasTerminated(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, url := repotest.NewDBWithOptions(t, repo.PoolOptions{MaxConns: 1})
	games := db.Games()
	killer, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer killer.Close(ctx)
	// terminate ends the backend of the pool's one idle connection.
	terminate := func() {
		t.Helper()
		var pid uint32
		if err := db.Pool.QueryRow(ctx, `SELECT pg_backend_pid()`).Scan(&pid); err != nil {
			t.Fatal(err)
		}
		var done bool
		if err := killer.QueryRow(ctx, `SELECT pg_terminate_backend($1, 5000)`, pid).Scan(&done); err != nil || !done {
			t.Fatalf("terminate %d: %v %v", pid, done, err)
		}
	}
	for name, read := range map[string]func() error{
		"Game": func() error {
			_, err := games.Game(ctx, "00000000-0000-0000-0000-000000000000")
			if errors.Is(err, play.ErrNotFound) {
				return nil
			}
			return err
		},
		"Entries":    func() error { _, err := games.Entries(ctx, "00000000-0000-0000-0000-000000000000", -1, 10); return err },
		"EntryCount": func() error { _, err := games.EntryCount(ctx, "00000000-0000-0000-0000-000000000000"); return err },
		"ListGames":  func() error { _, err := games.ListGames(ctx, play.GameQuery{Limit: 10}); return err },
	} {
		terminate()
		if err := read(); err != nil {
			t.Errorf("%s after its connection was terminated: %v, want it read on another", name, err)
		}
	}
}
