package live

import (
	"context"
	"fmt"
	"net"
	"runtime/debug"
	"sync"
	"time"
)

// Detach carries a stream that Begin opened on, once its request's handler has taken its
// connection (hijacked it) and is about to return, without holding a goroutine while the stream is
// idle: a wake-up, the heartbeat's timer, a due retry or the stream's end start a goroutine that
// does what is due (one at a time per stream) and ends. An idle stream then holds no HTTP server
// goroutine, no read or write buffers, no reader blocked on its connection and no goroutine of its
// own: its subscription, its timer and what its source keeps.
//
// The stream ends as Run's would (a step reports it over, a heartbeat cannot be written, the
// server shuts down), and when conn's peer closes the connection (watched without reading it);
// then end is called, once (to close the connection and give back the stream's slots). Its reads
// get a context that keeps ctx's values but not its end. Close waits for detached streams. Detach
// reports false, without taking the stream, when the hub is closed already.
func (h *Hub) Detach(ctx context.Context, st *Stream, conn net.Conn, end func()) bool {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return false
	}
	h.detached.Add(1)
	h.mu.Unlock()
	d := &detachedStream{st: st, end: end, running: true} // nothing starts until all is set
	d.ctx, d.cancel = context.WithCancel(context.WithoutCancel(ctx))
	d.unstop = context.AfterFunc(h.stopped, d.cancel) // a read under way ends at once too
	d.unwatch = h.peers.watch(conn, d.cancel)
	// Timers and context.AfterFunc call these on goroutines of their own, which may do the work;
	// the hub wakes streams holding its lock, so a wake-up starts a goroutine.
	d.unended = context.AfterFunc(d.ctx, func() { d.kick(dueEnd, true) })
	d.heartbeat = time.AfterFunc(h.cfg.Heartbeat, func() { d.kick(dueHeartbeat, true) })
	st.retry.callback(func() { d.kick(dueRetry, true) })
	st.sub.onWake(func() { d.kick(dueWake, false) })
	// A wake-up since Begin waits in the subscription's channel: look, on this goroutine (the
	// handler's, about to return), then idle.
	d.mu.Lock()
	d.due |= dueWake
	d.mu.Unlock()
	d.work()
	return true
}

// What is due for a detached stream.
const (
	dueWake = 1 << iota
	dueRetry
	dueHeartbeat
	dueEnd
)

type detachedStream struct {
	st      *Stream
	ctx     context.Context
	cancel  context.CancelFunc
	end     func()
	unstop  func() bool
	unended func() bool
	unwatch func()

	heartbeat *time.Timer

	mu       sync.Mutex
	due      int
	running  bool // a goroutine is doing what is due, or the stream has ended
	finished bool // only the goroutine at work reads or sets it
}

// kick records what is due and, unless a goroutine is at it, does it: here with inline, else on
// a new goroutine.
func (d *detachedStream) kick(due int, inline bool) {
	d.mu.Lock()
	d.due |= due
	start := !d.running
	d.running = true
	d.mu.Unlock()
	switch {
	case start && inline:
		d.work()
	case start:
		go d.work()
	}
}

// work does what is due until nothing is, then lets the stream idle; or ends it. A panic ends the
// stream, not the server (no HTTP handler recovers it any more).
func (d *detachedStream) work() {
	defer func() {
		if r := recover(); r != nil {
			d.st.hub.logger.Error("live updates: a stream panicked; it ends", "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
			d.finish()
		}
	}()
	for {
		d.mu.Lock()
		due := d.due
		d.due = 0
		if due == 0 {
			d.running = false
			d.mu.Unlock()
			return
		}
		d.mu.Unlock()
		if due&dueEnd != 0 || d.ctx.Err() != nil {
			d.finish()
			return
		}
		if due&dueHeartbeat != 0 {
			if err := d.st.conn.Heartbeat(); err != nil {
				d.finish()
				return
			}
			d.heartbeat.Reset(d.st.hub.cfg.Heartbeat)
		}
		read := due&dueRetry != 0
		select {
		case <-d.st.sub.wake:
			read = true
		default:
		}
		if read && d.st.step(d.ctx) {
			d.finish()
			return
		}
	}
}

// finish ends the stream, once: running stays true, so nothing starts again.
func (d *detachedStream) finish() {
	if d.finished {
		return
	}
	d.finished = true
	defer d.st.hub.detached.Done()
	d.st.sub.onWake(nil)
	d.heartbeat.Stop()
	d.st.retry.stop()
	d.unended()
	d.unstop()
	d.cancel()
	d.unwatch()
	d.end()
}
