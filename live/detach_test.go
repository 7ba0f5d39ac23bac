package live_test

import (
	"context"
	"errors"
	"net"
	"testing"
	"time"

	"primegames/live"
)

// fakeConn is a stream's client as live sees it, counting heartbeats.
type fakeConn struct {
	heartbeats chan struct{}
	failing    bool
	revoked    chan string // the reason of the `revoked` event, when set
}

func (c *fakeConn) Begin() error { return nil }
func (c *fakeConn) Heartbeat() error {
	select {
	case c.heartbeats <- struct{}{}:
	default:
	}
	if c.failing {
		return errors.New("client gone")
	}
	return nil
}
func (c *fakeConn) Refuse(error) error { return nil }
func (c *fakeConn) ReadFailed(error)   {}
func (c *fakeConn) Revoked(reason string) error {
	if c.revoked != nil {
		c.revoked <- reason
	}
	return nil
}

// tcpPair is both ends of a loopback TCP connection.
func tcpPair(t *testing.T) (server, client net.Conn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	client, err = net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	if server, err = ln.Accept(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { client.Close(); server.Close() })
	return server, client
}

// detachStream begins a stream of game g1 whose steps signal on steps, and detaches it on server;
// ended is closed when its end has been called.
func detachStream(t *testing.T, h *live.Hub, conn live.Conn, server net.Conn) (steps <-chan struct{}, ended <-chan struct{}) {
	t.Helper()
	sub, err := h.Subscribe(live.GameTopic("g1"))
	if err != nil {
		t.Fatal(err)
	}
	stepped, end := make(chan struct{}, 100), make(chan struct{})
	st, err := h.Begin(context.Background(), sub, live.Source{
		Open: func(context.Context) error { return nil },
		Step: func(context.Context) (bool, error) { stepped <- struct{}{}; return false, nil },
	}, conn)
	if err != nil || st == nil {
		t.Fatalf("Begin = %v, %v", st, err)
	}
	<-stepped // the first step, sending the history
	if !h.Detach(context.Background(), st, server, func() { h.Unsubscribe(sub); close(end) }) {
		t.Fatal("Detach refused the stream")
	}
	return stepped, end
}

// A detached stream steps when a notice of its game wakes it, and ends, its end called, when its
// client closes the connection: heard without a read, with no heartbeat due for an hour.
func TestADetachedStreamStepsWhenWokenAndEndsWhenItsClientLeaves(t *testing.T) {
	h, l := listeningHub(t, live.Config{Heartbeat: time.Hour})
	server, client := tcpPair(t)
	steps, ended := detachStream(t, h, &fakeConn{}, server)
	l.Notice(live.Notice{GameID: "g1"})
	select {
	case <-steps:
	case <-time.After(10 * time.Second):
		t.Fatal("a notice of its game did not make the detached stream step")
	}
	client.Close()
	select {
	case <-ended:
	case <-time.After(10 * time.Second):
		t.Fatal("the stream did not end when its client closed the connection")
	}
}

// A detached stream sends heartbeats while idle and ends when one cannot be written.
func TestADetachedStreamBeatsAndEndsWhenAHeartbeatFails(t *testing.T) {
	h, _ := listeningHub(t, live.Config{Heartbeat: 5 * time.Millisecond})
	server, _ := tcpPair(t)
	conn := &fakeConn{heartbeats: make(chan struct{}, 100)}
	_, ended := detachStream(t, h, conn, server)
	for range 3 {
		<-conn.heartbeats
	}
	select {
	case <-ended:
		t.Fatal("the stream ended while its heartbeats were written")
	default:
	}
	conn2 := &fakeConn{heartbeats: make(chan struct{}, 100), failing: true}
	server2, _ := tcpPair(t)
	_, ended2 := detachStream(t, h, conn2, server2)
	select {
	case <-ended2:
	case <-time.After(10 * time.Second):
		t.Fatal("the stream did not end when its heartbeat failed")
	}
}

// On Close every detached stream ends, and Close returns once their ends have been called.
func TestCloseEndsDetachedStreams(t *testing.T) {
	h, _ := listeningHub(t, live.Config{Heartbeat: time.Hour})
	var ends []<-chan struct{}
	for range 3 {
		server, _ := tcpPair(t)
		_, ended := detachStream(t, h, &fakeConn{}, server)
		ends = append(ends, ended)
	}
	h.Close()
	for i, ended := range ends {
		select {
		case <-ended:
		default:
			t.Errorf("stream %d had not ended when Close returned", i)
		}
	}
	server, _ := tcpPair(t)
	if h.Detach(context.Background(), nil, server, func() {}) {
		t.Error("a closed hub took a stream")
	}
}

// A detached stream whose step panics ends, its end called, and the server goes on.
func TestAPanickingDetachedStreamEndsAlone(t *testing.T) {
	h, l := listeningHub(t, live.Config{Heartbeat: time.Hour})
	server, _ := tcpPair(t)
	sub, err := h.Subscribe(live.GameTopic("g1"))
	if err != nil {
		t.Fatal(err)
	}
	steps := 0
	st, err := h.Begin(context.Background(), sub, live.Source{
		Open: func(context.Context) error { return nil },
		Step: func(context.Context) (bool, error) {
			if steps++; steps > 1 {
				panic("a bug")
			}
			return false, nil
		},
	}, &fakeConn{})
	if err != nil || st == nil {
		t.Fatalf("Begin = %v, %v", st, err)
	}
	ended := make(chan struct{})
	h.Detach(context.Background(), st, server, func() { close(ended) })
	l.Notice(live.Notice{GameID: "g1"})
	select {
	case <-ended:
	case <-time.After(10 * time.Second):
		t.Fatal("the stream whose step panicked did not end")
	}
}
