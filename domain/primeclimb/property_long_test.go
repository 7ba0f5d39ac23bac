//go:build long

package primeclimb

import "testing"

// The property tests over thousands of random games.
func TestLongPropertyRandomGames(t *testing.T) { propertyRandomGames(t, 2000) }
