package api_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"primegames/repo"
)

// Picking a stream up again: the `since` parameter and Last-Event-ID (which wins over it), the
// refusals of bad resume points and tokens, heartbeats, and the listener that reconnects after its
// connection is killed so that open streams catch up.

// Heartbeats, resume parameters and refusals.
func TestEventStreamHeartbeatResumeAndErrors(t *testing.T) {
	t.Parallel()
	cfg := testConfig()
	cfg.StreamHeartbeat = 50 * time.Millisecond
	c := newEvCluster(t, cfg)
	g := newEvGame(t, c.a, "prime-climb", nil, 2, 4)
	for range 5 {
		g.play()
	}
	s := openEvStream(t, c.b.URL, g.path("/events?since=1"), "Last-Event-ID", "3")
	if _, en := s.next(t, evWait).action(t); en.Seq != 4 {
		t.Errorf("Last-Event-ID 3 (wins over since=1): first entry %d, want 4", en.Seq)
	}
	s.next(t, evWait)
	heartbeats := 0
	for deadline := time.After(evWait); heartbeats < 2; {
		select {
		case e := <-s.events:
			if e.Comment == "heartbeat" {
				heartbeats++
			} else if e.Comment == "" {
				t.Fatalf("unexpected event %+v", e)
			}
		case <-deadline:
			t.Fatalf("%d heartbeats", heartbeats)
		}
	}
	s2 := openEvStream(t, c.b.URL, g.path("/events?since=4"))
	if _, en := s2.next(t, evWait).action(t); en.Seq != 5 {
		t.Errorf("since=4: first entry %d", en.Seq)
	}
	for _, tc := range []struct {
		path    string
		headers []string
		status  int
	}{
		{g.path("/events"), []string{"Last-Event-ID", "seven"}, http.StatusBadRequest},
		{g.path("/events?since=-2"), nil, http.StatusBadRequest},
		{g.path("/events"), bearer("pgs_nope"), http.StatusUnauthorized},
		{g.path("/events?access_token=pgs_nope"), nil, http.StatusUnauthorized},
		{"/v1/games/00000000-0000-4000-8000-000000000000/events", nil, http.StatusNotFound},
	} {
		if resp := c.b.Get(tc.path, tc.headers...); resp.StatusCode != tc.status {
			t.Errorf("GET %s %v = %d, want %d: %s", tc.path, tc.headers, resp.StatusCode, tc.status, resp.Body)
		}
	}
}

// After the listening connection is killed, the listener reconnects and the streams catch up: an
// action made while nobody listened arrives, and so do later ones.
func TestEventStreamListenerReconnects(t *testing.T) {
	t.Parallel()
	c := newEvCluster(t, testConfig())
	g := newEvGame(t, c.a, "prime-climb", nil, 2, 9)
	stream := openEvStream(t, c.b.URL, g.path("/events"))
	if _, en := stream.next(t, evWait).action(t); en.Seq != 0 {
		t.Fatalf("first entry %d", en.Seq)
	}
	ctx := context.Background()
	listeners := func() int {
		var n int
		if err := c.dbA.Pool.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1`,
			repo.ListenerApplicationName).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	waitFor := func(what string, ok func() bool) {
		t.Helper()
		for deadline := time.Now().Add(evWait); !ok(); time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s", what)
			}
		}
	}
	// Each instance listens from its start (its cache of game records is used only while it does).
	waitFor("both instances' listeners", func() bool { return listeners() == 2 })
	for round := range 3 {
		var killed int
		if err := c.dbA.Pool.QueryRow(ctx, `SELECT count(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity
			WHERE datname = current_database() AND application_name = $1) k`, repo.ListenerApplicationName).Scan(&killed); err != nil {
			t.Fatal(err)
		}
		if killed != 2 {
			t.Fatalf("round %d: terminated %d listeners, want both instances'", round, killed)
		}
		// Right away, most likely before the listener is back: caught up after the reconnect.
		seq, _, _ := g.play()
		if _, en := stream.next(t, evWait).action(t); en.Seq != seq {
			t.Fatalf("round %d: got entry %d, want %d", round, en.Seq, seq)
		}
		waitFor("the listeners to reconnect", func() bool { return listeners() == 2 })
		seq, _, _ = g.play()
		if _, en := stream.next(t, evWait).action(t); en.Seq != seq {
			t.Fatalf("round %d after reconnecting: got entry %d, want %d", round, en.Seq, seq)
		}
	}
}
