package api_test

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"primegames/api/apitest"
	"primegames/repo/repotest"
)

// The limits on event streams: STREAM_LIMIT refuses more with 503 and Retry-After, a client that
// stops reading is dropped after the stream write timeout, and streams outlive the server's read
// and write timeouts yet end at once on shutdown.

// Streams beyond STREAM_LIMIT are refused with 503 streams_full and Retry-After; the open streams
// show in the metrics.
func TestEventStreamCapIs503WithRetryAfter(t *testing.T) {
	t.Parallel()
	cfg := testConfig()
	cfg.StreamLimit = 2
	c := newEvCluster(t, cfg)
	g := newEvGame(t, c.a, "prime-climb", nil, 2, 3)
	first := openEvStream(t, c.b.URL, g.path("/events"))
	openEvStream(t, c.b.URL, g.path("/events"))
	resp := c.b.Get(g.path("/events"))
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Problem(t).Code != "streams_full" {
		t.Fatalf("third stream = %d: %s", resp.StatusCode, resp.Body)
	}
	if n, err := strconv.Atoi(resp.Header.Get("Retry-After")); err != nil || n <= 0 {
		t.Errorf("Retry-After = %q", resp.Header.Get("Retry-After"))
	}
	if m := c.b.Get("/metrics"); !strings.Contains(string(m.Body), "\nevent_streams_open 2\n") {
		t.Errorf("metrics do not show 2 open streams")
	}
	// Instance A has its own limit.
	openEvStream(t, c.a.URL, g.path("/events"))
	// A closed stream frees its slot.
	first.close()
	waitForStreamSlot(t, c.b.URL+g.path("/events"), http.StatusServiceUnavailable)
}

// waitForStreamSlot waits until a stream at url, refused with status while the server has not yet
// seen a stream close, opens.
func waitForStreamSlot(t *testing.T, url string, status int) {
	t.Helper()
	for deadline := time.Now().Add(evWait); ; time.Sleep(20 * time.Millisecond) {
		resp, err := http.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			return
		}
		if resp.StatusCode != status || time.Now().After(deadline) {
			t.Fatalf("a stream after one closed = %d", resp.StatusCode)
		}
	}
}

// A client that stops reading is disconnected once a write takes longer than the stream write
// timeout, instead of being buffered for. The client reaches the server through an in-memory pipe,
// which buffers nothing: the first write after the client stops reading blocks, whatever the
// kernel's socket buffers or the machine's load, and the test waits for the server to close the
// connection. The request is HTTP/1.1: the stream is detached from net/http, and the deadline is
// the detached writer's.
func TestEventStreamSlowSubscriberIsDropped(t *testing.T) {
	t.Parallel()
	cfg := testConfig()
	cfg.StreamWriteTimeout = 200 * time.Millisecond
	cfg.StreamHeartbeat = 20 * time.Millisecond
	db := repotest.NewDB(t)
	srv, err := newAPI(cfg, db, quietLogger())
	if err != nil {
		t.Fatal(err)
	}
	s := apitest.Start(t, srv)
	g := newEvGame(t, s, "prime-climb", nil, 2, 21)
	ln := newPipeListener()
	server := &http.Server{Handler: srv}
	go func() { _ = server.Serve(ln) }()
	t.Cleanup(func() { _ = server.Close() })

	client, closed := ln.dial()
	defer client.Close()
	fmt.Fprintf(client, "GET %s HTTP/1.1\r\nHost: pipe\r\n\r\n", g.path("/events"))
	resp, err := http.ReadResponse(bufio.NewReader(client), nil)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("the stream answered %v, %v", resp, err)
	}
	if n := streamsOpen(t, s); n != "1" {
		t.Fatalf("event_streams_open = %s with the stream open, want 1", n)
	}
	// The client reads no more.
	awaitStreamsReleased(t, s, closed, "the server's dropping the stream of a client that stopped reading")
}

// streamsOpen is the event_streams_open gauge of the server's metrics.
func streamsOpen(t *testing.T, s *apitest.Server) string {
	t.Helper()
	for _, line := range strings.Split(string(s.Get("/metrics").Body), "\n") {
		if n, ok := strings.CutPrefix(line, "event_streams_open "); ok {
			return n
		}
	}
	return "?"
}

// pipeListener is a net.Listener whose connections are in-memory pipes (net.Pipe): a write blocks
// until the other end reads it.
type pipeListener struct {
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
}

func newPipeListener() *pipeListener {
	return &pipeListener{conns: make(chan net.Conn), done: make(chan struct{})}
}

// dial connects a client; closed is closed once the server closes its end.
func (l *pipeListener) dial() (client net.Conn, closed <-chan struct{}) {
	serverEnd, clientEnd := net.Pipe()
	c := &closeSignal{Conn: serverEnd, closed: make(chan struct{})}
	l.conns <- c
	return clientEnd, c.closed
}

func (l *pipeListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *pipeListener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

func (l *pipeListener) Addr() net.Addr { return pipeAddr{} }

type pipeAddr struct{}

func (pipeAddr) Network() string { return "pipe" }
func (pipeAddr) String() string  { return "pipe" }

// closeSignal is a connection that says when it is closed.
type closeSignal struct {
	net.Conn
	closed chan struct{}
	once   sync.Once
}

func (c *closeSignal) Close() error {
	c.once.Do(func() { close(c.closed) })
	return c.Conn.Close()
}

// Under the real server, streams outlive READ_TIMEOUT and WRITE_TIMEOUT; on shutdown they end at
// once, so Serve returns without waiting for the grace period.
func TestEventStreamsOutliveTimeoutsAndEndOnShutdown(t *testing.T) {
	t.Parallel()
	dbA := repotest.NewDB(t)
	cfg := testConfig()
	cfg.ShutdownGrace = 20 * time.Second
	cfg.ReadTimeout, cfg.WriteTimeout, cfg.StreamHeartbeat = 100*time.Millisecond, 100*time.Millisecond, 20*time.Millisecond
	srv, err := newAPI(cfg, dbA, quietLogger())
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, ln) }()
	base := "http://" + ln.Addr().String()
	// The game is made and played through another instance: this one answers within 100 ms or not
	// at all, which a busy machine may not.
	s := apitest.Start(t, newServer(t, dbA))
	g := newEvGame(t, s, "primed", nil, 2, 1)
	stream := openEvStream(t, base, g.path("/events"))
	stream.next(t, evWait)
	time.Sleep(3 * cfg.WriteTimeout) // both timeouts pass with the stream open
	g.play()
	if _, en := stream.next(t, evWait).action(t); en.Seq != 1 {
		t.Fatalf("entry %d, want 1", en.Seq)
	}
	select {
	case <-stream.closed:
		t.Fatal("the stream was closed by the server's read or write timeout")
	default:
	}
	start := time.Now()
	stop()
	select {
	case err := <-served:
		if err != nil {
			t.Fatalf("Serve: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve is held up by an open stream")
	}
	stream.ended(t, evWait)
	t.Logf("Serve returned %s after the shutdown signal with a stream open", time.Since(start).Round(time.Millisecond))
}
