//go:build long

package api_test

import (
	"fmt"
	"testing"

	"primegames/api/apitest"
	"primegames/repo/repotest"
)

// Whole games of Primed over HTTP in every variant: deck, target and multi-card (PR-2, PR-4, PR-5).
func TestLongPlayFullPrimedGamesOfEveryVariant(t *testing.T) {
	t.Parallel()
	db := repotest.NewDB(t)
	srv := newServer(t, db)
	// Players per game, from 2 up to the deck's most (PR-1), fewer where games run long.
	seats := map[string]int{
		"primed/primes/false": 3, "primed/primes/true": 4, "primed/composites/false": 2, "primed/composites/true": 6,
		"standard/primes/false": 2, "standard/primes/true": 3, "standard/composites/false": 4, "standard/composites/true": 5,
	}
	i := 0
	for _, deck := range []string{"primed", "standard"} {
		for _, target := range []string{"primes", "composites"} {
			for _, multi := range []bool{false, true} {
				players, seed := seats[fmt.Sprintf("%s/%s/%v", deck, target, multi)], uint64(1000+i)
				i++
				name := fmt.Sprintf("deck=%s/target=%s/multi_card=%v/players=%d", deck, target, multi, players)
				t.Run(name, func(t *testing.T) {
					t.Parallel()
					// Each subtest has its own HTTP server (its client fails this subtest) on the shared
					// handler and database; the games are independent.
					s := apitest.Start(t, srv)
					opts := map[string]any{"deck": deck, "target": target, "multi_card": multi, "rounds": 4}
					playPrimed(t, newTable(t, s, db, "primed", opts, players, seed), multi)
				})
			}
		}
	}
}
