//go:build long

package players_test

import (
	"testing"

	"primegames/domain/games"
	"primegames/domain/players"
)

// Every kind in the catalogue finishes with greedy players, and no slower on average than with
// random ones: a greedy strategy that misread the legal actions would pick no better than chance.
func TestLongGreedyPlayersFinishSoonerThanRandomOnes(t *testing.T) {
	for _, kind := range games.All().Kinds() {
		t.Run(kind.Name(), func(t *testing.T) {
			if kind.Greedy == nil {
				t.Fatalf("%s has no greedy strategy", kind.Name())
			}
			greedy, random := 0, 0
			for seed := range uint64(20) {
				greedy += play(t, kind, 2, seed, players.Greedy(kind))
				random += play(t, kind, 2, seed, players.Random)
			}
			if greedy >= random {
				t.Errorf("20 games took %d actions with greedy players and %d with random ones", greedy, random)
			}
		})
	}
}
