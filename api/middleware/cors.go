package middleware

import (
	"slices"

	"github.com/labstack/echo/v4"
	echomw "github.com/labstack/echo/v4/middleware"
)

// corsMaxAge is how long, in seconds, a browser may reuse a preflight's answer.
const corsMaxAge = 600

// CORS lets pages from origins call the API's methods; exposed are the headers of the API's own
// that a page may read besides ETag, Retry-After, X-Request-Id and Location. Callers authenticate
// with bearer tokens, never cookies, so credentials stay off, and "*" is safe when configured.
func CORS(origins, methods, exposed []string) echo.MiddlewareFunc {
	return echomw.CORSWithConfig(echomw.CORSConfig{
		AllowOrigins: origins,
		AllowMethods: methods,
		AllowHeaders: []string{
			"Authorization", "Content-Type", "If-Match", "If-None-Match", "Idempotency-Key", "Last-Event-ID", RequestIDHeader,
		},
		ExposeHeaders: slices.Concat([]string{"ETag", "Retry-After"}, exposed, []string{RequestIDHeader, "Location"}),
		MaxAge:        corsMaxAge,
	})
}
