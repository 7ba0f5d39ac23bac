package api

import (
	"bytes"
	"encoding/json"
	"net"
	"net/http"
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

// problemListener wraps the connections it accepts in problemConn.
type problemListener struct{ net.Listener }

func (l problemListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	if tcp, ok := c.(*net.TCPConn); ok {
		return problemTCPConn{problemConn{c}, tcp}, nil
	}
	return problemConn{c}, nil
}

// problemConn rewrites net/http's plain-text refusals as problem documents.
type problemConn struct{ net.Conn }

func (c problemConn) Write(p []byte) (int, error) {
	if status, reason, ok := netHTTPRefusal(p); ok {
		if _, err := c.Conn.Write(unreadableRequestProblem(status, reason)); err != nil {
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

// unreadableRequestProblem is the whole answer to a request net/http could not read.
func unreadableRequestProblem(status int, reason string) []byte {
	code, known := codeOfStatus[status]
	if !known {
		code = "invalid"
	}
	detail := "The request's headers could not be read: a header holds a byte that headers may not (a control character such as NUL), or a line is not a header. Nothing was done."
	if reason != http.StatusText(status) {
		detail += " (" + reason + ")"
	}
	switch status {
	case http.StatusRequestHeaderFieldsTooLarge:
		code = "request_header_fields_too_large"
		detail = "The request's headers are larger than the server reads. Nothing was done."
	case http.StatusNotImplemented:
		code = "not_implemented"
		detail = "The request's Transfer-Encoding is not one the server reads. Nothing was done."
	}
	id := newRequestID()
	p := newProblem(status, code, detail)
	p.RequestId = &id
	body, _ := json.Marshal(p)
	var b bytes.Buffer
	b.WriteString("HTTP/1.1 " + strconv.Itoa(status) + " " + http.StatusText(status) + "\r\n")
	b.WriteString("Content-Type: " + problemContentType + "\r\n")
	b.WriteString("Content-Length: " + strconv.Itoa(len(body)) + "\r\n")
	b.WriteString(requestIDHeader + ": " + id + "\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n")
	b.Write(body)
	return b.Bytes()
}
