package repo

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"strconv"
	"sync"
	"time"
)

// barrier answers a reader, for the records (records.go), once this instance's listener has heard
// every change committed before the reader asked. It sends a notification of its own, a ping on
// this instance's channel, after the reader asked, and waits for it to come back on the listener:
// Postgres delivers notifications in the order their transactions committed, and the listener
// handles them one after the other, so when the ping arrives every change committed before it
// (and so before the reader asked) has been heard.
//
// Readers that ask while a ping is out wait for the next one, which goes as soon as the one out
// comes back: one ping in flight at a time, each answering every reader that asked before it went.
// Under load one ping serves many reads; alone, a read waits for one ping (a round trip to Postgres
// and back through the listener).
type barrier struct {
	send    func(ctx context.Context, channel, payload string) error
	channel string // this instance's own: pings of the other instances are not delivered here
	timeout time.Duration
	// patience is the longest waitBriefly waits: from when its round began (barrierWait).
	patience time.Duration

	mu      sync.Mutex
	up      bool
	behind  bool       // the last ping failed or came back late
	pending *pingRound // the readers the next ping will answer
	flying  *pingRound // the ping sent, not come back yet
	sent    uint64     // pings sent
}

type pingRound struct {
	n    uint64
	done chan struct{}
	err  error
	late *time.Timer // ends the round if the ping does not come back
	// slow is closed patience after the round began: its brief waits end then. One timer per
	// round, not one per reader.
	slow      chan struct{}
	slowTimer *time.Timer
}

// newRound is a round for readers to join; b.mu is held.
func (b *barrier) newRound() *pingRound {
	r := &pingRound{done: make(chan struct{}), slow: make(chan struct{})}
	r.slowTimer = time.AfterFunc(b.patience, func() { close(r.slow) })
	return r
}

// over marks r ended (its done closed by the caller); b.mu is held.
func (r *pingRound) over() {
	r.slowTimer.Stop()
	if r.late != nil {
		r.late.Stop()
	}
}

// newBarrier is a barrier whose pings go through send.
func newBarrier(send func(ctx context.Context, channel, payload string) error) *barrier {
	var id [8]byte
	_, _ = rand.Read(id[:])
	return &barrier{send: send, channel: "game_sync_" + hex.EncodeToString(id[:]), timeout: pingTimeout, patience: barrierWait}
}

// wait returns once every change committed before it was called has been heard, or with an error
// when that cannot be known now (the listener is down, or the ping did not come back in time).
func (b *barrier) wait(ctx context.Context) error { return b.await(ctx, false) }

// waitBriefly is wait, but gives up with errPingSlow once its round has waited patience.
func (b *barrier) waitBriefly(ctx context.Context) error { return b.await(ctx, true) }

var errPingSlow = errors.New("the barrier's ping is slow to come back")

func (b *barrier) await(ctx context.Context, brief bool) error {
	b.mu.Lock()
	if !b.up {
		b.mu.Unlock()
		return errNotListening
	}
	if b.behind {
		// The last ping did not come back in time: until one does, readers go to Postgres at
		// once rather than each wait for a ping; one ping at a time still goes, to find out.
		if b.flying == nil {
			b.pending = b.newRound()
			b.launch()
		}
		b.mu.Unlock()
		return errPingLate
	}
	r := b.pending
	if r == nil {
		r = b.newRound()
		b.pending = r
	}
	if b.flying == nil {
		b.launch()
	}
	b.mu.Unlock()
	var slow <-chan struct{} // nil: never
	if brief {
		slow = r.slow
	}
	select {
	case <-r.done:
		return r.err
	case <-slow:
		return errPingSlow
	case <-ctx.Done():
		return ctx.Err()
	}
}

// launch sends the pending round's ping; b.mu is held.
func (b *barrier) launch() {
	r := b.pending
	b.pending, b.flying = nil, r
	b.sent++
	r.n = b.sent
	payload, timeout := strconv.FormatUint(r.n, 10), b.timeout
	r.late = time.AfterFunc(timeout, func() {
		b.mu.Lock()
		b.end(r, errPingLate)
		b.mu.Unlock()
	})
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		if err := b.send(ctx, b.channel, payload); err != nil {
			b.mu.Lock()
			b.end(r, err)
			b.mu.Unlock()
		}
	}()
}

// pings is how many pings have been sent.
func (b *barrier) pings() uint64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.sent
}

var errPingLate = errors.New("the barrier's ping did not come back in time")

// end ends round r with err (nil: the ping came back), if it is the one in flight, and sends the
// next; b.mu is held.
func (b *barrier) end(r *pingRound, err error) {
	if b.flying != r {
		return
	}
	r.err = err
	r.over()
	close(r.done)
	b.flying = nil
	b.behind = err != nil
	if b.pending != nil {
		if b.up {
			b.launch()
		} else {
			b.pending.err = errNotListening
			b.pending.over()
			close(b.pending.done)
			b.pending = nil
		}
	}
}

// arrived is told of a ping heard on the listener.
func (b *barrier) arrived(payload string) {
	n, err := strconv.ParseUint(payload, 10, 64)
	if err != nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.flying != nil && b.flying.n == n {
		b.end(b.flying, nil)
	}
}

// listening is told when the listener connects and when it is lost; while it is down every reader
// is told at once, and those waiting are let go.
func (b *barrier) listening(up bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.up, b.behind = up, false
	if up {
		return
	}
	for _, r := range []*pingRound{b.flying, b.pending} {
		if r != nil {
			r.err = errNotListening
			r.over()
			close(r.done)
		}
	}
	b.flying, b.pending = nil, nil
}
