package middleware

import (
	"bytes"
	"compress/gzip"
	"mime"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"
)

// compressedTypes are the media types worth compressing. Never text/event-stream: each event must
// reach the client when it is sent, and the stream has no end for gzip to close.
var compressedTypes = map[string]bool{
	"application/json": true, "application/problem+json": true, "application/x-ndjson": true,
	"text/csv": true, "application/yaml": true, "text/html": true, "image/svg+xml": true,
}

// CompressMin is the size below which a body goes out as it is: gzip would not save enough to pay
// for itself.
const CompressMin = 512

// gzipWriters compress at the fastest level: the bodies are small JSON, where a higher level saves
// a few bytes for several times the CPU of the whole request.
var gzipWriters = sync.Pool{New: func() any {
	w, _ := gzip.NewWriterLevel(nil, gzip.BestSpeed) // BestSpeed is a valid level
	return w
}}

// Compress gzips the bodies of compressedTypes for clients that send Accept-Encoding: gzip, and
// tells caches that those bodies vary with it. A compressed body is another representation, so its
// strong ETag becomes weak (W/"7"): If-None-Match still matches it, and If-Match takes either form.
// A handler that compressed its body itself (a docs asset) has set Content-Encoding and is left
// alone.
func Compress(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		res := c.Response()
		w := &gzipWriter{ResponseWriter: res.Writer, accepted: AcceptsGzip(c.Request())}
		res.Writer = w
		defer w.finish()
		return next(c)
	}
}

// LeaveUncompressed has compress send this response as it is: a live stream, whose events must
// reach the client as they are sent, and whose deflate state (some 350 KB at gzip's fastest level)
// would be held for the stream's whole life, by each of thousands of streams.
func LeaveUncompressed(c echo.Context) {
	if w, ok := c.Response().Writer.(*gzipWriter); ok {
		w.accepted = false
	}
}

// AcceptsGzip reads Accept-Encoding: gzip is acceptable unless it is absent or given q=0.
func AcceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if coding = strings.ToLower(strings.TrimSpace(coding)); coding != "gzip" && coding != "*" {
			continue
		}
		q := strings.ReplaceAll(strings.ToLower(params), " ", "")
		return q != "q=0" && !strings.HasPrefix(q, "q=0.0") && q != "q=0."
	}
	return false
}

// gzipWriter holds back the first CompressMin bytes of a compressible body to decide whether to
// compress it; a flush decides at once (a stream is worth compressing).
type gzipWriter struct {
	http.ResponseWriter
	accepted bool
	status   int  // held back while deciding
	deciding bool // compressible and accepted; not yet decided
	held     bytes.Buffer
	gz       *gzip.Writer
}

func (w *gzipWriter) WriteHeader(code int) {
	if w.status != 0 || w.gz != nil {
		return
	}
	h := w.Header()
	mediaType := h.Get("Content-Type")
	if mediaType != echo.MIMEApplicationJSON { // the common case, with nothing to parse
		mediaType, _, _ = mime.ParseMediaType(mediaType)
	}
	if !compressedTypes[mediaType] && h.Get("Content-Encoding") == "" || code < 200 || code == http.StatusNoContent || code == http.StatusNotModified {
		w.ResponseWriter.WriteHeader(code)
		w.status = code
		return
	}
	if !slices.Contains(h.Values("Vary"), "Accept-Encoding") {
		h.Add("Vary", "Accept-Encoding")
	}
	if !w.accepted || h.Get("Content-Encoding") != "" {
		w.ResponseWriter.WriteHeader(code)
		w.status = code
		return
	}
	w.status, w.deciding = code, true
}

func (w *gzipWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.WriteHeader(http.StatusOK)
	}
	switch {
	case w.gz != nil:
		return w.gz.Write(p)
	case !w.deciding:
		return w.ResponseWriter.Write(p)
	}
	w.held.Write(p)
	if w.held.Len() >= CompressMin {
		if err := w.startGzip(); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// MarkGzipped turns the headers of a body into those of its compressed form.
func MarkGzipped(h http.Header) {
	h.Set("Content-Encoding", "gzip")
	h.Del("Content-Length")
	if etag := h.Get("ETag"); strings.HasPrefix(etag, `"`) {
		h.Set("ETag", "W/"+etag)
	}
}

// Gzipped is body compressed as compress would send it, for a handler that keeps the compressed
// form to send it again.
func Gzipped(body []byte) []byte {
	var out bytes.Buffer
	gz := gzipWriters.Get().(*gzip.Writer)
	gz.Reset(&out)
	_, _ = gz.Write(body) // writing to a bytes.Buffer does not fail
	_ = gz.Close()
	gz.Reset(nil)
	gzipWriters.Put(gz)
	return out.Bytes()
}

// startGzip sends the headers of a compressed body and what was held back.
func (w *gzipWriter) startGzip() error {
	MarkGzipped(w.Header())
	w.ResponseWriter.WriteHeader(w.status)
	w.deciding = false
	w.gz = gzipWriters.Get().(*gzip.Writer)
	w.gz.Reset(w.ResponseWriter)
	_, err := w.gz.Write(w.held.Bytes())
	w.held.Reset()
	return err
}

// sendHeld sends a small body as it is.
func (w *gzipWriter) sendHeld() error {
	w.ResponseWriter.WriteHeader(w.status)
	w.deciding = false
	_, err := w.ResponseWriter.Write(w.held.Bytes())
	w.held.Reset()
	return err
}

func (w *gzipWriter) FlushError() error {
	if w.status == 0 {
		w.WriteHeader(http.StatusOK)
	}
	if w.deciding {
		if err := w.startGzip(); err != nil {
			return err
		}
	}
	if w.gz != nil {
		if err := w.gz.Flush(); err != nil {
			return err
		}
	}
	return http.NewResponseController(w.ResponseWriter).Flush()
}

func (w *gzipWriter) Flush() { _ = w.FlushError() }

// finish ends the body once the handler has returned.
func (w *gzipWriter) finish() {
	switch {
	case w.deciding:
		_ = w.sendHeld()
	case w.gz != nil:
		_ = w.gz.Close()
		w.gz.Reset(nil)
		gzipWriters.Put(w.gz)
		w.gz = nil
	}
}

func (w *gzipWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
