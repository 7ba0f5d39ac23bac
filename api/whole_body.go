package api

import (
	"strconv"

	"github.com/labstack/echo/v4"
)

// A body written whole says its length. Without Content-Length net/http sends a body of over 2 KB
// in chunks, which both ends spend framing on, a phone cannot show a download's progress, and a
// HEAD says no length at all. compress drops the header when it compresses the body.

// sayLength sets the response's Content-Length to n.
func sayLength(c echo.Context, n int) {
	c.Response().Header()[echo.HeaderContentLength] = []string{strconv.Itoa(n)}
}

// sendWhole answers code with body, of contentType, as c.Blob does, saying its length.
func sendWhole(c echo.Context, code int, contentType string, body []byte) error {
	sayLength(c, len(body))
	return c.Blob(code, contentType, body)
}
