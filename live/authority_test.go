package live_test

import (
	"context"
	"errors"
	"log/slog"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"primegames/live"
)

// heldStream begins a stream that holds key (from its Open) and counts its steps; it is detached
// on a connection of its own, so the hub alone carries it on.
func heldStream(t *testing.T, h *live.Hub, conn *fakeConn, hold func(*live.Subscription)) (steps <-chan struct{}, ended <-chan struct{}) {
	t.Helper()
	sub, err := h.Subscribe(live.GameTopic("g1"))
	if err != nil {
		t.Fatal(err)
	}
	stepped, end := make(chan struct{}, 100), make(chan struct{})
	st, err := h.Begin(context.Background(), sub, live.Source{
		Open: func(context.Context) error { hold(sub); return nil },
		Step: func(context.Context) (bool, error) { stepped <- struct{}{}; return false, nil },
	}, conn)
	if err != nil || st == nil {
		t.Fatalf("Begin = %v, %v", st, err)
	}
	<-stepped
	server, _ := tcpPair(t)
	if !h.Detach(context.Background(), st, server, func() { h.Unsubscribe(sub); close(end) }) {
		t.Fatal("Detach refused the stream")
	}
	return stepped, end
}

// A revocation ends the streams that hold its authority, with their `revoked` event and no step
// more, and only them; one heard between a stream's subscription and its Hold ends it too.
func TestARevocationEndsTheStreamsThatHoldIt(t *testing.T) {
	h, l := listeningHub(t, live.Config{Heartbeat: time.Hour})
	token := live.TokenAuthority([]byte{1, 2})
	mine := &fakeConn{revoked: make(chan string, 1)}
	steps, ended := heldStream(t, h, mine, func(sub *live.Subscription) { h.Hold(sub, token) })
	other := &fakeConn{revoked: make(chan string, 1)}
	otherSteps, _ := heldStream(t, h, other, func(sub *live.Subscription) {
		h.Hold(sub, live.StudentAuthority("s1"))
	})

	l.Revoked(live.Revocation{Key: token, Reason: live.TokenRotated})
	select {
	case reason := <-mine.revoked:
		if reason != live.TokenRotated {
			t.Errorf("revoked for %q", reason)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the stream holding the token was not revoked")
	}
	<-ended
	l.Notice(live.Notice{GameID: "g1"})
	<-otherSteps // the other stream steps on the notice: it holds on
	select {
	case <-steps:
		t.Error("the revoked stream stepped")
	case reason := <-other.revoked:
		t.Errorf("the other stream was revoked (%s)", reason)
	default:
	}

	// Revoked after subscribing, before holding: Hold finds it.
	sub, err := h.Subscribe(live.GameTopic("g2"))
	if err != nil {
		t.Fatal(err)
	}
	late := live.SeatAuthority("g2", []byte{3})
	l.Revoked(live.Revocation{Key: late, Reason: live.SeatLeft})
	h.Hold(sub, late)
	if got := sub.Revoked(); got != live.SeatLeft {
		t.Errorf("a revocation heard before Hold: Revoked = %q", got)
	}
}

// Every heartbeat, and after each reconnect of the listener, the hub asks in one batch which of
// the authorities its streams hold have ended, and ends their streams: a backstop to the notices.
// Until it has asked after a reconnect, Heard says nothing is heard.
func TestTheHubChecksTheAuthoritiesHeldOnTheHeartbeat(t *testing.T) {
	feed := &fakeFeed{listening: make(chan live.Listener, 1), connect: make(chan struct{})}
	h := live.NewHub(live.Config{Heartbeat: 5 * time.Millisecond}, feed, slog.New(slog.DiscardHandler), prometheus.NewRegistry())
	t.Cleanup(h.Close)
	gone := live.StudentAuthority("s1")
	asked := make(chan []live.AuthorityKey, 100)
	release := make(chan struct{})
	h.Verify(func(ctx context.Context, keys []live.AuthorityKey) ([]live.Revocation, error) {
		asked <- keys
		<-release
		var ended []live.Revocation
		for _, k := range keys {
			if k == gone {
				ended = append(ended, live.Revocation{Key: k, Reason: live.StudentRemoved})
			}
		}
		return ended, nil
	})
	conn := &fakeConn{revoked: make(chan string, 1)}
	_, ended := heldStream(t, h, conn, func(sub *live.Subscription) { h.Hold(sub, gone) })
	close(feed.connect) // the listener connects once the stream holds its authority
	l := <-feed.listening
	keys := <-asked // the check after the listener connected
	if len(keys) != 1 || keys[0] != gone {
		t.Errorf("asked about %v", keys)
	}
	l.Notice(live.Notice{GameID: "g1", Version: 1})
	if h.Heard("g1", 1) {
		t.Error("heard before the authorities were checked after the listener connected")
	}
	close(release)
	select {
	case reason := <-conn.revoked:
		if reason != live.StudentRemoved {
			t.Errorf("revoked for %q", reason)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the check did not end the stream")
	}
	<-ended
}

// Heard tells whether the hub has passed on a game's notices up to a version (and so every
// revocation committed before it); not while the listener is down, nor for what it may have missed.
func TestHeardFollowsTheNoticesPassedOn(t *testing.T) {
	h, l := listeningHub(t, live.Config{})
	if h.Heard("g1", 1) {
		t.Error("heard a game before any notice of it")
	}
	l.Notice(live.Notice{GameID: "g1", Version: 3})
	l.Notice(live.Notice{GameID: "g1", Version: 2}) // an older change's notice, coalesced
	if !h.Heard("g1", 3) || !h.Heard("g1", 2) || h.Heard("g1", 4) || h.Heard("g2", 1) {
		t.Error("Heard does not follow the notices passed on")
	}
	l.Failed(errors.New("connection lost"), time.Second)
	if h.Heard("g1", 3) {
		t.Error("heard while the listener is down")
	}
	l.Connected()
	if h.Heard("g1", 3) {
		t.Error("heard what was noticed before the listener reconnected")
	}
	l.Notice(live.Notice{GameID: "g1", Version: 5})
	if !h.Heard("g1", 5) {
		t.Error("not heard after the reconnect's first notice")
	}
}
