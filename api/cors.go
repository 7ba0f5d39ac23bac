package api

import (
	"net/http"
	"slices"
	"strings"

	"github.com/labstack/echo/v4"
	echomw "github.com/labstack/echo/v4/middleware"
)

// corsMaxAge is how long, in seconds, a browser may reuse a preflight's answer.
const corsMaxAge = 600

// cors lets pages from the configured origins call the API. Callers authenticate with bearer tokens,
// never cookies, so credentials stay off, and "*" is safe when configured.
func (s *Server) cors() echo.MiddlewareFunc {
	return echomw.CORSWithConfig(echomw.CORSConfig{
		AllowOrigins: s.cfg.CORSOrigins,
		AllowMethods: s.contractMethods(),
		AllowHeaders: []string{
			"Authorization", "Content-Type", "If-Match", "If-None-Match", "Idempotency-Key", "Last-Event-ID", requestIDHeader,
		},
		ExposeHeaders: []string{"ETag", "Retry-After", rateLimitHeader, rateLimitPolicyHeader, requestIDHeader, "Location"},
		MaxAge:        corsMaxAge,
	})
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
