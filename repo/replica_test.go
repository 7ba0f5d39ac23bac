package repo_test

import (
	"context"
	"crypto/rand"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"primegames/repo"
	"primegames/repo/repotest"
)

// Reads that may go to a replica (DATABASE_REPLICA_URL) go there only when it has replayed every
// write committed before the read began, so a caller always reads its own writes; otherwise, and
// when the replica does not answer or is no replica, they go to the primary.

// TEST_PRIMARY_URL and TEST_REPLICA_URL name a primary and its streaming hot standby, the same
// database on each, as scripts/cluster.sh up prints them.
const primaryEnv, replicaEnv = "TEST_PRIMARY_URL", "TEST_REPLICA_URL"

func TestReadsGoToTheReplicaOnlyOnceItHasReplayedTheWrites(t *testing.T) {
	t.Parallel()
	primaryURL, replicaURL := os.Getenv(primaryEnv), os.Getenv(replicaEnv)
	if primaryURL == "" || replicaURL == "" {
		t.Skipf("%s and %s are not set, so there is no replica here: scripts/cluster.sh up starts one and prints them", primaryEnv, replicaEnv)
	}
	ctx := context.Background()
	db, err := repo.Open(ctx, primaryURL, repo.PoolOptions{ReplicaURL: replicaURL})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	standby, err := pgx.Connect(ctx, replicaURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { standby.Close(ctx) })

	table := pgx.Identifier{"replica_test_" + rand.Text()[:10]}.Sanitize()
	if _, err := db.Pool.Exec(ctx, `CREATE TABLE `+table+` (n int)`); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = db.Pool.Exec(context.Background(), `DROP TABLE `+table) })
	count := func() int {
		t.Helper()
		var n int
		if err := db.ReadPool(ctx).QueryRow(ctx, `SELECT count(*) FROM `+table).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	waitForReplica := func() {
		t.Helper()
		for deadline := time.Now().Add(20 * time.Second); db.ReadPool(ctx) != db.ReplicaPool(); {
			if time.Now().After(deadline) {
				t.Fatal("reads do not go to the replica")
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	waitForReplica()

	if _, err := standby.Exec(ctx, `SELECT pg_wal_replay_pause()`); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = standby.Exec(context.Background(), `SELECT pg_wal_replay_resume()`) })
	if _, err := db.Pool.Exec(ctx, `INSERT INTO `+table+` VALUES (1)`); err != nil {
		t.Fatal(err)
	}
	if db.ReadPool(ctx) == db.ReplicaPool() {
		t.Error("a read went to a replica that has not replayed the last write")
	}
	if n := count(); n != 1 {
		t.Errorf("the read after the write counts %d rows, want 1", n)
	}

	if _, err := standby.Exec(ctx, `SELECT pg_wal_replay_resume()`); err != nil {
		t.Fatal(err)
	}
	waitForReplica()
	var onReplica int
	if err := db.ReplicaPool().QueryRow(ctx, `SELECT count(*) FROM `+table).Scan(&onReplica); err != nil || onReplica != 1 {
		t.Errorf("the replica counts %d rows (%v) once it caught up, want 1", onReplica, err)
	}
}

func TestReadsStayOnThePrimaryWithoutAWorkingReplica(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	_, url := repotest.NewDBWithURL(t)
	for name, replicaURL := range map[string]string{
		"a replica that does not answer": "postgres://postgres@127.0.0.1:1/none?sslmode=disable&connect_timeout=2",
		"a server that is no replica":    url,
	} {
		t.Run(name, func(t *testing.T) {
			db, err := repo.Open(ctx, url, repo.PoolOptions{ReplicaURL: replicaURL})
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			for range 3 {
				if db.ReadPool(ctx) != db.Pool {
					t.Fatal("a read went elsewhere than the primary")
				}
			}
			if _, err := db.Games().Entries(ctx, "00000000-0000-0000-0000-000000000000", 0, 10); err != nil {
				t.Errorf("reading a history: %v", err)
			}
		})
	}
}
