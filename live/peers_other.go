//go:build !linux

package live

import "net"

// peerWatch tells detached streams that their client closed the connection: here, by a read per
// connection.
type peerWatch struct{}

func (*peerWatch) watch(conn net.Conn, gone func()) (unwatch func()) {
	return watchByReading(conn, gone)
}

func (*peerWatch) close() {}
