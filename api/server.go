// Package api is the HTTP face of the service: routing, authentication, decoding, and the one place
// where errors become responses.
package api

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"

	"primegames/api/middleware"
	"primegames/api/openapi"
	"primegames/contract"
	"primegames/live"
	"primegames/play"
)

// Config holds the HTTP settings.
type Config struct {
	BodyLimitBytes int64
	ReadTimeout    time.Duration
	WriteTimeout   time.Duration
	IdleTimeout    time.Duration
	ShutdownGrace  time.Duration
	// Live updates (package live); zero values take the defaults.
	StreamLimit        int           // streams this instance holds at once (1000)
	StreamHeartbeat    time.Duration // interval of the heartbeat comment (15s)
	StreamWriteTimeout time.Duration // time allowed to write one event before the client is dropped (10s)
	// AdminToken, when set, is required to create classrooms.
	AdminToken string
	// Per-client limits (api/middleware/ratelimit.go); zero values disable them.
	RateLimit        float64      // requests per second a client may send on average
	RateBurst        int          // requests a client may send at once
	StreamsPerClient int          // live-update streams one client may hold open on this instance
	TrustedProxies   []*net.IPNet // peers whose X-Forwarded-For header names the client
	// Guesses bound the wrong guesses of codes a person types (api/middleware/guesses.go); zero values disable it.
	Guesses GuessLimits
	// RenderLimit bounds the expensive requests (pictures, replays, states, reviews, class
	// statistics) this instance works on at once (0: half the cores, at least one); RenderQueue
	// more may wait for a slot (0: 32; negative: none). Beyond them: 503 renders_busy (renders.go).
	RenderLimit, RenderQueue int
	// CORSOrigins are the browser origins allowed to call the API ("*": any); none turns CORS off.
	CORSOrigins []string
	// OIDC is the OpenID provider teachers sign in with (signin.go); no issuer: sign-in is off.
	OIDC OIDCConfig
	// LTI is LTI 1.3's public URL and key set fetcher (lti.go); LTI needs SECRET_KEY too.
	LTI LTIConfig
}

// Deps are what the server stands on; cmd/primegames wires them.
type Deps struct {
	// Play is the game master: every request about games and classrooms goes through it.
	Play *play.Service
	// Database answers for the database itself: readiness, pool metrics, outages.
	Database Database
	// Feed tells the live updates that games have news.
	Feed live.Feed
}

// Database is what the server asks of the database outside the game master.
type Database interface {
	// Ping checks that the database answers (GET /readyz).
	Ping(ctx context.Context) error
	// PoolMetrics reports the connection pool's figures at each scrape of GET /metrics.
	PoolMetrics() prometheus.Collector
	// IsUnavailable reports whether err means the database could not be reached, as opposed to a
	// query that failed.
	IsUnavailable(err error) bool
	// InDoubt reports whether err means the connection was lost during COMMIT, so that the change
	// may or may not have been saved.
	InDoubt(err error) bool
}

// Server serves the API. It keeps no game state: every request reads and writes Postgres.
type Server struct {
	cfg      Config
	play     *play.Service
	database Database
	logger   *slog.Logger
	echo     *echo.Echo
	metrics  *metrics
	spec     *openapi3.T
	// contract is openapi.yaml with the schemas of the kinds play hosts (domain/games.All: as it is).
	contract []byte
	hub      *live.Hub
	// games keeps rendered bodies of GET /v1/games/{id} (gamecache.go).
	games *gameCache
	// renders bounds the expensive requests in flight (renders.go).
	renders *renderGate
	replays *sharedReplays
	// guesses counts wrong invite and join codes (api/middleware/guesses.go).
	guesses *middleware.GuessGuard
	// contractRoutes holds "METHOD /path/:param" for every operation of openapi.yaml.
	contractRoutes map[string]bool
	// bodyRoutes holds those of them that take a request body.
	bodyRoutes map[string]bool
	// validator checks request bodies (bodyGate) and requests (a middleware) against spec.
	validator *contract.Validator
	// signIns are the OpenID clients of teachers' sign-in by provider name (signin.go,
	// providers.go); empty when none is configured.
	signIns map[string]*signIn
	// ltiKeys caches the LTI platforms' key sets (lti.go).
	ltiKeys *ltiKeySets
	// languages caches the classrooms' default languages by classroom and game id (language.go).
	languages languageCache
}

