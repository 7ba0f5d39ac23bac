//go:build long

package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"primegames.dev/client"
	"primegames/api/apitest"
	"primegames/repo/repotest"
)

// Backends of the server's database are terminated (pg_terminate_backend, as an operator or a
// restart would) again and again while clients create games, act and read. No request may get a 500:
// each answers 2xx, 4xx, or 503 unavailable with Retry-After. No accepted action is lost and none is
// applied twice: every game's history is contiguous and its version counts its entries.
func TestLongTerminatedBackendsGive503NotInternalErrors(t *testing.T) {
	t.Parallel()
	db, url := repotest.NewDBWithURL(t)
	s := apitest.Start(t, newServer(t, db))

	const clients, rounds = 6, 25
	var mu sync.Mutex
	statuses := map[int]int{}
	var games []*churnGame
	// The killer strikes after every few answers that were not 503, so that the clients make
	// progress between strikes however fast or slow the machine is.
	answered := make(chan struct{}, 1000)
	record := func(resp *apitest.Response) {
		mu.Lock()
		statuses[resp.StatusCode]++
		mu.Unlock()
		if resp.StatusCode < 500 {
			select {
			case answered <- struct{}{}:
			default:
			}
		}
		if resp.StatusCode >= 500 {
			if p := resp.Problem(t); resp.StatusCode != http.StatusServiceUnavailable || p.Code != "unavailable" {
				t.Errorf("%s %s = %d %s: %s", resp.Request.Method, resp.Request.URL.Path, resp.StatusCode, p.Code, p.Detail)
			} else if n, err := strconv.Atoi(resp.Header.Get("Retry-After")); err != nil || n <= 0 {
				t.Errorf("%s %s = 503 with Retry-After %q, want a number of seconds", resp.Request.Method, resp.Request.URL.Path, resp.Header.Get("Retry-After"))
			}
		}
	}

	stop := make(chan struct{})
	killed := make(chan int)
	go func() { killed <- terminateBackends(t, url, answered, stop) }()

	var wg sync.WaitGroup
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			g := &churnGame{}
			for try := 0; g.id == ""; try++ {
				if try == 50 {
					t.Errorf("client %d: no game created in %d tries", c, try)
					return
				}
				resp := s.Post("/v1/games", map[string]any{"game": "prime-climb", "players": []map[string]string{{"name": "A"}, {"name": "B"}}})
				record(resp)
				if resp.StatusCode == http.StatusCreated {
					var cr client.CreatedGame
					resp.JSON(t, &cr)
					g.id, g.tokens = cr.Game.Id.String(), []string{cr.Seats[0].Token, cr.Seats[1].Token}
				} else if resp.StatusCode != http.StatusServiceUnavailable {
					t.Errorf("client %d: create = %d: %s", c, resp.StatusCode, resp.Body)
					return
				}
			}
			mu.Lock()
			games = append(games, g)
			mu.Unlock()
			for range rounds {
				g.step(s, record)
			}
		}()
	}
	wg.Wait()
	close(stop)
	terminated := <-killed
	t.Logf("%d backends terminated; answers by status: %v", terminated, statuses)
	if terminated == 0 {
		t.Fatal("no backend was terminated; the test tested nothing")
	}
	if statuses[http.StatusCreated] == 0 {
		t.Fatal("nothing was accepted while backends were terminated")
	}
	for _, g := range games {
		g.checkHistory(t, url)
	}
}

// churnGame is one client's game: it reads the game, asks what the seat to act may do, and sends the
// first legal action with If-Match.
type churnGame struct {
	id       string
	tokens   []string
	accepted int // actions answered 201
	unsure   int // actions answered 503: applied or not
}

func (g *churnGame) step(s *apitest.Server, record func(*apitest.Response)) {
	resp := s.Get("/v1/games/"+g.id, bearer(g.tokens[0])...)
	record(resp)
	if resp.StatusCode != http.StatusOK {
		return
	}
	var body client.Game
	if err := json.Unmarshal(resp.Body, &body); err != nil || body.Status != "active" || body.Turn == nil || len(body.Turn.ToAct) != 1 {
		return
	}
	token := g.tokens[body.Turn.ToAct[0]]
	resp = s.Get("/v1/games/"+g.id+"/legal-actions", bearer(token)...)
	record(resp)
	var legal struct {
		Actions []struct {
			Action json.RawMessage `json:"action"`
		} `json:"actions"`
	}
	if resp.StatusCode != http.StatusOK || json.Unmarshal(resp.Body, &legal) != nil || len(legal.Actions) == 0 {
		return
	}
	resp = s.Post("/v1/games/"+g.id+"/actions", []byte(legal.Actions[0].Action),
		append(bearer(token), "If-Match", strconv.Quote(strconv.FormatInt(body.Version, 10)))...)
	record(resp)
	switch resp.StatusCode {
	case http.StatusCreated:
		g.accepted++
	case http.StatusServiceUnavailable:
		g.unsure++
	}
	record(s.Get("/v1/games/" + g.id + "/actions?limit=5"))
}

// checkHistory reads the game's rows directly: seqs 0..n-1 with no gap, version n, and one entry per
// accepted action (plus at most one per action whose answer was 503).
func (g *churnGame) checkHistory(t *testing.T, url string) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var entries, maxSeq, version int64
	if err := conn.QueryRow(ctx, `SELECT count(*), coalesce(max(seq), -1), (SELECT version FROM games WHERE id = $1)
		FROM actions WHERE game_id = $1`, g.id).Scan(&entries, &maxSeq, &version); err != nil {
		t.Fatal(err)
	}
	if maxSeq != entries-1 || version != entries {
		t.Errorf("game %s: %d entries up to seq %d, version %d; want seqs without gaps and version = entries", g.id, entries, maxSeq, version)
	}
	if moves := int(entries) - 1; moves < g.accepted || moves > g.accepted+g.unsure {
		t.Errorf("game %s: %d actions recorded; %d were accepted and %d answered 503", g.id, moves, g.accepted, g.unsure)
	}
}

// terminateBackends ends every other backend of the database at url after every fifth answer, until
// stop, and returns how many it ended. Only this test's database is touched: other tests share the
// server.
func terminateBackends(t *testing.T, url string, answered <-chan struct{}, stop <-chan struct{}) int {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Error(err)
		return 0
	}
	defer conn.Close(ctx)
	total := 0
	for {
		for range 5 {
			select {
			case <-stop:
				return total
			case <-answered:
			}
		}
		var n int
		err := conn.QueryRow(ctx, `SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity
			WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'`).Scan(&n)
		if err != nil {
			t.Error(fmt.Errorf("terminating backends: %w", err))
			return total
		}
		total += n
	}
}
