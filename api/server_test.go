package api_test

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"os/signal"

	"github.com/labstack/echo/v4"

	"primegames/api"
	"primegames/api/apitest"
	"primegames/domain"
	"primegames/domain/games"
	"primegames/play"
	"primegames/repo"
	"primegames/repo/repotest"
)

func testConfig() api.Config {
	return api.Config{
		BodyLimitBytes: 1024,
		ReadTimeout:    5 * time.Second,
		WriteTimeout:   10 * time.Second,
		IdleTimeout:    10 * time.Second,
		ShutdownGrace:  5 * time.Second,
		LTI:            api.LTIConfig{PublicURL: "https://games.example"}, // with newServiceOn's key: LTI on (lti_test.go)
	}
}

// quietLogger drops the access log but keeps errors, so a 500 in a test shows its cause.
func quietLogger() *slog.Logger {
	return slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))
}

// newAPI wires a server over db as cmd/primegames does.
func newAPI(cfg api.Config, db *repo.DB, logger *slog.Logger) (*api.Server, error) {
	return newAPIHosting(games.All(), cfg, db, logger)
}

// newAPIHosting wires a server over db that hosts the kinds of game in the catalogue.
func newAPIHosting(kinds *domain.Catalogue, cfg api.Config, db *repo.DB, logger *slog.Logger) (*api.Server, error) {
	return api.New(cfg, api.Deps{Play: newServiceOn(db, kinds, nil), Database: db, Feed: db}, logger)
}

// newAPIOn is newAPI with the service reading clock (nil: the system clock), such as a
// playclock.Clock that the test moves to the deadlines it waits for.
func newAPIOn(cfg api.Config, db *repo.DB, clock play.Clock, logger *slog.Logger) (*api.Server, error) {
	return api.New(cfg, api.Deps{Play: newServiceOn(db, games.All(), clock), Database: db, Feed: db}, logger)
}

// newServiceOn is the game master over db hosting kinds, on clock (nil: the system clock), configured
// by opts. Every
// service of a test (each instance's API and worker) must read the same clock.
func newServiceOn(db *repo.DB, kinds *domain.Catalogue, clock play.Clock, opts ...play.Option) *play.Service {
	// A SECRET_KEY, as every deployment should have, for the students' sign-in codes (an option
	// after it may take it away).
	opts = append([]play.Option{play.WithSignInCodeSecret([]byte("the tests' SECRET_KEY"))}, opts...)
	if clock != nil {
		opts = append(opts, play.WithClock(clock))
	}
	opts = append([]play.Option{play.WithLTI(play.LTIConfig{SealingKey: []byte(testLTIKey)})}, opts...)
	return play.New(db.Games().Stores(), kinds, opts...)
}

func newServer(t *testing.T, db *repo.DB) *api.Server {
	t.Helper()
	srv, err := newAPI(testConfig(), db, quietLogger())
	if err != nil {
		t.Fatalf("newAPI: %v", err)
	}
	return srv
}

func TestHealthAndReadinessWithDatabase(t *testing.T) {
	t.Parallel()
	s := apitest.Start(t, newServer(t, repotest.NewDB(t)))
	for path, want := range map[string]string{"/healthz": "ok", "/readyz": "ready"} {
		resp := s.Get(path)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s = %d, want 200: %s", path, resp.StatusCode, resp.Body)
		}
		var body struct{ Status string }
		resp.JSON(t, &body)
		if body.Status != want {
			t.Errorf("GET %s status = %q, want %q", path, body.Status, want)
		}
	}
}

