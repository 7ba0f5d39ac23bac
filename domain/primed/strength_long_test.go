//go:build long

package primed

import (
	"testing"

	"primegames/domain"
)

// meanDifference plays deals two-player games of o between levels a and b, each deal twice with the
// seats swapped, and returns the mean of a's final total minus b's per game (PR-7). Fixed seeds make
// it the same on every run.
func meanDifference(t *testing.T, o Options, a, b domain.Level, deals int) float64 {
	t.Helper()
	diff := 0
	for g := range deals {
		first, err := PlayMatch(o, []domain.Level{a, b}, uint64(g)+1)
		if err != nil {
			t.Fatal(err)
		}
		second, err := PlayMatch(o, []domain.Level{b, a}, uint64(g)+1)
		if err != nil {
			t.Fatal(err)
		}
		diff += first[0] - first[1] + second[1] - second[0]
	}
	return float64(diff) / float64(2*deals)
}

// PR-7: the lower total is the better result, and the expert beats greedy, which beats random, on
// both decks (PR-2). The margins asserted are about half of those the games give, and the seeds are
// fixed, so the test cannot flake; tools/strength-primed measures the same over 1,000 games.
func TestLongStrength_ExpertBeatsGreedyBeatsRandomPR7(t *testing.T) {
	cases := []struct {
		deck                 string
		multi                bool
		expertDeals, deals   int     // deals of expert against greedy, and of greedy against random
		expertMargin, margin float64 // points of final total per game asserted for each step
	}{
		{DeckPrimed, false, 40, 80, 4, 5},
		{DeckStandard, false, 30, 80, 2, 5},
		{DeckPrimed, true, 40, 20, 5, 5}, // the multi-card expert weighs every play and its top
	}
	for _, c := range cases {
		o := opts(c.deck, TargetPrimes, c.multi, 4)
		expertVsGreedy := meanDifference(t, o, domain.LevelExpert, domain.LevelGreedy, c.expertDeals)
		greedyVsRandom := meanDifference(t, o, domain.LevelGreedy, domain.LevelRandom, c.deals)
		t.Logf("%s multi %v: expert − greedy %.1f, greedy − random %.1f points per game", c.deck, c.multi, expertVsGreedy, greedyVsRandom)
		if expertVsGreedy > -c.expertMargin || greedyVsRandom > -c.margin {
			t.Errorf("%s deck: expert − greedy %.1f should be below −%v and greedy − random %.1f below −%v",
				c.deck, expertVsGreedy, c.expertMargin, greedyVsRandom, c.margin)
		}
	}
}
