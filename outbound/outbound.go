// Package outbound is the service's one HTTP client to the outside: it sends webhooks where the
// operator allows them and nowhere else. Its guard against server-side request forgery is checked
// when it dials, against the address the name resolved to, so that a name that resolves to the
// service's own network at sending time (DNS rebinding) is refused as well as a literal address.
package outbound

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"

	"primegames/play"
)

// Config says where webhooks may go and bounds each request.
type Config struct {
	// AllowedHosts, when not empty, are the only hosts a webhook URL may name: a name ("hooks.example.com"),
	// a domain and its subdomains ("*.example.com"), an address or a network ("10.1.2.0/24"); a
	// name or an address may carry a port ("hooks.example.com:8443", "10.1.2.3:8080",
	// "[fd00::1]:8080"), which then is the only port it opens.
	// An address or network listed here may be dialled even if it is not public (private, loopback,
	// …): that is how an operator allows a receiver inside their own network.
	AllowedHosts []string
	// Timeout bounds one request, from dialling to the end of the answer read.
	Timeout time.Duration
	// MaxResponse bounds what is read of an answer; the rest is dropped.
	MaxResponse int64
}

// Defaults: 10 s per request (Standard Webhooks suggests 15 to 30 s of waiting at most; the
// service's worker slots are few), 64 KiB of answer read.
const (
	DefaultTimeout     = 10 * time.Second
	DefaultMaxResponse = 64 << 10
)

// Sender sends webhooks. It implements play.WebhookSender.
type Sender struct {
	cfg      Config
	names    []allowedName    // allowed names, lower case; "*.x" allows x's subdomains
	networks []allowedNetwork // allowed addresses and networks (dialled even when private)
	client   *http.Client
}

var _ play.WebhookSender = (*Sender)(nil)

// New makes a sender; it refuses an entry of AllowedHosts it cannot read.
func New(cfg Config) (*Sender, error) {
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.MaxResponse <= 0 {
		cfg.MaxResponse = DefaultMaxResponse
	}
	s := &Sender{cfg: cfg}
	for _, h := range cfg.AllowedHosts {
		if err := s.allow(strings.ToLower(strings.TrimSpace(h))); err != nil {
			return nil, fmt.Errorf("allowed webhook host %q: %w", h, err)
		}
	}
	dialer := &net.Dialer{Timeout: cfg.Timeout, Control: s.checkDial}
	transport := &http.Transport{
		Proxy:                 nil, // a proxy would dial for us, past the guard
		DialContext:           dialer.DialContext,
		TLSHandshakeTimeout:   cfg.Timeout,
		ResponseHeaderTimeout: cfg.Timeout,
		MaxIdleConnsPerHost:   4,
		IdleConnTimeout:       time.Minute,
	}
	s.client = &http.Client{
		Transport: transport,
		Timeout:   cfg.Timeout,
		// Standard Webhooks: a redirect is a failure (update the URL instead); following one would
		// also lead past CheckURL.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	return s, nil
}

// CheckURL refuses a URL whose host (and port) the allow list leaves out, or that names a literal
// address the sender would refuse to dial. It looks nothing up: a name is checked against the
// allow list only, its addresses when they are dialled.
func (s *Sender) CheckURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return err
	}
	host := strings.ToLower(u.Hostname())
	port, err := urlPort(u)
	if err != nil {
		return err
	}
	restricted := len(s.names) > 0 || len(s.networks) > 0
	if a, err := netip.ParseAddr(host); err == nil {
		switch {
		case s.listed(a, port):
			return nil
		case restricted:
			return fmt.Errorf("the address %s port %d is not among the allowed webhook hosts", host, port)
		case !Global(a):
			return fmt.Errorf("the address %s is not public (loopback, private, link-local, reserved, or one of these spelled in IPv6)", host)
		}
		return nil
	}
	if numericName(host) {
		return fmt.Errorf("the host %s spells an IPv4 address the way some resolvers read it (decimal, octal or hexadecimal parts); write the address itself", host)
	}
	if !restricted {
		return nil // any public host; its addresses are checked when dialled
	}
	for _, n := range s.names {
		if n.matches(host, port) {
			return nil
		}
	}
	return fmt.Errorf("the host %s port %d is not among the allowed webhook hosts", host, port)
}

// checkAddr refuses to dial an address that is not public unless the allow list names it (with
// the port, when its entry has one).
func (s *Sender) checkAddr(a netip.Addr, port uint16) error {
	if !s.listed(a, port) && !Global(a) {
		return errNotAllowed
	}
	return nil
}

// errRefused marks a dial the guard refused; errNotAllowed is what a subscription is told.
var (
	errRefused    = errors.New("webhook address refused")
	errNotAllowed = errors.New("the receiver's address is not allowed")
)

// checkDial is the dialer's Control: it sees the address the connection is about to be made to.
func (s *Sender) checkDial(_, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("%w: %v", errRefused, err)
	}
	if err := s.checkAddr(ap.Addr(), ap.Port()); err != nil {
		return fmt.Errorf("%w: %v", errRefused, err)
	}
	return nil
}

// Send posts body with the Standard Webhooks headers and reads at most MaxResponse of the answer.
func (s *Sender) Send(ctx context.Context, raw string, h play.WebhookHeaders, body []byte) (int, error) {
	if err := s.CheckURL(raw); err != nil {
		return 0, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, raw, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "primegames-webhooks")
	req.Header.Set("webhook-id", h.ID)
	req.Header.Set("webhook-timestamp", h.Timestamp)
	req.Header.Set("webhook-signature", h.Signature)
	resp, err := s.client.Do(req)
	if err != nil {
		return 0, describe(err)
	}
	defer resp.Body.Close()
	_, _ = io.CopyN(io.Discard, resp.Body, s.cfg.MaxResponse) // an answer cut short changes nothing
	return resp.StatusCode, nil
}

// describe turns a failed request into the sentence a subscription shows as its last error: what
// the receiver did, never what the resolver or the network said (a resolver's address, the
// service's own).
func describe(err error) error {
	var ne net.Error
	var dns *net.DNSError
	switch {
	case errors.Is(err, errRefused):
		return errNotAllowed
	case errors.As(err, &dns) && !dns.IsTimeout:
		return errors.New("the receiver's host name did not resolve")
	case errors.As(err, &ne) && ne.Timeout():
		return errors.New("no answer within the timeout")
	case errors.Is(err, syscall.ECONNREFUSED):
		return errors.New("the receiver refused the connection")
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return errors.New("the receiver closed the connection without an answer")
	case isTLS(err):
		return errors.New("the TLS handshake with the receiver failed")
	default:
		return errors.New("the request to the receiver failed")
	}
}
