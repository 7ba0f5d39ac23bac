package repo

import (
	"context"
	"strconv"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgproto3"
)

// pingLine carries the barrier's pings (barrier.go) to the listening connection: each is written
// to it, by the goroutine that sends it, as a NOTIFY on the barrier's channel, and comes back on
// the same connection, read by the listener like any notification. One round trip to Postgres per
// ping and nothing to wake, where a ping sent on a pooled connection took that connection's round
// trip and a wake of the listener to hear it. A ping is a notification like any change's, so it
// still comes back only after every notification committed before it.
type pingLine struct {
	mu sync.Mutex
	// to are the listening connections: one per listener of the DB, which is one in a server
	// (tests run two hubs on one DB); a ping goes to the first.
	to []*listenWriter
}

func (p *pingLine) attach(w *listenWriter) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.to = append(p.to, w)
}

func (p *pingLine) detach(w *listenWriter) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i, x := range p.to {
		if x == w {
			p.to = append(p.to[:i], p.to[i+1:]...)
			return
		}
	}
}

// send writes a ping to the listening connection.
func (p *pingLine) send(_ context.Context, channel, payload string) error {
	p.mu.Lock()
	var w *listenWriter
	if len(p.to) > 0 {
		w = p.to[0]
	}
	p.mu.Unlock()
	if w == nil {
		return errNotListening
	}
	if _, err := strconv.ParseUint(payload, 10, 64); err != nil {
		return err // a ping's payload is its number: nothing to quote
	}
	msg, err := (&pgproto3.Query{String: "NOTIFY " + pgx.Identifier{channel}.Sanitize() + ", '" + payload + "'"}).Encode(nil)
	if err != nil {
		return err
	}
	return w.write(msg)
}
