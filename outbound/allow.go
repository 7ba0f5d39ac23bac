package outbound

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
)

// allowedName is a name of the allow list: a host, or "*.domain" for its subdomains; port 0 opens
// every port.
type allowedName struct {
	name string
	port uint16
}

func (n allowedName) matches(host string, port uint16) bool {
	if n.port != 0 && n.port != port {
		return false
	}
	return host == n.name || strings.HasPrefix(n.name, "*.") && strings.HasSuffix(host, n.name[1:])
}

// allowedNetwork is an address or a network of the allow list; port 0 opens every port.
type allowedNetwork struct {
	prefix netip.Prefix
	port   uint16
}

// allow adds one entry of the allow list (lower case, trimmed).
func (s *Sender) allow(h string) error {
	switch {
	case h == "":
		return nil
	case strings.Contains(h, "/"):
		p, err := netip.ParsePrefix(h)
		if err != nil {
			return err
		}
		s.networks = append(s.networks, allowedNetwork{prefix: netip.PrefixFrom(p.Addr().Unmap(), bitsUnmapped(p)).Masked()})
		return nil
	}
	if a, err := netip.ParseAddr(h); err == nil { // a bare address, IPv6 ones included
		s.networks = append(s.networks, allowedNetwork{prefix: netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen())})
		return nil
	}
	host, portText, err := net.SplitHostPort(h)
	if err != nil {
		host, portText = h, ""
	}
	var port uint16
	if portText != "" {
		p, err := strconv.ParseUint(portText, 10, 16)
		if err != nil || p == 0 {
			return fmt.Errorf("the port %q is not a port number", portText)
		}
		port = uint16(p)
	}
	if a, err := netip.ParseAddr(host); err == nil {
		s.networks = append(s.networks, allowedNetwork{prefix: netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()), port: port})
		return nil
	}
	if host == "" || strings.ContainsAny(host, "[]:") {
		return errors.New("not a host name, an address or a network")
	}
	s.names = append(s.names, allowedName{name: host, port: port})
	return nil
}

// bitsUnmapped is p's length once an IPv4-mapped prefix is written as IPv4.
func bitsUnmapped(p netip.Prefix) int {
	if p.Addr().Is4In6() {
		return max(p.Bits()-96, 0)
	}
	return p.Bits()
}

// listed reports whether a, on port, lies in an allowed address or network.
func (s *Sender) listed(a netip.Addr, port uint16) bool {
	a = a.Unmap().WithZone("")
	for _, n := range s.networks {
		if n.prefix.Contains(a) && (n.port == 0 || n.port == port) {
			return true
		}
	}
	return false
}

// numericName reports whether host, which is not an address in the standard spelling, ends in a
// label of digits or 0x and hexadecimal digits: no host name does (top-level domains are not
// numeric), and resolvers and browsers read such names ("2130706433", "0x7f.1", "127.1",
// "0177.0.0.1") as IPv4 addresses.
func numericName(host string) bool {
	host = strings.TrimSuffix(host, ".")
	last := host[strings.LastIndex(host, ".")+1:]
	if hex, ok := strings.CutPrefix(last, "0x"); ok {
		return strings.Trim(hex, "0123456789abcdef") == ""
	}
	return last != "" && strings.Trim(last, "0123456789") == ""
}

// urlPort is the port a URL reaches: its own, or its scheme's.
func urlPort(u *url.URL) (uint16, error) {
	if p := u.Port(); p != "" {
		n, err := strconv.ParseUint(p, 10, 16)
		if err != nil {
			return 0, fmt.Errorf("the port %q is not a port number", p)
		}
		return uint16(n), nil
	}
	if u.Scheme == "https" {
		return 443, nil
	}
	return 80, nil
}

// isTLS reports whether err comes from the TLS handshake.
func isTLS(err error) bool {
	var record tls.RecordHeaderError
	var verify *tls.CertificateVerificationError
	var unknown x509.UnknownAuthorityError
	var hostname x509.HostnameError
	var alert tls.AlertError
	return errors.As(err, &record) || errors.As(err, &verify) || errors.As(err, &unknown) || errors.As(err, &hostname) || errors.As(err, &alert)
}
