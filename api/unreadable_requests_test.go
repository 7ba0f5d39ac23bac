package api_test

import (
	"bufio"
	"context"
	"encoding/json"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"primegames/api/apitest"
	"primegames/repo/repotest"
)

// A request net/http refuses before any handler (a NUL or another control byte in a header, a
// header line without a colon, headers beyond their limit) is answered with a problem document of
// the same status, with a request ID; a readable request on the same listener is answered as ever.
func TestUnreadableRequestsGetProblemDocuments(t *testing.T) {
	t.Parallel()
	srv, err := newAPI(testConfig(), repotest.NewDB(t), quietLogger())
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, ln) }()
	t.Cleanup(func() { stop(); <-served })

	send := func(t *testing.T, request string) *http.Response {
		t.Helper()
		conn, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { conn.Close() })
		_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
		if _, err := conn.Write([]byte(request)); err != nil {
			t.Fatal(err)
		}
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { resp.Body.Close() })
		return resp
	}
	for name, c := range map[string]struct {
		request string
		status  int
		code    string
	}{
		"a NUL in Authorization":       {"GET /v1/games HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer pgs_a\x00b\r\n\r\n", 400, "invalid"},
		"a bell in Authorization":      {"GET /v1/games HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer \x07\r\n\r\n", 400, "invalid"},
		"a header line without colon":  {"GET /v1/games HTTP/1.1\r\nHost: t\r\nAuthorization Bearer x\r\n\r\n", 400, "invalid"},
		"headers beyond their limit":   {"GET /v1/games HTTP/1.1\r\nHost: t\r\nX-Big: " + strings.Repeat("a", 1<<20+8192) + "\r\n\r\n", 431, "request_header_fields_too_large"},
		"an unknown transfer encoding": {"POST /v1/games HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", 501, "not_implemented"},
	} {
		t.Run(name, func(t *testing.T) {
			resp := send(t, c.request)
			var p apitest.Problem
			if err := json.NewDecoder(resp.Body).Decode(&p); err != nil {
				t.Fatalf("%d %s: the body is no JSON: %v", resp.StatusCode, resp.Header.Get("Content-Type"), err)
			}
			if resp.StatusCode != c.status || resp.Header.Get("Content-Type") != "application/problem+json" || p.Status != c.status || p.Code != c.code || p.Detail == "" {
				t.Errorf("%d %s %+v, want %d application/problem+json %s", resp.StatusCode, resp.Header.Get("Content-Type"), p, c.status, c.code)
			}
			if id := resp.Header.Get("X-Request-Id"); id == "" {
				t.Error("no X-Request-Id")
			}
		})
	}
	if resp := send(t, "GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n"); resp.StatusCode != http.StatusOK {
		t.Errorf("a readable request = %d, want 200", resp.StatusCode)
	}
}

// Under the real server, whose connections are wrapped to rewrite net/http's own refusals, a
// stream whose client hangs up is still heard at once, long before a heartbeat would fail (live
// watches the wrapped connection's descriptor in its epoll set, which needs what
// TestProblemConnsKeepWhatTCPOffers checks; without it, a goroutine reading each stream's connection).
func TestACutStreamIsReleasedAtOnceUnderTheRealServer(t *testing.T) {
	t.Parallel()
	cfg := testConfig()
	cfg.StreamHeartbeat = time.Hour
	cfg.StreamsPerClient = 1
	ends := make(streamEnds, 3)
	srv, err := newAPI(cfg, repotest.NewDB(t), slog.New(ends))
	if err != nil {
		t.Fatal(err)
	}
	s := apitest.Start(t, srv) // for setting up and reading the metrics
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, ln) }()
	t.Cleanup(func() { stop(); <-served })

	g := newEvGame(t, s, "prime-climb", nil, 2, 3)
	stream := openEvStream(t, "http://"+ln.Addr().String(), g.path("/events"), bearer(g.tokens[0])...)
	stream.next(t, evWait)
	stream.close()
	awaitStreamsReleased(t, s, ends, "the stream's end after its client left the real server")
}
