package api

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"log/slog"
	"regexp"
	"sync"
	"sync/atomic"
	"time"

	"github.com/labstack/echo/v4"
	echomw "github.com/labstack/echo/v4/middleware"
)

// requestIDHeader is X-Request-ID in the form net/http canonicalizes it to, which Header.Get and
// Header.Set then take as it is instead of making it anew on each call.
const requestIDHeader = "X-Request-Id"

// The order matters: the request ID first so every later step can log it; compression outside everything that writes a body, error responses included; logging and metrics
// outside recovery so a panic is counted as the 500 it becomes; CORS before any refusal, so that a
// preflight is answered whatever the limits and a refusal still reaches the browser's page; the rate
// limit before any work; the body gate before validation, so that nothing decodes a body it has not
// checked; identity last, so that a request the contract refuses costs no lookup.
func (s *Server) useMiddleware() error {
	s.echo.Pre(requestID)
	s.echo.Use(compress)
	s.echo.Use(s.observe)
	s.echo.Use(echomw.RecoverWithConfig(echomw.RecoverConfig{DisablePrintStack: true, DisableErrorHandler: true}))
	s.echo.Use(s.requestDeadline)
	if len(s.cfg.CORSOrigins) > 0 {
		s.echo.Use(s.cors())
	}
	if s.cfg.RateLimit > 0 {
		s.echo.Use(rateLimits(s.cfg.RateLimit, max(1, s.cfg.RateBurst)))
	}
	s.echo.Use(s.bodyGate)
	s.echo.Use(s.validator.Middleware)
	s.echo.Use(s.identify)
	return nil
}

var acceptableRequestID = regexp.MustCompile(`^[A-Za-z0-9._:-]{1,128}$`)

// requestID keeps the caller's X-Request-ID when it is reasonable, or makes one, and echoes it back.
func requestID(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		id := c.Request().Header.Get(requestIDHeader)
		if id == "" || !acceptableRequestID.MatchString(id) {
			id = newRequestID()
		}
		c.Request().Header.Set(requestIDHeader, id)
		h := c.Response().Header()
		h.Set(requestIDHeader, id)
		// No response is to be read as another type than the one it declares: an SVG or a problem
		// shown in a browser stays what it is.
		h.Set("X-Content-Type-Options", "nosniff")
		return next(c)
	}
}

// newRequestID is unique to the request, and tells nothing: this process's count of requests,
// encrypted with a key drawn when it started (AES is a permutation, so two counts never give the
// same ID, and without the key no count can be read from it). One AES block costs a few
// nanoseconds, less than drawing random bytes.
func newRequestID() string {
	buf := requestIDBuffers.Get().(*[2 * aes.BlockSize]byte) // the cipher's interface would move arrays of the stack to the heap
	count, id := buf[:aes.BlockSize], buf[aes.BlockSize:]
	binary.BigEndian.PutUint64(count[8:], requestCount.Add(1))
	requestIDCipher.Encrypt(id, count)
	s := hex.EncodeToString(id)
	requestIDBuffers.Put(buf)
	return s
}

var (
	requestIDCipher = func() cipher.Block {
		var key [16]byte
		_, _ = rand.Read(key[:])
		block, err := aes.NewCipher(key[:])
		if err != nil {
			panic(err) // a 16-byte key is always an AES-128 key
		}
		return block
	}()
	requestIDBuffers = sync.Pool{New: func() any { return new([2 * aes.BlockSize]byte) }}
	requestCount     atomic.Uint64
)

func requestIDOf(c echo.Context) string { return c.Response().Header().Get(requestIDHeader) }

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
			slog.String("request_id", requestIDOf(c)),
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
