package middleware

import (
	"net"
	"syscall"
	"testing"
)

// The connections the server wraps keep what their users ask a TCP connection for beyond
// net.Conn: its descriptor (live watches a stream's for the client hanging up) and its half-close
// (net/http ends a connection with it after a refusal).
func TestProblemConnsKeepWhatTCPOffers(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	dialed := make(chan net.Conn, 1)
	go func() {
		c, _ := net.Dial("tcp", ln.Addr().String())
		dialed <- c
	}()
	conn, err := ProblemListener{Listener: ln}.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if c := <-dialed; c != nil {
		defer c.Close()
	}
	sc, ok := conn.(syscall.Conn)
	if !ok {
		t.Fatal("a wrapped connection hides its descriptor (syscall.Conn)")
	}
	if raw, err := sc.SyscallConn(); err != nil || raw == nil {
		t.Errorf("SyscallConn: %v", err)
	}
	if _, ok := conn.(interface{ CloseWrite() error }); !ok {
		t.Error("a wrapped connection hides its half-close (CloseWrite)")
	}
}

// Only net/http's own refusals are rewritten: an answer of the service's, even a 400, passes as
// it is.
func TestOnlyNetHTTPRefusalsAreRewritten(t *testing.T) {
	t.Parallel()
	for answer, want := range map[string]bool{
		"HTTP/1.1 400 Bad Request" + netHTTPRefusalHeaders + "400 Bad Request":                                             true,
		"HTTP/1.1 400 Bad Request: invalid header value" + netHTTPRefusalHeaders + "400 Bad Request: invalid header value": true,
		"HTTP/1.1 501 Not Implemented" + netHTTPRefusalHeaders + "Unsupported transfer encoding":                           true,
		"HTTP/1.1 400 Bad Request\r\nContent-Type: application/problem+json\r\n\r\n{}":                                     false,
		"HTTP/1.1 400 Bad Request" + netHTTPRefusalHeaders + "something else":                                              false,
		"HTTP/1.1 200 OK" + netHTTPRefusalHeaders + "200 OK":                                                               false,
		"1a\r\nHTTP/1.1 400 Bad Request":                                                                                   false,
	} {
		if _, _, got := netHTTPRefusal([]byte(answer)); got != want {
			t.Errorf("%q: rewritten %v, want %v", answer, got, want)
		}
	}
}
