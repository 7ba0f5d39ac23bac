package api_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"primegames.dev/client"
	"primegames/api/apitest"
	"primegames/repo/repotest"
)

const (
	dashboard  = "https://dash.example.org"
	noSuchGame = "/v1/games/00000000-0000-4000-8000-000000000000"
)

// newCORSServer allows the dashboard's origin, with a rate limit so tight that preflights would
// use it up if they counted.
func newCORSServer(t *testing.T, origins ...string) *apitest.Server {
	t.Helper()
	cfg := testConfig()
	cfg.CORSOrigins = origins
	cfg.RateLimit, cfg.RateBurst = 0.001, 5
	srv, err := newAPI(cfg, repotest.NewDB(t), quietLogger())
	if err != nil {
		t.Fatal(err)
	}
	return apitest.Start(t, srv)
}

func preflight(s *apitest.Server, origin, method, path string) *apitest.Response {
	return s.Do(s.Request(http.MethodOptions, path, nil, "Origin", origin,
		"Access-Control-Request-Method", method,
		"Access-Control-Request-Headers", "authorization,content-type,if-match,idempotency-key"))
}

func assertHeaderLists(t *testing.T, resp *apitest.Response, name string, want ...string) {
	t.Helper()
	got := map[string]bool{}
	for _, item := range strings.Split(resp.Header.Get(name), ",") {
		got[strings.ToLower(strings.TrimSpace(item))] = true
	}
	for _, w := range want {
		if !got[strings.ToLower(w)] {
			t.Errorf("%s %s: %s = %q, want it to list %s", resp.Request.Method, resp.Request.URL.Path, name, resp.Header.Get(name), w)
		}
	}
}

func TestCORSPreflightFromAllowedOriginPassesEveryGate(t *testing.T) {
	t.Parallel()
	s := newCORSServer(t, dashboard)
	// More preflights than the burst: a preflight is answered before the rate limit, the body gate
	// and the request validator, and costs the client nothing.
	for range 10 {
		resp := preflight(s, dashboard, http.MethodPost, noSuchGame+"/actions")
		if resp.StatusCode != http.StatusNoContent {
			t.Fatalf("preflight = %d, want 204: %s", resp.StatusCode, resp.Body)
		}
		if got := resp.Header.Get("Access-Control-Allow-Origin"); got != dashboard {
			t.Fatalf("Access-Control-Allow-Origin = %q, want %q", got, dashboard)
		}
		assertHeaderLists(t, resp, "Access-Control-Allow-Methods", "GET", "POST", "PATCH", "DELETE")
		assertHeaderLists(t, resp, "Access-Control-Allow-Headers",
			"Authorization", "Content-Type", "If-Match", "If-None-Match", "Idempotency-Key", "Last-Event-ID", "X-Request-ID")
		if resp.Header.Get("Access-Control-Allow-Credentials") != "" {
			t.Errorf("Access-Control-Allow-Credentials = %q; bearer tokens need no credentials", resp.Header.Get("Access-Control-Allow-Credentials"))
		}
		if resp.Header.Get("Access-Control-Max-Age") == "" {
			t.Errorf("no Access-Control-Max-Age: browsers would repeat the preflight before every request")
		}
	}
	// The burst is still whole: the preflights took none of it.
	for i := range 5 {
		if resp := s.Get(noSuchGame, "Origin", dashboard); resp.StatusCode != http.StatusNotFound {
			t.Fatalf("request %d after the preflights = %d, want 404: %s", i+1, resp.StatusCode, resp.Body)
		}
	}
	// A refusal reaches the page too, so that it can read Retry-After.
	resp := s.Get(noSuchGame, "Origin", dashboard)
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Access-Control-Allow-Origin") != dashboard {
		t.Errorf("beyond the burst: %d with Access-Control-Allow-Origin %q, want 429 with %q",
			resp.StatusCode, resp.Header.Get("Access-Control-Allow-Origin"), dashboard)
	}
}

func TestCORSRefusesOtherOriginsAndIsOffByDefault(t *testing.T) {
	t.Parallel()
	for name, s := range map[string]*apitest.Server{
		"other origin": newCORSServer(t, dashboard),
		"CORS off":     newCORSServer(t),
	} {
		for _, resp := range []*apitest.Response{
			preflight(s, "https://evil.example.com", http.MethodPost, "/v1/games"),
			s.Get("/healthz", "Origin", "https://evil.example.com"),
		} {
			if got := resp.Header.Get("Access-Control-Allow-Origin"); got != "" {
				t.Errorf("%s: %s %s: Access-Control-Allow-Origin = %q, want none", name, resp.Request.Method, resp.Request.URL.Path, got)
			}
		}
	}
}

func TestCORSOnResponsesAndStreamsFromAllowedOrigin(t *testing.T) {
	t.Parallel()
	s := newCORSServer(t, dashboard)
	created := s.Post("/v1/games", map[string]any{"game": "primed", "players": []map[string]string{{"name": "Ada"}, {"name": "Ben"}}},
		"Origin", dashboard)
	if created.StatusCode != http.StatusCreated {
		t.Fatalf("create = %d: %s", created.StatusCode, created.Body)
	}
	var c client.CreatedGame
	created.JSON(t, &c)
	path := "/v1/games/" + c.Game.Id.String()

	for _, resp := range []*apitest.Response{created, s.Get(path, "Origin", dashboard)} {
		if got := resp.Header.Get("Access-Control-Allow-Origin"); got != dashboard {
			t.Errorf("%s %s: Access-Control-Allow-Origin = %q, want %q", resp.Request.Method, resp.Request.URL.Path, got, dashboard)
		}
		assertHeaderLists(t, resp, "Access-Control-Expose-Headers", "ETag", "Retry-After", "X-Request-ID", "Location")
	}

	stream := openEvStream(t, s.URL, path+"/events?access_token="+url.QueryEscape(c.Seats[0].Token), "Origin", dashboard)
	if got := stream.resp.Header.Get("Access-Control-Allow-Origin"); got != dashboard {
		t.Errorf("event stream: Access-Control-Allow-Origin = %q, want %q", got, dashboard)
	}
}

func TestCORSAnyOriginSendsAStarWithoutCredentials(t *testing.T) {
	t.Parallel()
	s := newCORSServer(t, "*")
	resp := preflight(s, "https://anywhere.example.net", http.MethodGet, "/v1/games")
	if resp.StatusCode != http.StatusNoContent || resp.Header.Get("Access-Control-Allow-Origin") != "*" ||
		resp.Header.Get("Access-Control-Allow-Credentials") != "" {
		t.Errorf("preflight = %d with %v, want 204 with Access-Control-Allow-Origin * and no credentials", resp.StatusCode, resp.Header)
	}
}
