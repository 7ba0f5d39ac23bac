package middleware

import (
	"bytes"
	"net"
	"strconv"
	"syscall"
)

// net/http refuses a request it cannot read (a control byte such as NUL in a header, a header
// line without a colon, headers beyond their limit) before any handler sees it, and answers in
// plain text itself: it writes its answer straight to the connection, status line, then exactly
// netHTTPRefusalHeaders, then the status again as the body. No hook of http.Server reaches it
// (ErrorLog gets nothing; ConnState sees only the close). So the server's connections are wrapped
// (problemListener): a write that is such an answer, and only such a write, goes out as the same
// status in a problem document instead. Every other write passes through after one prefix check.

// netHTTPRefusalHeaders are the headers net/http's own refusals carry (net/http/server.go, errorHeaders).
const netHTTPRefusalHeaders = "\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n"

// ProblemListener wraps the connections it accepts in problemConn, which answers Problem(status,
// reason) in place of each of net/http's refusals.
type ProblemListener struct {
	net.Listener
	Problem func(status int, reason string) []byte
}

func (l ProblemListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	if tcp, ok := c.(*net.TCPConn); ok {
		return problemTCPConn{problemConn{c, l.Problem}, tcp}, nil
	}
	return problemConn{c, l.Problem}, nil
}

// problemConn rewrites net/http's plain-text refusals as problem documents.
type problemConn struct {
	net.Conn
	problem func(status int, reason string) []byte
}

func (c problemConn) Write(p []byte) (int, error) {
	if status, reason, ok := netHTTPRefusal(p); ok {
		if _, err := c.Conn.Write(c.problem(status, reason)); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	return c.Conn.Write(p)
}

// problemTCPConn keeps what the TCP connection offers beyond net.Conn: the half-close, which
// net/http uses to end a connection after a refusal without losing the answer, and the descriptor,
// which live's streams watch for the client hanging up (live/peers_linux.go).
type problemTCPConn struct {
	problemConn
	tcp *net.TCPConn
}

func (c problemTCPConn) CloseWrite() error { return c.tcp.CloseWrite() }

func (c problemTCPConn) SyscallConn() (syscall.RawConn, error) { return c.tcp.SyscallConn() }

// netHTTPRefusal recognizes an answer of net/http's own: "HTTP/1.1 400 Bad Request[: reason]",
// its headers, and a body that repeats the status line.
func netHTTPRefusal(p []byte) (status int, reason string, ok bool) {
	const prefix = "HTTP/1.1 "
	if len(p) < len(prefix)+3 || string(p[:len(prefix)]) != prefix {
		return 0, "", false
	}
	end := bytes.IndexByte(p, '\r')
	if end < 0 || !bytes.HasPrefix(p[end:], []byte(netHTTPRefusalHeaders)) {
		return 0, "", false
	}
	line, body := p[len(prefix):end], p[end+len(netHTTPRefusalHeaders):]
	if !bytes.Equal(body, line) && string(body) != "Unsupported transfer encoding" {
		return 0, "", false
	}
	status, err := strconv.Atoi(string(line[:3]))
	if err != nil || status < 400 || status > 599 {
		return 0, "", false
	}
	text := string(line[4:])
	if i := bytes.Index(line, []byte(": ")); i >= 0 {
		text = string(line[i+2:])
	}
	return status, text, true
}
