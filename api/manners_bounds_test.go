package api_test

import (
	"bufio"
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"primegames/api/apitest"
	"primegames/repo/repotest"
)

// Every response says X-Content-Type-Options: nosniff: successes, problems, unmatched paths, SVG.
func TestEveryResponseSaysNosniff(t *testing.T) {
	t.Parallel()
	s := apitest.Start(t, newServer(t, repotest.NewDB(t)))
	created := s.Post("/v1/games", map[string]any{"game": "primed", "players": []map[string]string{{"name": "A"}, {"name": "B"}}})
	var c struct {
		Game struct{ ID string }
	}
	created.JSON(t, &c)
	for _, r := range []struct {
		method, path string
		body         any
		status       int
	}{
		{"GET", "/healthz", nil, 200},
		{"GET", "/v1/games/" + c.Game.ID, nil, 200},
		{"GET", "/v1/games/" + c.Game.ID + "/picture.svg", nil, 200},
		{"GET", "/v1/games/00000000-0000-0000-0000-000000000000", nil, 404},
		{"GET", "/no/such/path", nil, 404},
		{"POST", "/v1/games", `{"game":`, 400},
		{"DELETE", "/v1/games", nil, 405},
	} {
		resp := s.Do(s.Request(r.method, r.path, r.body))
		if resp.StatusCode != r.status || resp.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s %s = %d with X-Content-Type-Options %q, want %d with nosniff", r.method, r.path, resp.StatusCode,
				resp.Header.Get("X-Content-Type-Options"), r.status)
		}
	}
}

// A client that sends a body of some hundred kilobytes to a request the server refuses before
// reading it (too large, no such route, no body allowed) reads the refusal: the server reads and
// drops the rest of the body first, instead of closing the connection on it, which makes the
// client's system reset the connection and lose the answer.
func TestRefusedLargeBodyStillGetsItsAnswer(t *testing.T) {
	t.Parallel()
	// net/http reads up to 256 KiB of an unread body itself, and closes the connection's sending side
	// half a second before the whole of it; what the loopback's buffers take is sent at once. So
	// the body here is larger than both, and the limit such that the server drains it (16 times).
	cfg := testConfig()
	cfg.BodyLimitBytes = 1 << 20
	srv, err := newAPI(cfg, repotest.NewDB(t), quietLogger())
	if err != nil {
		t.Fatal(err)
	}
	s := apitest.Start(t, srv)
	addr := strings.TrimPrefix(s.URL, "http://")
	body := strings.Repeat("x", 12<<20)
	for _, r := range []struct {
		path   string
		status int
	}{
		{"/v1/games", http.StatusRequestEntityTooLarge},                                            // larger than BODY_LIMIT, refused by its Content-Length
		{"/no/such/path", http.StatusNotFound},                                                     // no route
		{"/v1/games/00000000-0000-0000-0000-000000000000/start", http.StatusRequestEntityTooLarge}, // takes no body
	} {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		// The whole request first, then the answer, as a client that does not watch for an early
		// answer does.
		_, err = fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", r.path, len(body), body)
		if err != nil {
			t.Errorf("POST %s: sending the body: %v", r.path, err)
		}
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Errorf("POST %s with %d bytes: reading the answer: %v", r.path, len(body), err)
		} else if resp.StatusCode != r.status {
			t.Errorf("POST %s with %d bytes = %d, want %d", r.path, len(body), resp.StatusCode, r.status)
		}
		conn.Close()
	}
}

// logWatch is a log destination that tells when a line containing want is written.
type logWatch struct {
	want string
	seen chan string
}

func (w *logWatch) Write(p []byte) (int, error) {
	if strings.Contains(string(p), w.want) {
		select {
		case w.seen <- string(p):
		default:
		}
	}
	return len(p), nil
}

// A response cut short by WRITE_TIMEOUT is logged as cut short, not as a 200 that was sent.
func TestResponseCutShortIsLoggedAsSuch(t *testing.T) {
	t.Parallel()
	cfg := testConfig()
	cfg.WriteTimeout = 300 * time.Millisecond
	logs := &logWatch{want: `"route":"unmatched","path":"/test/big"`, seen: make(chan string, 1)}
	srv, err := newAPI(cfg, repotest.NewDB(t), slog.New(slog.NewJSONHandler(logs, nil)))
	if err != nil {
		t.Fatal(err)
	}
	chunk := []byte(strings.Repeat("x", 64<<10))
	srv.Echo().GET("/test/big", func(c echo.Context) error {
		c.Response().Header().Set(echo.HeaderContentType, "application/octet-stream")
		c.Response().WriteHeader(http.StatusOK)
		for range 1024 { // 64 MB: more than any socket buffers, for a client that reads nothing
			if _, err := c.Response().Write(chunk); err != nil {
				return err
			}
		}
		return nil
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, ln) }()
	defer func() { stop(); <-served }()

	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := fmt.Fprintf(conn, "GET /test/big HTTP/1.1\r\nHost: test\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	line := <-logs.seen // the client reads nothing: the server's writes block until the timeout
	if !strings.Contains(line, `"msg":"request cut short"`) || !strings.Contains(line, `"aborted":true`) || !strings.Contains(line, `"error":`) {
		t.Errorf("the access log says %s, want the request logged as cut short with its error", line)
	}
}
