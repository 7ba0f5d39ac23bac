package api_test

import (
	"bytes"
	"context"
	"net/http"
	"net/url"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"primegames.dev/client"
	"primegames/api/apitest"
	"primegames/repo"
	"primegames/repo/repotest"
)

// The service behind PgBouncer in transaction pooling mode, where each transaction of a client
// connection runs on whichever server connection is free: two instances whose pools go through
// the pooler (DB_POOLER=transaction) and whose listeners and migrations go straight to Postgres
// (DATABASE_DIRECT_URL) serve games, retries, conflicting actions and live updates as they do
// without it. CI starts the pooler with scripts/pgbouncer.sh.

const poolerEnv = "TEST_PGBOUNCER_URL"

type pooledCluster struct {
	a, b *apitest.Server
	// direct is the test database, reached without the pooler.
	direct *repo.DB
}

func newPooledCluster(t *testing.T) *pooledCluster {
	t.Helper()
	poolerURL := os.Getenv(poolerEnv)
	if poolerURL == "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not set: CI must start a PgBouncer in transaction mode (scripts/pgbouncer.sh) and pass its address", poolerEnv)
		}
		t.Skipf("%s is not set, so nothing runs behind a pooler here: start one with `scripts/pgbouncer.sh start DIR` and set %s to the address it prints", poolerEnv, poolerEnv)
	}
	direct, directURL := repotest.NewDBWithURL(t)
	pooledURL := sameDatabase(t, poolerURL, directURL)
	c := &pooledCluster{direct: direct}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, s := range []**apitest.Server{&c.a, &c.b} {
		db, err := repo.Open(ctx, pooledURL, repo.PoolOptions{MaxConns: 8, TransactionPooler: true, DirectURL: directURL})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(db.Close)
		// The migrations' session lock is taken and released on a direct connection: through the
		// pooler the release could reach another server connection and fail.
		m, err := repo.NewMigrator(db, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Up(ctx); err != nil {
			t.Fatalf("migrations with the pool behind the pooler: %v", err)
		}
		m.Close()
		srv := newServer(t, db)
		*s = apitest.Start(t, srv)
		t.Cleanup(srv.Close)
	}
	return c
}

// sameDatabase is the pooler's address naming the database that directURL names.
func sameDatabase(t *testing.T, poolerURL, directURL string) string {
	t.Helper()
	pooler, err := url.Parse(poolerURL)
	if err != nil {
		t.Fatalf("%s: %v", poolerEnv, err)
	}
	direct, err := pgx.ParseConfig(directURL)
	if err != nil {
		t.Fatal(err)
	}
	pooler.Path = "/" + direct.Database
	q := pooler.Query()
	if q.Get("sslmode") == "" {
		q.Set("sslmode", "disable")
	}
	pooler.RawQuery = q.Encode()
	return pooler.String()
}

func TestServiceWorksBehindTransactionPooler(t *testing.T) {
	t.Parallel()
	c := newPooledCluster(t)
	instances := []*apitest.Server{c.a, c.b}

	t.Run("a created game is retried through the other instance", func(t *testing.T) {
		key := randomKey()
		create := map[string]any{"game": "primed", "players": names(2)}
		first := c.a.Post("/v1/games", create, "Idempotency-Key", key)
		retry := c.b.Post("/v1/games", create, "Idempotency-Key", key)
		if first.StatusCode != http.StatusCreated || retry.StatusCode != first.StatusCode || !bytes.Equal(first.Body, retry.Body) {
			t.Fatalf("create = %d, its retry = %d; bodies equal: %v", first.StatusCode, retry.StatusCode, bytes.Equal(first.Body, retry.Body))
		}
	})

	t.Run("conflicting actions through both instances: one accepted, retries act once", func(t *testing.T) {
		g := newEvGame(t, c.a, "prime-climb", nil, 2, 3)
		const n = 16
		keys, first := make([]string, n), make([]*apitest.Response, n)
		var wg sync.WaitGroup
		for i := range n {
			keys[i] = randomKey()
			wg.Add(1)
			go func() {
				defer wg.Done()
				first[i] = instances[i%2].Post(g.path("/actions"), map[string]string{"type": "roll"},
					append(bearer(g.tokens[g.toAct]), "Idempotency-Key", keys[i])...)
			}()
		}
		wg.Wait()
		winner := -1
		for i, r := range first {
			switch r.StatusCode {
			case http.StatusCreated:
				if winner >= 0 {
					t.Fatalf("rolls %d and %d were both accepted", winner, i)
				}
				winner = i
			case http.StatusUnprocessableEntity:
			default:
				t.Fatalf("roll %d = %d: %s", i, r.StatusCode, r.Body)
			}
		}
		if winner < 0 {
			t.Fatal("no roll was accepted")
		}
		var accepted client.ActionResult
		first[winner].JSON(t, &accepted)
		retry := instances[(winner+1)%2].Post(g.path("/actions"), map[string]string{"type": "roll"},
			append(bearer(g.tokens[g.toAct]), "Idempotency-Key", keys[winner])...)
		var again client.ActionResult
		if retry.StatusCode != http.StatusCreated {
			t.Fatalf("retry of the accepted roll = %d: %s", retry.StatusCode, retry.Body)
		}
		retry.JSON(t, &again)
		if again.Entry.Seq != accepted.Entry.Seq || again.Game.Version != accepted.Game.Version {
			t.Errorf("retry answered entry %d at version %d, the roll was entry %d at version %d",
				again.Entry.Seq, again.Game.Version, accepted.Entry.Seq, accepted.Game.Version)
		}
		var entries int
		if err := c.direct.Pool.QueryRow(context.Background(), `SELECT count(*) FROM actions WHERE game_id = $1`, g.id).Scan(&entries); err != nil {
			t.Fatal(err)
		}
		if entries != 2 {
			t.Errorf("%d history entries, want the start and one roll", entries)
		}
	})

	t.Run("a stream on one instance sees the actions made through both", func(t *testing.T) {
		g := newEvGame(t, c.a, "prime-climb", map[string]any{"prime_cards": true}, 2, 9)
		stream := openEvStream(t, c.b.URL, g.path("/events"), bearer(g.tokens[1])...)
		want := int64(0)
		for n := 0; n < 30 && g.status == "active"; n++ {
			g.s = instances[n%2]
			seq, _, _ := g.play()
			for ; want <= seq; want++ {
				if _, en := stream.next(t, evWait).action(t); en.Seq != want {
					t.Fatalf("stream gave entry %d, want %d", en.Seq, want)
				}
			}
		}
		for _, s := range instances {
			var game client.Game
			s.Get(g.path(""), bearer(g.tokens[0])...).JSON(t, &game)
			if game.Version != g.version {
				t.Errorf("the game reads at version %d, the last action left it at %d", game.Version, g.version)
			}
		}
	})
}
