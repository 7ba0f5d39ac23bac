package live

import (
	"context"
	"net"
)

// Detach runs a stream on a goroutine of its own, once its request's handler has taken its
// connection (hijacked it) and is about to return: an idle stream then holds no HTTP server
// goroutine, no read or write buffers and no reader blocked on its connection, only run's goroutine.
// run gets a context that keeps ctx's values but not its end: it ends when conn's peer closes the
// connection (watched without reading it), when the server shuts down, or when run returns. Once
// run has returned, end is called (to close the connection and give back the stream's slots). Close
// waits for detached streams. Detach reports false, without running anything, when the hub is
// closed already.
func (h *Hub) Detach(ctx context.Context, conn net.Conn, run func(ctx context.Context), end func()) bool {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return false
	}
	h.detached.Add(1)
	h.mu.Unlock()
	ctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	unstop := context.AfterFunc(h.stopped, cancel) // a read under way ends at once too
	unwatch := h.peers.watch(conn, cancel)
	go func() {
		defer h.detached.Done()
		defer end()
		defer unwatch()
		defer unstop()
		defer cancel()
		run(ctx)
	}()
	return true
}