func TestReadinessWithoutDatabaseIs503Problem(t *testing.T) {
	t.Parallel()
	// Nothing listens on a port we just released, so every connection attempt fails.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	db, err := repo.Open(context.Background(), "host=127.0.0.1 sslmode=disable connect_timeout=1 port="+strconv.Itoa(port), repo.PoolOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	s := apitest.Start(t, newServer(t, db))

	resp := s.Get("/readyz")
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("GET /readyz = %d, want 503", resp.StatusCode)
	}
	if p := resp.Problem(t); p.Code != "unavailable" || p.Status != 503 {
		t.Errorf("problem = %+v", p)
	}
	if resp := s.Get("/healthz"); resp.StatusCode != http.StatusOK {
		t.Errorf("GET /healthz = %d without a database, want 200", resp.StatusCode)
	}
	// Without a database, game requests say "try again later", not "internal error".
	for _, resp := range []*apitest.Response{
		s.Get("/v1/games"),
		s.Post("/v1/games", map[string]any{"game": "primed", "seats": 2}),
		s.Get("/v1/games/00000000-0000-0000-0000-000000000000"),
	} {
		if p := resp.Problem(t); resp.StatusCode != http.StatusServiceUnavailable || p.Code != "unavailable" {
			t.Errorf("%s %s without a database = %d %+v, want 503 unavailable", resp.Request.Method, resp.Request.URL.Path, resp.StatusCode, p)
		}
	}
}

func TestUnknownRouteAndWrongMethodAreProblems(t *testing.T) {
	t.Parallel()
	s := apitest.Start(t, newServer(t, repotest.NewDB(t)))

	resp := s.Get("/no/such/thing")
	if resp.StatusCode != http.StatusNotFound {
		t.Fatalf("unknown route = %d, want 404", resp.StatusCode)
	}
	if p := resp.Problem(t); p.Code != "not_found" || p.Instance != "/no/such/thing" {
		t.Errorf("404 problem = %+v", p)
	}

	resp = s.Do(s.Request(http.MethodDelete, "/healthz", nil))
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Fatalf("DELETE /healthz = %d, want 405", resp.StatusCode)
	}
	if p := resp.Problem(t); p.Code != "method_not_allowed" {
		t.Errorf("405 problem = %+v", p)
	}
	if allow := resp.Header.Get("Allow"); !strings.Contains(allow, "GET") {
		t.Errorf("Allow = %q, want it to name GET", allow)
	}
}

func TestOversizedBodyIs413(t *testing.T) {
	t.Parallel()
	s := apitest.Start(t, newServer(t, repotest.NewDB(t)))
	resp := s.Post("/v1/classrooms", `{"name":"`+strings.Repeat("x", 4096)+`"}`)
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("oversized body = %d, want 413", resp.StatusCode)
	}
	if p := resp.Problem(t); p.Code != "payload_too_large" {
		t.Errorf("413 problem = %+v", p)
	}
}

func TestRequestIDIsEchoedOrGenerated(t *testing.T) {
	t.Parallel()
	s := apitest.Start(t, newServer(t, repotest.NewDB(t)))
	if got := s.Get("/healthz", "X-Request-ID", "trace-42").Header.Get("X-Request-ID"); got != "trace-42" {
		t.Errorf("echoed request ID = %q, want trace-42", got)
	}
	a := s.Get("/healthz").Header.Get("X-Request-ID")
	b := s.Get("/healthz", "X-Request-ID", "bad id with spaces").Header.Get("X-Request-ID")
	if len(a) < 16 || len(b) < 16 || a == b || strings.Contains(b, " ") {
		t.Errorf("generated request IDs %q and %q should be distinct and well formed", a, b)
	}
	p := s.Get("/missing", "X-Request-ID", "trace-43").Problem(t)
	if !strings.Contains(string(s.Get("/missing", "X-Request-ID", "trace-43").Body), `"request_id":"trace-43"`) || p.Status != 404 {
		t.Errorf("problem should carry the request ID: %+v", p)
	}
}

func TestPanicBecomesOpaque500(t *testing.T) {
	t.Parallel()
	srv := newServer(t, repotest.NewDB(t))
	srv.Echo().GET("/test/panic", func(echo.Context) error { panic("secret internal detail") })
	s := apitest.Start(t, srv)
	resp := s.Get("/test/panic")
	if resp.StatusCode != http.StatusInternalServerError {
		t.Fatalf("panic = %d, want 500", resp.StatusCode)
	}
	if p := resp.Problem(t); p.Code != "internal" || strings.Contains(string(resp.Body), "secret") {
		t.Errorf("500 must not leak detail: %s", resp.Body)
	}
}

