//go:build linux

package live

import (
	"errors"
	"net"
	"os"
	"sync"
	"syscall"
)

// peerWatch tells detached streams that their client closed the connection, or that it broke,
// without a goroutine or a read per connection: one epoll set of the hub, waited on by one goroutine
// started with the first connection, hears every watched connection's hang-up (EPOLLRDHUP, and the
// errors epoll always reports). Nothing is read: bytes the client sends stay in the kernel's buffer,
// which is bounded.
type peerWatch struct {
	mu      sync.Mutex
	epfd    int
	wakeR   *os.File // readable (hung up) once close is called: ends the waiting goroutine
	wakeW   *os.File
	started bool
	closed  bool
	next    int32            // the next token to try; 0 is the wake-up's
	gone    map[int32]func() // by token, what to call when the connection's peer hangs up
}

const peerWakeToken = 0

func (pw *peerWatch) watch(conn net.Conn, gone func()) (unwatch func()) {
	raw := rawConnOf(conn)
	if raw == nil {
		return watchByReading(conn, gone)
	}
	pw.mu.Lock()
	if err := pw.start(); err != nil {
		pw.mu.Unlock()
		return watchByReading(conn, gone)
	}
	token := pw.newToken()
	pw.gone[token] = gone
	epfd := pw.epfd
	pw.mu.Unlock()
	event := syscall.EpollEvent{Events: syscall.EPOLLRDHUP | syscall.EPOLLONESHOT, Fd: token}
	var ctlErr error
	err := raw.Control(func(fd uintptr) { ctlErr = syscall.EpollCtl(epfd, syscall.EPOLL_CTL_ADD, int(fd), &event) })
	if err = errors.Join(err, ctlErr); err != nil {
		pw.forget(token)
		return watchByReading(conn, gone)
	}
	// Called before the connection is closed, so that its descriptor is never another's when removed;
	// under the lock, so that the set is not closed meanwhile.
	return func() {
		pw.mu.Lock()
		defer pw.mu.Unlock()
		delete(pw.gone, token)
		if !pw.closed {
			_ = raw.Control(func(fd uintptr) { _ = syscall.EpollCtl(epfd, syscall.EPOLL_CTL_DEL, int(fd), nil) })
		}
	}
}

// forget removes token.
func (pw *peerWatch) forget(token int32) {
	pw.mu.Lock()
	defer pw.mu.Unlock()
	delete(pw.gone, token)
}

// newToken is a token no watched connection holds.
func (pw *peerWatch) newToken() int32 {
	for {
		pw.next++
		if _, taken := pw.gone[pw.next]; !taken && pw.next != peerWakeToken {
			return pw.next
		}
	}
}

// start makes the epoll set and its goroutine, once.
func (pw *peerWatch) start() error {
	if pw.closed {
		return errors.New("closed")
	}
	if pw.started {
		return nil
	}
	epfd, err := syscall.EpollCreate1(syscall.EPOLL_CLOEXEC)
	if err != nil {
		return err
	}
	r, w, err := os.Pipe()
	if err != nil {
		_ = syscall.Close(epfd)
		return err
	}
	raw, err := r.SyscallConn()
	if err == nil {
		wake := syscall.EpollEvent{Events: syscall.EPOLLIN, Fd: peerWakeToken}
		err = errors.Join(err, raw.Control(func(fd uintptr) {
			err = syscall.EpollCtl(epfd, syscall.EPOLL_CTL_ADD, int(fd), &wake)
		}))
	}
	if err != nil {
		_ = syscall.Close(epfd)
		_, _ = r.Close(), w.Close()
		return err
	}
	pw.epfd, pw.wakeR, pw.wakeW, pw.started = epfd, r, w, true
	pw.gone = map[int32]func(){}
	go pw.wait()
	return nil
}

// wait calls what each hung-up connection's watch asked for, until close.
func (pw *peerWatch) wait() {
	events := make([]syscall.EpollEvent, 128)
	for {
		n, err := syscall.EpollWait(pw.epfd, events, -1)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil { // not with a valid set and buffer; the streams still end when a write fails
			return
		}
		for _, event := range events[:n] {
			if event.Fd == peerWakeToken {
				pw.mu.Lock()
				_ = syscall.Close(pw.epfd) // closed is set: nobody uses it any more
				pw.mu.Unlock()
				_ = pw.wakeR.Close()
				return
			}
			pw.mu.Lock()
			gone := pw.gone[event.Fd]
			delete(pw.gone, event.Fd)
			pw.mu.Unlock()
			if gone != nil {
				gone()
			}
		}
	}
}

// close ends the waiting goroutine; connections watched until then are no longer.
func (pw *peerWatch) close() {
	pw.mu.Lock()
	defer pw.mu.Unlock()
	if pw.closed {
		return
	}
	pw.closed = true
	if pw.started {
		_ = pw.wakeW.Close() // the read end hangs up: wait returns
	}
}

// rawConnOf is conn's descriptor, when it has one the epoll set can watch.
func rawConnOf(conn net.Conn) syscall.RawConn {
	sc, ok := conn.(syscall.Conn)
	if !ok {
		return nil
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return nil
	}
	return raw
}
