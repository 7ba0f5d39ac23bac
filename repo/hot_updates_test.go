package repo_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"primegames/domain/games"
	"primegames/play"
	"primegames/repo"
	"primegames/repo/repotest"
)

// changedByEveryStep are the columns of games that the update saving each step of a game changes.
// An index that reads one of them, in its key, an expression or its predicate, makes every such
// update write a new entry into every index of the table instead of a heap-only update.
var changedByEveryStep = []string{"updated_at", "version", "snapshot", "to_act"}

// No index of games reads a column that every step changes (migration 00018).
func TestNoIndexOfGamesReadsAColumnEveryStepChanges(t *testing.T) {
	t.Parallel()
	db := repotest.NewDB(t)
	for _, found := range indexesOfGamesReading(t, db, changedByEveryStep) {
		t.Errorf("index %s reads games.%s, which every step of a game changes, so no action's update of its game could be heap-only; index a column that changes less often (as active_minute stands in for updated_at)", found[0], found[1])
	}
	// The same query finds the index that an earlier release had, so that it cannot pass by reading
	// the wrong thing.
	if _, err := db.Pool.Exec(context.Background(), `CREATE INDEX games_probe ON games (updated_at) WHERE status = 'active'`); err != nil {
		t.Fatal(err)
	}
	if found := indexesOfGamesReading(t, db, []string{"updated_at"}); len(found) != 1 || found[0] != [2]string{"games_probe", "updated_at"} {
		t.Fatalf("the catalogue query finds %v, want the probe index on updated_at", found)
	}
}

// indexesOfGamesReading lists the indexes of games that read one of columns, in their key, an
// expression or their predicate, as (index, column) pairs.
func indexesOfGamesReading(t *testing.T, db *repo.DB, columns []string) [][2]string {
	t.Helper()
	rows, err := db.Pool.Query(context.Background(), `SELECT DISTINCT i.relname, a.attname
		FROM pg_depend d
		JOIN pg_class i ON d.classid = 'pg_class'::regclass AND i.oid = d.objid AND i.relkind = 'i'
		JOIN pg_attribute a ON a.attrelid = d.refobjid AND a.attnum = d.refobjsubid
		WHERE d.refclassid = 'pg_class'::regclass AND d.refobjid = 'games'::regclass AND a.attname = ANY($1)`, columns)
	if err != nil {
		t.Fatal(err)
	}
	found, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) ([2]string, error) {
		var pair [2]string
		return pair, r.Scan(&pair[0], &pair[1])
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}

// The actions of a game played through the service update its row heap-only, as Postgres's own
// statistics count them once the connections that made them have closed.
func TestActionsUpdateTheirGameHeapOnly(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, url := repotest.NewDBWithURL(t)
	master := play.New(db.Games().Stores(), games.All())
	created, err := master.Create(ctx, play.NewGame{Kind: "primed", Players: []string{"Ada", "Ben"}}, play.Nobody, nil)
	if err != nil {
		t.Fatal(err)
	}
	seats := seatPrincipals(created)
	// A heap-only update needs room on the row's page. Postgres makes room by pruning the row's old
	// versions, which it may not do while any session of the server, in any database, has a
	// transaction older than them (as other tests' sessions do). So the game takes no more steps
	// than the page holds versions of its row (about 700 bytes each) without pruning, and the test
	// asks only whether Postgres found each update heap-only, not how soon it pruned.
	const steps = 8
	for range steps {
		actOnce(t, master, created.Game.ID, seats)
	}
	db.Pool.Close() // a backend sends its statistics when it ends

	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var updates, heapOnly int64
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if err := conn.QueryRow(ctx, `SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables WHERE relname = 'games'`).
			Scan(&updates, &heapOnly); err != nil {
			t.Fatal(err)
		}
		if updates >= steps {
			break
		}
	}
	if updates < steps {
		t.Fatalf("Postgres counted %d updates of games after %d actions", updates, steps)
	}
	// One update may cross a minute and change active_minute.
	if heapOnly < updates-1 {
		t.Errorf("%d of %d updates of games were heap-only, want all but one at most", heapOnly, updates)
	}
}

// An active game left alone since before migration 00018 is still found idle after it: the
// migration gives the active games the minute of their last change.
func TestIdleGamesFromBeforeActiveMinuteAreStillFound(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, m := migratedWithMigrator(t)
	master := play.New(db.Games().Stores(), games.All())
	var ids []string
	for range 2 {
		created, err := master.Create(ctx, play.NewGame{Kind: "primed", Players: []string{"Ada", "Ben"}}, play.Nobody, nil)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, created.Game.ID)
	}
	migrateDownUntilGone(t, db, m, "games", "active_minute")
	if _, err := db.Pool.Exec(ctx, `UPDATE games SET updated_at = now() - interval '40 days' WHERE id = $1`, ids[0]); err != nil {
		t.Fatal(err)
	}
	if err := m.Up(ctx); err != nil {
		t.Fatal(err)
	}
	found, err := db.Games().DueGames(ctx, []play.Due{{Work: play.DueAbandoned, Now: time.Now(), LobbyTTL: time.Hour, IdleTTL: play.DefaultIdleGameTTL}}, 4)
	idle := found[0]
	if err != nil || len(idle) != 1 || idle[0].ID != ids[0] {
		t.Fatalf("idle games after the migration: %v (%v), want only %s", idle, err, ids[0])
	}
}
