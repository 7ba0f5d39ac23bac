package api

import (
	"context"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
)

// serveHead answers HEAD as the GET of the same path: the handler runs as for GET, so the status and
// headers are the same, and the body it writes is dropped. A live stream (text/event-stream, or
// NDJSON from an /events route) would never end, so its request is cancelled once its headers are
// out. It stands before echo, whose router reads the method of the request the server received.
func (s *Server) serveHead(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithCancel(context.WithValue(r.Context(), headKey{}, true))
	defer cancel()
	asGet := r.WithContext(ctx)
	asGet.Method = http.MethodGet
	s.echo.ServeHTTP(&headWriter{ResponseWriter: w, endStream: cancel, events: strings.HasSuffix(r.URL.Path, "/events")}, asGet)
}

type headKey struct{}

// methodOf is the method the client sent: HEAD for a HEAD served as GET.
func methodOf(c echo.Context) string {
	if head, _ := c.Request().Context().Value(headKey{}).(bool); head {
		return http.MethodHead
	}
	return c.Request().Method
}

// headWriter drops the body of a HEAD response.
type headWriter struct {
	http.ResponseWriter
	endStream context.CancelFunc
	events    bool // the path is an /events route's
}

func (w *headWriter) WriteHeader(code int) {
	w.ResponseWriter.WriteHeader(code)
	mediaType := w.Header().Get("Content-Type")
	if strings.HasPrefix(mediaType, "text/event-stream") || w.events && strings.HasPrefix(mediaType, ndjson) {
		w.endStream()
	}
}

func (w *headWriter) Write(p []byte) (int, error) { return len(p), nil }

func (w *headWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
