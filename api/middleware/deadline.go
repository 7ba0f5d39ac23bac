package middleware

import (
	"context"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
)

// Deadline gives every request but a live-update stream a deadline of WRITE_TIMEOUT: the
// client is cut off then anyway, and a query waiting on a database connection gone silent must not
// outlive its request and hold a connection of the pool. pgx gives up on a query when its context
// ends, and the request is answered 503 unavailable. A stream's reads carry deadlines of their own.
// It does nothing when timeout is not positive.
func Deadline(timeout time.Duration) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		if timeout <= 0 {
			return next
		}
		return deadline(next, timeout)
	}
}

func deadline(next echo.HandlerFunc, timeout time.Duration) echo.HandlerFunc {
	return func(c echo.Context) error {
		if strings.HasSuffix(c.Path(), "/events") {
			return next(c)
		}
		client := c.Request()
		ctx, cancel := context.WithTimeout(client.Context(), timeout)
		c.SetRequest(client.WithContext(ctx))
		err := next(c)
		// The error is rendered outside, against the client's own context: a canceled context there
		// means the client left.
		c.SetRequest(client)
		cancel()
		return err
	}
}
