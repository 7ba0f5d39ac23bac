// Package games is the catalogue of game kinds the service hosts. Adding a kind of game means adding
// its package and one entry here.
package games

import (
	"primegames/domain"
	"primegames/domain/primeclimb"
	"primegames/domain/primed"
)

var all = []domain.Rules{primeclimb.Rules, primed.Rules}

// Lookup returns the rules of the kind named name ("prime-climb", "primed").
func Lookup(name string) (domain.Rules, bool) {
	for _, r := range all {
		if r.Name() == name {
			return r, true
		}
	}
	return nil, false
}

// Names lists every kind, in a fixed order.
func Names() []string {
	names := make([]string, len(all))
	for i, r := range all {
		names[i] = r.Name()
	}
	return names
}
