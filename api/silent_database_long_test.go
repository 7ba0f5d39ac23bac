//go:build long

package api_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"primegames/api/apitest"
	"primegames/repo"
	"primegames/repo/repotest"
)

// A request whose query waits on a database connection gone silent (a proxy swallows every byte
// and closes nothing) is answered 503 unavailable once WRITE_TIMEOUT has passed, instead of
// waiting for ever and holding a connection of the pool; once the connection speaks again, so
// does the server.
func TestLongRequestsOnASilentDatabaseEndAt503(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	_, url := repotest.NewDBWithURL(t)
	proxy, proxied := repotest.NewProxy(t, url)
	db, err := repo.Open(ctx, proxied, repo.PoolOptions{MaxConns: 4})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	t.Cleanup(proxy.Cut) // before the pool closes, see the worker's test in play
	// The game is made through a server of the usual deadlines: on a loaded machine, making it can
	// take longer than the short deadline that the silent database is tested with.
	setup, err := newAPI(testConfig(), db, quietLogger())
	if err != nil {
		t.Fatal(err)
	}
	usual := apitest.Start(t, setup)
	game := createGame(t, usual, map[string]any{"game": "primed", "players": names(2)})
	cfg := testConfig()
	cfg.WriteTimeout = 300 * time.Millisecond
	srv, err := newAPI(cfg, db, quietLogger())
	if err != nil {
		t.Fatal(err)
	}
	s := apitest.Start(t, srv)
	history := "/v1/games/" + game.Game.Id.String() + "/actions"

	proxy.Silence()
	for _, path := range []string{history, "/readyz"} {
		resp := s.Get(path)
		if p := resp.Problem(t); resp.StatusCode != http.StatusServiceUnavailable || p.Code != "unavailable" {
			t.Errorf("GET %s on a silent database = %d %s, want 503 unavailable", path, resp.StatusCode, p.Code)
		}
	}
	proxy.Restore()
	if resp := usual.Get(history); resp.StatusCode != http.StatusOK { // the pool both servers share
		t.Errorf("GET %s once the database speaks again = %d: %s", history, resp.StatusCode, resp.Body)
	}
}
