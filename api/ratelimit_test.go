package api_test

import (
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"primegames.dev/client"
	"primegames/api"
	"primegames/api/apitest"
	"primegames/repo"
	"primegames/repo/repotest"
)

// limitedServer starts an instance with cfg's limits and, on the same database, an unlimited one
// for setting games up.
func limitedServer(t *testing.T, db *repo.DB, cfg api.Config) (limited, setup *apitest.Server) {
	t.Helper()
	srv, err := newAPI(cfg, db, quietLogger())
	if err != nil {
		t.Fatal(err)
	}
	limited = apitest.Start(t, srv)
	t.Cleanup(srv.Close)
	return limited, apitest.Start(t, newServer(t, db))
}

// oneRequestAMinute lets a client send 3 requests at once, then one a minute: a fourth request
// right away is refused however slowly the test runs.
func oneRequestAMinute() api.Config {
	cfg := testConfig()
	cfg.RateLimit, cfg.RateBurst = 1.0/60, 3
	return cfg
}

// expectLimited fails unless resp is 429 rate_limited with a Retry-After of at least a second.
func expectLimited(t *testing.T, what string, resp *apitest.Response) {
	t.Helper()
	if resp.StatusCode != http.StatusTooManyRequests || resp.Problem(t).Code != "rate_limited" {
		t.Fatalf("%s = %d: %s, want 429 rate_limited", what, resp.StatusCode, resp.Body)
	}
	if n, err := strconv.Atoi(resp.Header.Get("Retry-After")); err != nil || n < 1 {
		t.Errorf("%s: Retry-After %q", what, resp.Header.Get("Retry-After"))
	}
}

// A client gets its burst, then 429 with Retry-After; another token from the same address, and
// the address without a token, are other clients. Probes are never limited.
func TestRateLimitPerClient(t *testing.T) {
	t.Parallel()
	db := repotest.NewDB(t)
	s, setup := limitedServer(t, db, oneRequestAMinute())
	resp := setup.Post("/v1/games", map[string]any{"game": "primed", "players": names(2)})
	var g client.CreatedGame
	resp.JSON(t, &g)
	path := "/v1/games/" + g.Game.Id.String()
	for i := range 3 {
		if resp := s.Get(path, bearer(g.Seats[0].Token)...); resp.StatusCode != http.StatusOK {
			t.Fatalf("request %d of the burst = %d: %s", i+1, resp.StatusCode, resp.Body)
		}
	}
	expectLimited(t, "a fourth request with seat 0's token", s.Get(path, bearer(g.Seats[0].Token)...))
	if resp := s.Get(path, bearer(g.Seats[1].Token)...); resp.StatusCode != http.StatusOK {
		t.Errorf("seat 1's token from the same address = %d, want 200", resp.StatusCode)
	}
	if resp := s.Get(path); resp.StatusCode != http.StatusOK {
		t.Errorf("no token from the same address = %d, want 200", resp.StatusCode)
	}
	for range 5 {
		if resp := s.Get("/healthz", bearer(g.Seats[0].Token)...); resp.StatusCode != http.StatusOK {
			t.Fatalf("/healthz = %d, want 200: probes are not limited", resp.StatusCode)
		}
	}
}

// X-Forwarded-For names the client only when the peer is a trusted proxy.
func TestRateLimitTrustsForwardedForOnlyFromTrustedProxies(t *testing.T) {
	t.Parallel()
	db := repotest.NewDB(t)
	direct, _ := limitedServer(t, db, oneRequestAMinute())
	cfg := oneRequestAMinute()
	_, loopback, _ := net.ParseCIDR("127.0.0.1/32")
	cfg.TrustedProxies = []*net.IPNet{loopback}
	proxied, _ := limitedServer(t, db, cfg)
	forwardedFor := func(addr string) []string { return []string{"X-Forwarded-For", addr} }

	for i := range 3 {
		direct.Get("/v1/boards/prime-climb", forwardedFor("203.0.113."+strconv.Itoa(i+1))...)
	}
	expectLimited(t, "from an untrusted peer, a fourth X-Forwarded-For", direct.Get("/v1/boards/prime-climb", forwardedFor("203.0.113.9")...))

	for range 3 {
		proxied.Get("/v1/boards/prime-climb", forwardedFor("203.0.113.1")...)
	}
	expectLimited(t, "through a trusted proxy, the same client a fourth time", proxied.Get("/v1/boards/prime-climb", forwardedFor("203.0.113.1")...))
	if resp := proxied.Get("/v1/boards/prime-climb", forwardedFor("203.0.113.2")...); resp.StatusCode != http.StatusOK {
		t.Errorf("through a trusted proxy, another client = %d, want 200", resp.StatusCode)
	}
}

