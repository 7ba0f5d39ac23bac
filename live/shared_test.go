package live_test

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"primegames/live"
)

// listeningHub is a hub whose listener has connected, and the listener, to send notices through.
func listeningHub(t *testing.T, cfg live.Config) (*live.Hub, live.Listener) {
	t.Helper()
	feed := &fakeFeed{listening: make(chan live.Listener, 1)}
	h := live.NewHub(cfg, feed, slog.New(slog.DiscardHandler), prometheus.NewRegistry())
	t.Cleanup(h.Close)
	if _, err := h.Subscribe(live.GameTopic("g0")); err != nil { // starts the listener
		t.Fatal(err)
	}
	return h, <-feed.listening
}

// The streams that ask for the same entries of a game at once get one read; those that ask later
// get it too, until a notice of the game; another starting point, a failed read, or a listener that
// is down (notices may be lost) read afresh.
func TestReadSharedReadsOncePerNotice(t *testing.T) {
	h, l := listeningHub(t, live.Config{})
	var reads atomic.Int64
	release, started := make(chan struct{}), make(chan struct{}, 100)
	read := func(ctx context.Context) (any, error) {
		n := reads.Add(1)
		started <- struct{}{}
		<-release
		return n, nil
	}
	const streams = 8
	var wg sync.WaitGroup
	got := make([]any, streams)
	for i := range streams {
		wg.Go(func() {
			v, err := h.ReadShared(context.Background(), "g1", 4, read)
			if err != nil {
				t.Error(err)
			}
			got[i] = v
		})
	}
	<-started // the others wait for this read, or ask once it is done: either way they share it
	close(release)
	wg.Wait()
	if n := reads.Load(); n != 1 {
		t.Fatalf("%d streams asking at once read %d times, want 1", streams, n)
	}
	for i, v := range got {
		if v != int64(1) {
			t.Errorf("stream %d got %v, want the one read", i, v)
		}
	}
	ask := func(gameID string, after int64) any {
		v, err := h.ReadShared(context.Background(), gameID, after, read)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	if v := ask("g1", 4); v != int64(1) || reads.Load() != 1 {
		t.Errorf("asked again before any notice: %v after %d reads, want the first read", v, reads.Load())
	}
	if ask("g1", 5); reads.Load() != 2 {
		t.Errorf("another starting point did not read")
	}
	l.Notice(live.Notice{GameID: "g2"})
	if ask("g1", 4); reads.Load() != 2 {
		t.Errorf("a notice of another game made g1 read again")
	}
	l.Notice(live.Notice{GameID: "g1", ClassroomID: "c1"})
	if v := ask("g1", 4); v != int64(3) {
		t.Errorf("after a notice of the game: %v, want a new read", v)
	}
	l.Failed(errors.New("connection lost"), time.Second)
	ask("g1", 4)
	ask("g1", 4)
	if n := reads.Load(); n != 5 {
		t.Errorf("with the listener down, two asks made %d reads, want 2", n-3)
	}
	l.Connected()
	ask("g1", 4)
	ask("g1", 4)
	if n := reads.Load(); n != 6 {
		t.Errorf("with the listener back, two asks made %d reads, want 1", n-5)
	}
	failing := func(context.Context) (any, error) { reads.Add(1); return nil, errors.New("database down") }
	for range 2 {
		if _, err := h.ReadShared(context.Background(), "g3", 0, failing); err == nil {
			t.Fatal("a failed read was not reported")
		}
	}
	if n := reads.Load(); n != 8 {
		t.Errorf("a failed read was kept: %d reads for two asks", n-6)
	}
}
