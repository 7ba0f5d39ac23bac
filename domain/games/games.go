// Package games is the registry of the game kinds the service hosts. Adding a kind of game means
// adding its package (which declares a domain.GameKind) and one entry in All.
package games

import (
	"primegames/domain"
	"primegames/domain/primeclimb"
	"primegames/domain/primed"
)

var all = domain.MustCatalogue(primeclimb.Kind, primed.Kind)

// All is the catalogue of every kind the service hosts.
func All() *domain.Catalogue { return all }
