package repo

import (
	"context"
	"net"
	"sync"
	"time"
)

// pingLine carries the barrier's pings (barrier.go) to the listening connection, which sends each
// itself and hears it come back on the same connection: one round trip to Postgres per ping,
// where a ping sent on a pooled connection took two (that connection's, and the listener's wake
// to hear it). A ping is a NOTIFY like any change's, so it still comes back only after every
// notification committed before it.
//
// The listener blocks reading its connection; a ping (or the end of listening) wakes it by moving
// the connection's read deadline to the past.
type pingLine struct {
	mu      sync.Mutex
	channel string
	payload string // the ping to send next, "" when none
	// waiting are the listening connections blocked on a read: one per listener of the DB, which
	// is one in a server (tests run two hubs on one DB).
	waiting map[net.Conn]struct{}
}

// send hands a ping to the listener; it never blocks. A later ping replaces one not yet sent: the
// barrier has one in flight at a time, and ends a round that does not come back (pingTimeout).
func (p *pingLine) send(_ context.Context, channel, payload string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.channel, p.payload = channel, payload
	p.wakeLocked()
	return nil
}

// take returns the ping to send, if any.
func (p *pingLine) take() (channel, payload string, ok bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	channel, payload = p.channel, p.payload
	p.payload = ""
	return channel, payload, payload != ""
}

// block marks conn as about to block on a read, whose deadline the caller has already set; it
// returns false, leaving conn unmarked, when a ping is waiting.
func (p *pingLine) block(conn net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.payload != "" {
		return false
	}
	if p.waiting == nil {
		p.waiting = map[net.Conn]struct{}{}
	}
	p.waiting[conn] = struct{}{}
	return true
}

// unblock marks conn's read as over.
func (p *pingLine) unblock(conn net.Conn) {
	p.mu.Lock()
	delete(p.waiting, conn)
	p.mu.Unlock()
}

// wake ends the blocked reads, if any (so that their listeners see their contexts end).
func (p *pingLine) wake() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.wakeLocked()
}

func (p *pingLine) wakeLocked() {
	for conn := range p.waiting {
		_ = conn.SetReadDeadline(aLongTimeAgo)
	}
}

// aLongTimeAgo is a read deadline that has passed: the read blocked returns at once.
var aLongTimeAgo = time.Unix(1, 0)
