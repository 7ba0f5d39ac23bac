package repo_test

import (
	"context"
	"sync"
	"testing"

	"primegames/repo"
	"primegames/repo/repotest"
)

func openEmpty(t *testing.T) *repo.DB {
	t.Helper()
	db, err := repo.Open(context.Background(), repotest.NewEmptyDatabase(t), repo.PoolOptions{MaxConns: 8})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	return db
}

func newMigrator(t *testing.T, db *repo.DB) *repo.Migrator {
	t.Helper()
	m, err := repo.NewMigrator(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

// migratedWithMigrator is a new database migrated up, with its migrator, for the tests that then
// undo and redo a migration over rows written meanwhile.
func migratedWithMigrator(t *testing.T) (*repo.DB, *repo.Migrator) {
	t.Helper()
	db := openEmpty(t)
	m := newMigrator(t, db)
	if err := m.Up(context.Background()); err != nil {
		t.Fatal(err)
	}
	return db, m
}

func tableExists(t *testing.T, db *repo.DB, name string) bool {
	t.Helper()
	var exists bool
	if err := db.Pool.QueryRow(context.Background(), "SELECT to_regclass($1) IS NOT NULL", name).Scan(&exists); err != nil {
		t.Fatal(err)
	}
	return exists
}

func appliedCount(t *testing.T, m *repo.Migrator) (applied, total int) {
	t.Helper()
	all, err := m.Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range all {
		if s.Applied {
			applied++
		}
	}
	return applied, len(all)
}

func TestMigrationsUpDownUpRoundTrip(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openEmpty(t)
	m := newMigrator(t, db)

	if err := m.Up(ctx); err != nil {
		t.Fatal(err)
	}
	applied, total := appliedCount(t, m)
	if total == 0 || applied != total {
		t.Fatalf("after up: %d of %d applied", applied, total)
	}
	if !tableExists(t, db, "games") || !tableExists(t, db, "actions") {
		t.Fatal("up did not create the game tables")
	}

	if err := m.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	if applied, _ := appliedCount(t, m); applied != 0 {
		t.Fatalf("after reset: %d applied, want 0", applied)
	}
	if tableExists(t, db, "games") {
		t.Fatal("reset left the games table behind")
	}

	if err := m.Up(ctx); err != nil {
		t.Fatalf("up after reset: %v", err)
	}
	if err := m.Down(ctx); err != nil {
		t.Fatalf("down: %v", err)
	}
	if applied, total := appliedCount(t, m); applied != total-1 {
		t.Fatalf("after down: %d of %d applied, want one fewer", applied, total)
	}
	if err := m.Up(ctx); err != nil {
		t.Fatalf("up after down: %v", err)
	}
}

// Several instances starting together each run "migrate up"; the session lock makes them take turns.
func TestConcurrentMigrateUpIsSafe(t *testing.T) {
	t.Parallel()
	db := openEmpty(t)
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		m := newMigrator(t, db)
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = m.Up(context.Background())
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("instance %d: %v", i, err)
		}
	}
	if applied, total := appliedCount(t, newMigrator(t, db)); applied != total {
		t.Fatalf("%d of %d applied", applied, total)
	}
}
