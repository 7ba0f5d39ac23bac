package live

import (
	"sync"

	"primegames/domain"
)

// clientCaps counts the streams each client, and each address, holds open on this instance.
type clientCaps struct {
	perClient, perAddress int // perClient 0: no cap
	mu                    sync.Mutex
	open                  map[string]int
}

// acquire takes one of the client's stream slots and one of its address's, or refuses with 429
// rate_limited.
func (cc *clientCaps) acquire(client, address string) (release func(), err error) {
	if cc.perClient <= 0 {
		return func() {}, nil
	}
	cc.mu.Lock()
	defer cc.mu.Unlock()
	if cc.open[client] >= cc.perClient || cc.open[address] >= cc.perAddress {
		return nil, domain.Errorf(domain.KindRateLimited, "rate_limited",
			"This client has as many live streams open on this server as it may (%d, and %d from one address); close one first.",
			cc.perClient, cc.perAddress)
	}
	cc.open[client]++
	cc.open[address]++
	return func() {
		cc.mu.Lock()
		defer cc.mu.Unlock()
		cc.release(client)
		cc.release(address)
	}, nil
}

func (cc *clientCaps) release(key string) {
	if cc.open[key]--; cc.open[key] <= 0 {
		delete(cc.open, key)
	}
}
