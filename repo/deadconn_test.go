package repo_test

import (
	"context"
	"testing"
	"time"

	"primegames/repo"
	"primegames/repo/repotest"
)

// The pool's sessions end a statement or an idle transaction that runs past the statement timeout,
// so that a client gone silent holds no lock for ever; the migrations' sessions have none, since a
// migration may rightly run longer.
func TestSessionsBoundStatementsButNotMigrations(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	_, url := repotest.NewDBWithURL(t)
	db, err := repo.Open(ctx, url, repo.PoolOptions{MaxConns: 2, StatementTimeout: 1500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, setting := range []string{"statement_timeout", "idle_in_transaction_session_timeout"} {
		var got string
		if err := db.Pool.QueryRow(ctx, "SELECT current_setting($1)", setting).Scan(&got); err != nil || got != "1500ms" {
			t.Errorf("%s = %q (%v), want 1500ms", setting, got, err)
		}
	}
	var defaulted string
	if err := repotest.NewDB(t).Pool.QueryRow(ctx, "SELECT current_setting('statement_timeout')").Scan(&defaulted); err != nil || defaulted != "30s" {
		t.Errorf("statement_timeout by default = %q (%v), want 30s", defaulted, err)
	}
	m, err := repo.NewMigrator(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if got, err := m.Setting(ctx, "statement_timeout"); err != nil || got != "0" {
		t.Errorf("the migrations' statement_timeout = %q (%v), want 0 (none)", got, err)
	}
}