func TestMetricsCountRequestsByRoute(t *testing.T) {
	t.Parallel()
	s := apitest.Start(t, newServer(t, repotest.NewDB(t)))
	s.Get("/healthz")
	s.Get("/healthz")
	s.Get("/nowhere")
	// Methods of a client's making are one series, whatever their names.
	for _, method := range []string{"BREW", "WHEN"} {
		s.Do(s.Request(method, "/nowhere", nil))
	}
	body := string(s.Get("/metrics").Body)
	if strings.Contains(body, "BREW") || strings.Contains(body, "WHEN") {
		t.Error("a method of the client's making is a label of its own")
	}
	for _, want := range []string{
		`http_requests_total{method="GET",route="/healthz",status="200"} 2`,
		`http_requests_total{method="GET",route="unmatched",status="404"} 1`,
		`http_requests_total{method="OTHER",route="unmatched",status="404"} 2`,
		`http_request_duration_seconds_bucket{method="GET",route="/healthz",status="200",le="0.005"}`,
		"db_pool_max_connections 20",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("metrics lack %q", want)
		}
	}
}

func TestDocsWorkOffline(t *testing.T) {
	t.Parallel()
	s := apitest.Start(t, newServer(t, repotest.NewDB(t)))
	page := s.Get("/docs")
	if page.StatusCode != http.StatusOK || !strings.Contains(string(page.Body), "/docs/assets/swagger-ui-bundle.js") {
		t.Fatalf("GET /docs = %d", page.StatusCode)
	}
	if strings.Contains(string(page.Body), "https://") {
		t.Error("the docs page must not load anything from the network")
	}
	for _, asset := range []string{"swagger-ui-bundle.js", "swagger-ui.css", "LICENSE"} {
		if resp := s.Get("/docs/assets/" + asset); resp.StatusCode != http.StatusOK || len(resp.Body) == 0 {
			t.Errorf("GET /docs/assets/%s = %d", asset, resp.StatusCode)
		}
	}
	if resp := s.Get("/docs/assets/nope.js"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("missing asset = %d, want 404", resp.StatusCode)
	}
	spec := s.Get("/openapi.yaml")
	if spec.StatusCode != http.StatusOK || !strings.HasPrefix(string(spec.Body), "openapi: 3.1.0") {
		t.Errorf("GET /openapi.yaml = %d", spec.StatusCode)
	}
}

// SIGTERM arriving while a request is in flight lets that request finish before Serve returns.
func TestSIGTERMDuringSlowRequestLetsItFinish(t *testing.T) {
	t.Parallel()
	srv := newServer(t, repotest.NewDB(t))
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	started := make(chan struct{})
	// The request is still being answered when the signal arrives, and ends only after it.
	srv.Echo().GET("/test/slow", func(c echo.Context) error {
		close(started)
		<-ctx.Done()
		return c.String(http.StatusOK, "finished")
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, ln) }()

	type result struct {
		status int
		body   string
		err    error
	}
	got := make(chan result, 1)
	go func() {
		resp, err := http.Get("http://" + ln.Addr().String() + "/test/slow")
		if err != nil {
			got <- result{err: err}
			return
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		got <- result{status: resp.StatusCode, body: string(b), err: err}
	}()
	<-started
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	r := <-got
	if r.err != nil || r.status != http.StatusOK || r.body != "finished" {
		t.Fatalf("slow request during shutdown: %+v", r)
	}
	select {
	case err := <-served:
		if err != nil {
			t.Fatalf("Serve returned %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return after SIGTERM")
	}
	if _, err := net.DialTimeout("tcp", ln.Addr().String(), time.Second); err == nil {
		t.Error("the listener still accepts connections after shutdown")
	}
}
