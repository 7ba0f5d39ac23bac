package live_test

import (
	"context"
	"errors"
	"testing"
	"time"

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

// On the heartbeat a stream asks again whose it is (Check), as a backstop to the revocations the
// listener hears; one that finds its authority ended sends its `revoked` event and ends. A stream
// without Check asks nothing.
func TestAStreamAsksAgainOnTheHeartbeat(t *testing.T) {
	h, _ := listeningHub(t, live.Config{Heartbeat: 5 * time.Millisecond})
	sub, err := h.Subscribe(live.GameTopic("g1"))
	if err != nil {
		t.Fatal(err)
	}
	checks := make(chan struct{}, 100)
	conn := &fakeConn{heartbeats: make(chan struct{}, 100), revoked: make(chan string, 1)}
	st, err := h.Begin(context.Background(), sub, live.Source{
		Open: func(context.Context) error { return nil },
		Step: func(context.Context) (bool, error) { return false, nil },
		Check: func(context.Context) error {
			checks <- struct{}{}
			if len(checks) < 3 {
				return nil
			}
			return live.Revoked(live.TokenRevoked)
		},
	}, conn)
	if err != nil || st == nil {
		t.Fatalf("Begin = %v, %v", st, err)
	}
	done := make(chan struct{})
	go func() { st.Run(context.Background()); close(done) }()
	select {
	case reason := <-conn.revoked:
		if reason != live.TokenRevoked {
			t.Errorf("revoked for %q", reason)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the stream did not end on a heartbeat's check")
	}
	<-done
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
