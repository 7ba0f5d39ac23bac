package api

import (
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	echomw "github.com/labstack/echo/v4/middleware"

	"primegames/api/middleware"
)

// The order matters: the request ID first so every later step can log it; compression outside everything that writes a body, error responses included; logging and metrics
// outside recovery so a panic is counted as the 500 it becomes; CORS before any refusal, so that a
// preflight is answered whatever the limits and a refusal still reaches the browser's page; the rate
// limit before any work; the body gate before validation, so that nothing decodes a body it has not
// checked; identity last, so that a request the contract refuses costs no lookup.
func (s *Server) useMiddleware() error {
	s.echo.Pre(middleware.RequestID)
	s.echo.Pre(s.language)
	s.echo.Use(middleware.Compress)
	s.echo.Use(s.observe)
	s.echo.Use(echomw.RecoverWithConfig(echomw.RecoverConfig{DisablePrintStack: true, DisableErrorHandler: true}))
	s.echo.Use(middleware.Deadline(s.cfg.WriteTimeout))
	if len(s.cfg.CORSOrigins) > 0 {
		s.echo.Use(middleware.CORS(s.cfg.CORSOrigins, s.contractMethods(), []string{middleware.RateLimitHeader, middleware.RateLimitPolicyHeader}))
	}
	if s.cfg.RateLimit > 0 {
		s.echo.Use(middleware.RateLimits(s.cfg.RateLimit, max(1, s.cfg.RateBurst), clientKey, addressKey))
	}
	s.echo.Use(s.bodyGate)
	s.echo.Use(s.validator.Middleware)
	s.echo.Use(s.identify)
	return nil
}

// observe writes the access log line and the request metrics. It renders a handler's error itself,
// so that the status it records is the status the client got. A response that was cut short (its
// writing failed once its status was sent, or it took longer than WRITE_TIMEOUT, after which the
// server writes nothing more) is logged as such: "request cut short", with the status its headers
// announced, the bytes written and why.
func (s *Server) observe(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		start := time.Now()
		err := next(c)
		committed := c.Response().Committed
		if err != nil {
			c.Error(err)
		}
		elapsed := time.Since(start)
		cutShort := ""
		switch {
		case err != nil && committed:
			cutShort = err.Error()
		case s.cfg.WriteTimeout > 0 && elapsed >= s.cfg.WriteTimeout:
			cutShort = "the response took longer than WRITE_TIMEOUT (" + s.cfg.WriteTimeout.String() + ")"
		}
		route := "unmatched"
		if s.isContractRoute(c) {
			route = c.Path()
		}
		status := c.Response().Status
		s.metrics.observe(methodOf(c), route, status, elapsed)
		level, msg := slog.LevelInfo, "request"
		switch {
		case c.Get(shedKey) != nil:
			level, msg = slog.LevelWarn, "request shed"
		case status >= 500:
			level = slog.LevelError
		}
		var extra []slog.Attr
		if cutShort != "" {
			level, msg = slog.LevelWarn, "request cut short"
			extra = []slog.Attr{slog.Bool("aborted", true), slog.String("error", cutShort)}
		}
		ctx := c.Request().Context()
		if !s.logger.Enabled(ctx, level) { // the line's fields cost more than the check
			return nil
		}
		s.logger.LogAttrs(ctx, level, msg, append([]slog.Attr{
			slog.String("request_id", middleware.RequestIDOf(c)),
			slog.String("method", methodOf(c)),
			slog.String("route", route),
			slog.String("path", c.Request().URL.Path),
			slog.Int("status", status),
			slog.Int64("bytes", c.Response().Size),
			slog.Float64("duration_ms", float64(elapsed.Microseconds())/1000),
			slog.String("remote_ip", c.RealIP()),
		}, extra...)...)
		return nil
	}
}

// isContractRoute reports whether the request matched one of the routes of openapi.yaml.
func (s *Server) isContractRoute(c echo.Context) bool {
	return s.contractRoutes[c.Request().Method+" "+c.Path()]
}

// contractMethods lists the methods of the operations of openapi.yaml.
func (s *Server) contractMethods() []string {
	var methods []string
	for route := range s.contractRoutes {
		method, _, _ := strings.Cut(route, " ")
		if !slices.Contains(methods, method) {
			methods = append(methods, method)
		}
	}
	if slices.Contains(methods, http.MethodGet) {
		methods = append(methods, http.MethodHead) // served as GET (head.go)
	}
	slices.Sort(methods)
	return methods
}
