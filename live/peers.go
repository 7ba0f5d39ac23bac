package live

import "net"

// watchByReading calls gone when a read of conn fails: its peer closed it, or the connection broke.
// It holds a goroutine blocked in a one-byte read per connection, for connections the hub's epoll
// set cannot watch (another system than Linux, a TLS connection); bytes the client sends are
// dropped. Closing conn ends it.
func watchByReading(conn net.Conn, gone func()) (unwatch func()) {
	go func() {
		var b [1]byte
		for {
			if _, err := conn.Read(b[:]); err != nil {
				gone()
				return
			}
		}
	}()
	return func() {}
}
