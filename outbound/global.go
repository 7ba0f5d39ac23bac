package outbound

import "net/netip"

// Global reports whether a is an address of the public internet, which a webhook may be sent to
// without the operator's leave: not in any block of the IANA IPv4 and IPv6 Special-Purpose Address
// Registries that is not globally reachable, in any of its spellings. An IPv6 address that carries
// an IPv4 address is judged by the IPv4 address it reaches: IPv4-mapped (::ffff:a.b.c.d) and the
// NAT64 well-known prefix (64:ff9b::/96, RFC 6052), where a translator forwards to it; 6to4
// (2002::/16), whose relay does. The IPv4-compatible (::a.b.c.d, deprecated), IPv4-translated
// (::ffff:0:a.b.c.d) and local-use NAT64 (64:ff9b:1::/48, RFC 8215) spellings are not global at all,
// nor is any IPv6 address outside the global unicast space 2000::/3 but the NAT64 prefix.
func Global(a netip.Addr) bool {
	a = a.WithZone("")
	if a.Is4In6() {
		return Global(a.Unmap())
	}
	if a.Is4() {
		return !inAny(a, nonGlobal4)
	}
	if nat64.Contains(a) {
		b := a.As16()
		return Global(netip.AddrFrom4([4]byte(b[12:])))
	}
	if sixToFour.Contains(a) {
		b := a.As16()
		return Global(netip.AddrFrom4([4]byte(b[2:6])))
	}
	return globalUnicast6.Contains(a) && !inAny(a, nonGlobal6)
}

func inAny(a netip.Addr, blocks []netip.Prefix) bool {
	for _, p := range blocks {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

var (
	nat64          = netip.MustParsePrefix("64:ff9b::/96")
	sixToFour      = netip.MustParsePrefix("2002::/16")
	globalUnicast6 = netip.MustParsePrefix("2000::/3")
)

// nonGlobal4 are the IPv4 special-purpose blocks that are not globally reachable (IANA, as of
// 2024), with multicast and the limited broadcast address; blocks whose few global addresses no
// webhook receiver has (192.0.0.0/24's anycast ones) are left out whole.
var nonGlobal4 = prefixes(
	"0.0.0.0/8",          // "this network"
	"10.0.0.0/8",         // private
	"100.64.0.0/10",      // shared address space (carrier-grade NAT)
	"127.0.0.0/8",        // loopback
	"169.254.0.0/16",     // link-local (cloud metadata services)
	"172.16.0.0/12",      // private
	"192.0.0.0/24",       // IETF protocol assignments
	"192.0.2.0/24",       // documentation
	"192.88.99.0/24",     // 6to4 relay anycast (deprecated)
	"192.168.0.0/16",     // private
	"198.18.0.0/15",      // benchmarking
	"198.51.100.0/24",    // documentation
	"203.0.113.0/24",     // documentation
	"224.0.0.0/4",        // multicast
	"240.0.0.0/4",        // reserved
	"255.255.255.255/32", // limited broadcast
)

// nonGlobal6 are the blocks inside 2000::/3 that are not globally reachable, or that reach what
// their spelling hides (Teredo, in 2001::/23).
var nonGlobal6 = prefixes(
	"2001::/23",     // IETF protocol assignments: Teredo, benchmarking, ORCHID, …
	"2001:db8::/32", // documentation
	"3fff::/20",     // documentation
	"5f00::/16",     // segment routing SIDs
)

func prefixes(s ...string) []netip.Prefix {
	out := make([]netip.Prefix, len(s))
	for i, p := range s {
		out[i] = netip.MustParsePrefix(p)
	}
	return out
}