// A client may hold StreamsPerClient streams; the next is refused with 429 while another client
// can still open one, and closing one frees its place.
func TestStreamLimitPerClient(t *testing.T) {
	t.Parallel()
	db := repotest.NewDB(t)
	cfg := testConfig()
	cfg.StreamsPerClient = 2
	s, setup := limitedServer(t, db, cfg)
	resp := setup.Post("/v1/games", map[string]any{"game": "primed", "players": names(2)})
	var g client.CreatedGame
	resp.JSON(t, &g)
	path := "/v1/games/" + g.Game.Id.String() + "/events"
	first := openEvStream(t, s.URL, path)
	openEvStream(t, s.URL, path)
	expectLimited(t, "a third stream from the same client", s.Get(path))
	openEvStream(t, s.URL, path, bearer(g.Seats[0].Token)...)
	openEvStream(t, s.URL, path+"?access_token="+g.Seats[1].Token)
	first.close()
	waitForStreamSlot(t, s.URL+path, http.StatusTooManyRequests)
}

// Tokens a client makes up do not multiply its share: one address gets addressShare clients' worth
// of requests in all, whatever tokens they carry.
func TestRateLimitPerAddressCountsEveryToken(t *testing.T) {
	t.Parallel()
	db := repotest.NewDB(t)
	s, _ := limitedServer(t, db, oneRequestAMinute())
	const share = 10 * 3 // addressShare times the burst
	for i := range share {
		made := bearer("pgs_madeup" + strconv.Itoa(i))
		if resp := s.Get("/v1/boards/prime-climb", made...); resp.StatusCode != http.StatusOK {
			t.Fatalf("request %d, with a token of its own = %d: %s", i+1, resp.StatusCode, resp.Body)
		}
	}
	expectLimited(t, "one more request from the address, with yet another token", s.Get("/v1/boards/prime-climb", bearer("pgs_madeup-last")...))
}

// rateLimitStanding parses a RateLimit field into each policy's remaining requests and seconds to reset.
func rateLimitStanding(t *testing.T, field string) map[string][2]int {
	t.Helper()
	standing := map[string][2]int{}
	for _, member := range strings.Split(field, ", ") {
		var name string
		var r, reset int
		parts := strings.Split(member, ";")
		if len(parts) != 3 {
			t.Fatalf("RateLimit member %q: want \"name\";r=N;t=N", member)
		}
		name = strings.Trim(parts[0], `"`)
		if _, err := fmt.Sscanf(parts[1]+" "+parts[2], "r=%d t=%d", &r, &reset); err != nil {
			t.Fatalf("RateLimit member %q: %v", member, err)
		}
		standing[name] = [2]int{r, reset}
	}
	return standing
}

// Every limited response, the 429 included, says what is left: RateLimit-Policy names the two
// policies (a burst of 3, refilled over 180 s at one a minute; ten times that for the address) and
// RateLimit counts down. Probes, which are not limited, carry neither.
func TestRateLimitHeaders(t *testing.T) {
	t.Parallel()
	db := repotest.NewDB(t)
	s, setup := limitedServer(t, db, oneRequestAMinute())
	var g client.CreatedGame
	setup.Post("/v1/games", map[string]any{"game": "primed", "players": names(2)}).JSON(t, &g)
	path := "/v1/games/" + g.Game.Id.String()
	const policy = `"address";q=30;w=180, "client";q=3;w=180`
	for i := range 4 {
		resp := s.Get(path, bearer(g.Seats[0].Token)...)
		if i == 3 {
			expectLimited(t, "the fourth request", resp)
		} else if resp.StatusCode != http.StatusOK {
			t.Fatalf("request %d = %d: %s", i+1, resp.StatusCode, resp.Body)
		}
		if got := resp.Header.Get("RateLimit-Policy"); got != policy {
			t.Errorf("request %d: RateLimit-Policy %q, want %q", i+1, got, policy)
		}
		standing := rateLimitStanding(t, resp.Header.Get("RateLimit"))
		client, address := standing["client"], standing["address"]
		wantClient := max(0, 2-i)
		// One token comes back a minute, so the bucket is full after 60 s for each one missing;
		// the test may take a few seconds on a busy machine.
		wantReset := (3 - wantClient) * 60
		if client[0] != wantClient || client[1] > wantReset || client[1] < wantReset-10 {
			t.Errorf("request %d: client r=%d t=%d, want r=%d t≈%d", i+1, client[0], client[1], wantClient, wantReset)
		}
		if address[0] != 29-i {
			t.Errorf("request %d: address r=%d, want %d", i+1, address[0], 29-i)
		}
	}
	if resp := s.Get("/healthz"); resp.Header.Get("RateLimit") != "" || resp.Header.Get("RateLimit-Policy") != "" {
		t.Errorf("/healthz carries RateLimit %q, RateLimit-Policy %q; probes are not limited", resp.Header.Get("RateLimit"), resp.Header.Get("RateLimit-Policy"))
	}
}
