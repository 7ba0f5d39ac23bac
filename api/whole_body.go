package api

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"
)

// A body written whole says its length. net/http holds back the first heldBodyMax bytes of a body
// and, when the handler ends within them, says their length itself; a longer body without
// Content-Length goes out in chunks, which both ends spend framing on and which leaves a phone
// without a download's size. And a HEAD, whose body is dropped before net/http sees it, says no
// length unless told. compress drops the header when it compresses the body.

// heldBodyMax is net/http's bufferBeforeChunkingSize.
const heldBodyMax = 2048

// sayLength sets the response's Content-Length to n where net/http would not say it.
func sayLength(c echo.Context, n int) {
	if n > heldBodyMax || methodOf(c) == http.MethodHead {
		c.Response().Header()[echo.HeaderContentLength] = []string{strconv.Itoa(n)}
	}
}

// sendWhole answers code with body, of contentType, as c.Blob does, saying its length.
func sendWhole(c echo.Context, code int, contentType string, body []byte) error {
	sayLength(c, len(body))
	return c.Blob(code, contentType, body)
}
