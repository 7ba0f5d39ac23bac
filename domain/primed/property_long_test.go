//go:build long

package primed

import "testing"

// The property tests over a few thousand random games (100 per variant and seat count).
func TestLongPropertyRandomGames(t *testing.T) { propertyRandomGames(t, 100) }
