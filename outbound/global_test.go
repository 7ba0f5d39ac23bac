package outbound_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"

	"primegames/outbound"
	"primegames/play"
)

// Every address that is not of the public internet is refused, however it is spelled: the
// examples of issue 39, the IANA special-purpose blocks, and IPv6 spellings of IPv4 ones.
func TestEveryNonGlobalAddressIsRefusedInEverySpelling(t *testing.T) {
	t.Parallel()
	refused := []string{
		// issue 39
		"64:ff9b::7f00:1", "64:ff9b::a9fe:a9fe", "::127.0.0.1", "2002:7f00:1::", "::ffff:0:7f00:1", "0.0.0.1", "240.0.0.1",
		"64:ff9b::a00:1", "64:ff9b:1::a00:1", "64:ff9b:1::808:808",
		// IPv4 blocks
		"0.0.0.0", "10.0.0.1", "100.64.0.1", "100.127.255.254", "127.0.0.1", "127.1.2.3", "169.254.169.254", "172.16.0.1",
		"172.31.255.255", "192.0.0.9", "192.0.2.1", "192.88.99.1", "192.168.1.1", "198.18.0.1", "198.19.255.255",
		"198.51.100.7", "203.0.113.9", "224.0.0.1", "239.255.255.250", "255.255.255.255",
		// IPv6
		"::", "::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1", "::ffff:169.254.169.254", "fe80::1", "fe80::1%eth0", "fc00::1",
		"fd12:3456::1", "ff02::1", "100::1", "2001::1", "2001:0:4136:e378:8000:63bf:3fff:fdd2", "2001:2::1", "2001:db8::1",
		"2002:a00:1::1", "2002:c0a8:101::", "2002:a9fe:a9fe::", "3fff::1", "5f00::1", "::a00:1", "::ffff:0:a00:1",
	}
	for _, s := range refused {
		if outbound.Global(netip.MustParseAddr(s)) {
			t.Errorf("%s is taken for a public address", s)
		}
	}
	public := []string{"8.8.8.8", "1.1.1.1", "93.184.215.14", "100.63.255.255", "100.128.0.1", "172.32.0.1", "198.20.0.1",
		"2606:4700::1111", "2a00:1450:4001:82b::200e", "64:ff9b::808:808", "::ffff:8.8.8.8", "2002:808:808::1"}
	for _, s := range public {
		if !outbound.Global(netip.MustParseAddr(s)) {
			t.Errorf("%s is taken for a non-public address", s)
		}
	}

	// The same at subscribe time, in a URL.
	sender, err := outbound.New(outbound.Config{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	for _, host := range []string{"[64:ff9b::7f00:1]", "[64:ff9b::a9fe:a9fe]", "[::127.0.0.1]", "[2002:7f00:1::]",
		"[::ffff:0:7f00:1]", "0.0.0.1", "240.0.0.1", "[::ffff:127.0.0.1]", "[fe80::1%25eth0]"} {
		if err := sender.CheckURL("https://" + host + "/hook"); err == nil {
			t.Errorf("CheckURL allows https://%s/hook", host)
		}
	}
	for _, host := range []string{"2130706433", "0x7f000001", "0x7f.1", "127.1", "0177.0.0.1", "10.0.0.01", "127.0.0.1.", "0x"} {
		if err := sender.CheckURL("http://" + host + "/hook"); err == nil {
			t.Errorf("CheckURL allows http://%s/hook, an IPv4 address in another spelling", host)
		}
	}
	for _, host := range []string{"hooks.example.com", "1.example.com", "example.co.uk.", "123abc.example"} {
		if err := sender.CheckURL("http://" + host + "/hook"); err != nil {
			t.Errorf("CheckURL refuses http://%s/hook: %v", host, err)
		}
	}
	if err := sender.CheckURL("https://[2606:4700::1111]/hook"); err != nil {
		t.Errorf("a public IPv6 address refused: %v", err)
	}
}

// An allow-list entry with a port opens that port only; a bare host opens the host; an address
// the guard refuses is told to the subscription as such, without the address.
func TestAllowListEntriesMayNameOnePort(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) }))
	defer srv.Close()
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	onePort, err := outbound.New(outbound.Config{Timeout: time.Second,
		AllowedHosts: []string{"127.0.0.1:" + port, "hooks.example.com:8443", "[fd00::1]:8080", "*.example.org"}})
	if err != nil {
		t.Fatal(err)
	}
	for u, want := range map[string]bool{
		"http://127.0.0.1:" + port + "/":    true,
		"http://127.0.0.1:5432/":            false,
		"http://127.0.0.1/":                 false,
		"https://hooks.example.com:8443/x":  true,
		"https://hooks.example.com/x":       false,
		"http://[fd00::1]:8080/":            true,
		"http://[fd00::1]:8081/":            false,
		"https://a.example.org:9999/":       true,
		"https://example.org.evil.test/":    false,
		"http://[::ffff:127.0.0.1]:" + port: true,
	} {
		if err := onePort.CheckURL(u); (err == nil) != want {
			t.Errorf("CheckURL(%s): %v, want allowed %v", u, err, want)
		}
	}
	ctx := context.Background()
	h := play.WebhookHeaders{ID: "msg_1", Timestamp: "1", Signature: "v1,x"}
	if status, err := onePort.Send(ctx, srv.URL+"/", h, nil); err != nil || status != http.StatusNoContent {
		t.Fatalf("the allowed port: %d %v", status, err)
	}
	// localhost is a name the list leaves out; with no list, it passes CheckURL and is refused
	// when dialled, with a sentence that names no address.
	open, err := outbound.New(outbound.Config{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	_, err = open.Send(ctx, "http://localhost:"+port+"/", h, nil)
	if err == nil || err.Error() != "the receiver's address is not allowed" {
		t.Fatalf("localhost: %v", err)
	}
	for _, bad := range []string{"hooks.example.com:http", "127.0.0.1:0", "[::1", "10.0.0.0/33"} {
		if _, err := outbound.New(outbound.Config{AllowedHosts: []string{bad}}); err == nil {
			t.Errorf("allow-list entry %q accepted", bad)
		}
	}
}

// What a subscription shows of a failed request says what the receiver did, never a resolver's or
// the network's details.
func TestLastErrorsNameWhatTheReceiverDid(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closedPort := ln.Addr().String()
	ln.Close()
	hanging := httptest.NewServer(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { <-r.Context().Done() })) // until the sender gives up
	defer hanging.Close()
	sender, err := outbound.New(outbound.Config{AllowedHosts: []string{"127.0.0.1", "nowhere.invalid"}, Timeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	h := play.WebhookHeaders{ID: "msg_1", Timestamp: "1", Signature: "v1,x"}
	for u, want := range map[string]string{
		"http://" + closedPort + "/":  "the receiver refused the connection",
		hanging.URL + "/":             "no answer within the timeout",
		"http://nowhere.invalid/hook": "the receiver's host name did not resolve",
	} {
		_, err := sender.Send(context.Background(), u, h, nil)
		if err == nil || err.Error() != want {
			t.Errorf("%s: %v, want %q", u, err, want)
		}
		if err != nil && (strings.Contains(err.Error(), "lookup") || strings.Contains(err.Error(), ":53")) {
			t.Errorf("%s: resolver details in %q", u, err)
		}
	}
}
