package repotest

import (
	"net"
	"strconv"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"
)

// Proxy forwards TCP connections to a database server and can cut them, so a test can put a server
// instance through a database outage without stopping the shared Postgres that other tests use.
type Proxy struct {
	t      testing.TB
	target string
	addr   string

	mu    sync.Mutex
	ln    net.Listener // nil while cut
	conns map[net.Conn]struct{}
	wg    sync.WaitGroup
	// silent, while set, swallows every byte in both directions and keeps the connections open.
	silent bool
}

// NewProxy starts a proxy to the server of the database at url (as NewDBWithURL returns it) and
// returns it with the same database's connection string through the proxy. It stops when the test
// ends.
func NewProxy(t testing.TB, url string) (*Proxy, string) {
	t.Helper()
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		t.Fatalf("proxy: parse %q: %v", url, err)
	}
	p := &Proxy{t: t, target: net.JoinHostPort(cfg.Host, strconv.Itoa(int(cfg.Port))), conns: map[net.Conn]struct{}{}}
	p.listen("127.0.0.1:0")
	p.addr = p.ln.Addr().String()
	t.Cleanup(func() {
		p.Cut()
		p.wg.Wait()
	})
	proxied := cfg.Copy()
	proxied.Host, proxied.Port = "127.0.0.1", uint16(p.ln.Addr().(*net.TCPAddr).Port)
	return p, databaseAddress(proxied, cfg.Database)
}

// Cut resets every open connection and refuses new ones until Restore, as a database that went
// down would.
func (p *Proxy) Cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != nil {
		_ = p.ln.Close()
		p.ln = nil
	}
	for c := range p.conns {
		if tcp, ok := c.(*net.TCPConn); ok {
			_ = tcp.SetLinger(0) // a reset, not an orderly close
		}
		_ = c.Close()
		delete(p.conns, c)
	}
}

// Restore accepts connections again on the same address, after Cut, or forwards again, after
// Silence.
func (p *Proxy) Restore() {
	p.t.Helper()
	p.mu.Lock()
	wasSilent := p.silent
	p.silent = false
	p.mu.Unlock()
	if !wasSilent {
		p.listen(p.addr)
	}
}

// Silence swallows every byte in both directions, on open connections and new ones, without
// closing any, until Restore: a stuck load balancer, a dead host behind a live one, a firewall
// that lost the flow. Whatever is swallowed is lost.
func (p *Proxy) Silence() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.silent = true
}

func (p *Proxy) isSilent() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.silent
}

func (p *Proxy) listen(addr string) {
	p.t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		p.t.Fatalf("proxy: listen on %s: %v", addr, err)
	}
	p.mu.Lock()
	p.ln = ln
	p.mu.Unlock()
	p.wg.Add(1)
	go p.accept(ln)
}

func (p *Proxy) accept(ln net.Listener) {
	defer p.wg.Done()
	for {
		client, err := ln.Accept()
		if err != nil {
			return // cut
		}
		server, err := net.Dial("tcp", p.target)
		if err != nil {
			_ = client.Close()
			continue
		}
		if !p.track(ln, client, server) {
			return
		}
		p.wg.Add(2)
		go p.pipe(client, server)
		go p.pipe(server, client)
	}
}

// track registers a proxied connection's two ends, unless the proxy was cut meanwhile.
func (p *Proxy) track(ln net.Listener, ends ...net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != ln {
		for _, c := range ends {
			_ = c.Close()
		}
		return false
	}
	for _, c := range ends {
		p.conns[c] = struct{}{}
	}
	return true
}

// pipe copies one direction, dropping what it reads while the proxy is silent; when either side
// closes, so does the other.
func (p *Proxy) pipe(dst, src net.Conn) {
	defer p.wg.Done()
	buf := make([]byte, 32*1024)
	for {
		n, err := src.Read(buf)
		if n > 0 && !p.isSilent() {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				break
			}
		}
		if err != nil {
			break
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range []net.Conn{src, dst} {
		_ = c.Close()
		delete(p.conns, c)
	}
}