// New builds the server and its routes.
func New(cfg Config, deps Deps, logger *slog.Logger) (*Server, error) {
	text, err := contract.ForKinds(deps.Play.Kinds().Kinds())
	if err != nil {
		return nil, fmt.Errorf("openapi.yaml: %w", err)
	}
	spec, err := contract.Parse(text)
	if err != nil {
		return nil, fmt.Errorf("openapi.yaml: %w", err)
	}
	s := &Server{
		cfg: cfg, play: deps.Play, database: deps.Database, logger: logger,
		echo: echo.New(), metrics: newMetrics(deps.Database.PoolMetrics(), deps.Play), spec: spec, contract: text,
		games: newGameCache(gameCacheBytes), renders: newRenderGate(cfg.RenderLimit, cfg.RenderQueue),
		replays: newSharedReplays(), guesses: middleware.NewGuessGuard(cfg.Guesses, time.Now),
		signIns: newSignIns(cfg.OIDC),
	}
	s.ltiKeys = newLTI(cfg.LTI) // lti.go
	s.echo.HideBanner = true
	s.echo.HidePort = true
	s.echo.HTTPErrorHandler = s.handleError
	s.echo.JSONSerializer = bodySerializer{}
	s.echo.IPExtractor = middleware.ClientIPExtractor(cfg.TrustedProxies)
	s.hub = live.NewHub(live.Config{
		Limit: cfg.StreamLimit, PerClient: cfg.StreamsPerClient, PerAddress: cfg.StreamsPerClient * middleware.AddressShare,
		Heartbeat: cfg.StreamHeartbeat, WriteTimeout: cfg.StreamWriteTimeout,
	}, deps.Feed, logger, s.metrics.registry)
	// The streams' tokens, checked all at once every heartbeat as a backstop to the notices.
	s.hub.Verify(s.endedAuthorities)
	s.hub.Listen() // the game records the store keeps are used only while it listens (repo/records.go)
	openapi.RegisterHandlersWithOptions(s.echo, s, openapi.RegisterHandlersOptions{OperationMiddlewares: s.routeMiddleware()})
	s.contractRoutes = map[string]bool{}
	for _, r := range s.echo.Routes() {
		s.contractRoutes[r.Method+" "+r.Path] = true
	}
	s.serveWebApp() // after the contract's routes are listed: /app/ is not one of them (webapp.go)
	s.bodyRoutes = contract.BodyRoutes(spec)
	s.validator = contract.NewValidator(spec, explainOptions)
	if err := s.useMiddleware(); err != nil {
		return nil, err
	}
	return s, nil
}

// Echo exposes the router, for tests that add routes of their own.
func (s *Server) Echo() *echo.Echo { return s.echo }

// drainMin is the least of a refused request's body that the server reads and drops (drainLimit).
const drainMin = 1 << 20

// ServeHTTP lets the server stand wherever an http.Handler does. A request refused before its body
// was read (too large, unauthenticated, no such route) has the rest of its body read and dropped,
// up to drainLimit and within READ_TIMEOUT, before the answer goes out: a server that closes a
// connection with unread data makes the client's system reset it, and the client then loses the
// answer (400, 401, 404, 413) it was about to read.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body := r.Body
	defer func() {
		if body != nil && body != http.NoBody {
			_, _ = io.Copy(io.Discard, io.LimitReader(body, s.drainLimit()))
		}
	}()
	if r.Method == http.MethodHead {
		s.serveHead(w, r)
		return
	}
	s.echo.ServeHTTP(w, r)
}

// drainLimit is how much of a refused body ServeHTTP reads: 16 times BODY_LIMIT, at least 1 MiB.
func (s *Server) drainLimit() int64 { return max(drainMin, 16*s.cfg.BodyLimitBytes) }

// maxHeaderBytes bounds what one request's headers may hold in memory (net/http's default is 1 MiB;
// a bearer token, an Idempotency-Key and a browser's headers take a few KB); beyond, 431.
const maxHeaderBytes = 64 << 10

// Serve answers requests on ln until ctx is done, then stops taking new requests, lets the ones in
// flight finish within the shutdown grace period, and returns.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	hs := &http.Server{
		Handler:           s,
		ReadTimeout:       s.cfg.ReadTimeout,
		ReadHeaderTimeout: s.cfg.ReadTimeout,
		WriteTimeout:      s.cfg.WriteTimeout,
		IdleTimeout:       s.cfg.IdleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(s.logger.Handler(), slog.LevelWarn),
	}
	defer s.Close()
	served := make(chan error, 1)
	go func() {
		served <- hs.Serve(middleware.ProblemListener{Listener: ln, Problem: unreadableRequestProblem})
	}() // net/http's own refusals as problems (unreadable_requests.go)
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	s.logger.Info("shutting down", "grace", s.cfg.ShutdownGrace.String())
	shutdownCtx, cancel := context.WithTimeout(context.Background(), s.cfg.ShutdownGrace)
	defer cancel()
	s.hub.Stop() // Shutdown does not end long-lived streams by itself; they would hold it for the whole grace period.
	err := hs.Shutdown(shutdownCtx)
	if serveErr := <-served; !errors.Is(serveErr, http.ErrServerClosed) && err == nil {
		err = serveErr
	}
	return err
}
