package api_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
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
// timeout, instead of being buffered for.
func TestEventStreamSlowSubscriberIsDropped(t *testing.T) {
	cfg := testConfig()
	cfg.StreamWriteTimeout = 200 * time.Millisecond
	cfg.StreamHeartbeat = 20 * time.Millisecond
	c := newEvCluster(t, cfg)
	g := newEvGame(t, c.a, "prime-climb", map[string]any{"prime_cards": true}, 2, 21)
	for range 20 {
		g.play()
	}
	u, _ := url.Parse(c.b.URL)
	conn, err := net.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.(*net.TCPConn).SetReadBuffer(1024)
	fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: %s\r\n\r\n", g.path("/events"), u.Host)
	open := func() string {
		for _, line := range strings.Split(string(c.b.Get("/metrics").Body), "\n") {
			if strings.HasPrefix(line, "event_streams_open ") {
				return strings.TrimPrefix(line, "event_streams_open ")
			}
		}
		return "?"
	}
	// Never read; keep the server writing (heartbeats and moves) until it gives up. It gives up once
	// the kernel's buffers are full, which takes as many moves as they hold: 8 s on a quiet machine,
	// more than 30 s on a loaded one, where each move takes longer; hence the generous deadline.
	deadline := time.Now().Add(120 * time.Second)
	for sawOpen := false; ; {
		n := open()
		if n == "1" {
			sawOpen = true
		}
		if sawOpen && n == "0" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the stream of a client that does not read is still open (%s)", n)
		}
		if g.status == "active" {
			g.play()
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// Under the real server, streams outlive READ_TIMEOUT and WRITE_TIMEOUT; on shutdown they end at
// once, so Serve returns without waiting for the grace period.
func TestEventStreamsOutliveTimeoutsAndEndOnShutdown(t *testing.T) {
	dbA := repotest.NewDB(t)
	cfg := testConfig()
	cfg.ShutdownGrace = 20 * time.Second
	cfg.ReadTimeout, cfg.WriteTimeout, cfg.StreamHeartbeat = 300*time.Millisecond, 300*time.Millisecond, 50*time.Millisecond
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
	s := apitest.Start(t, srv) // for creating the game with contract checks
	g := newEvGame(t, s, "primed", nil, 2, 1)
	stream := openEvStream(t, base, g.path("/events"))
	stream.next(t, evWait)
	time.Sleep(time.Second)
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
