//go:build long

package primeclimb

import (
	"testing"

	"primegames/domain"
)

// winsOf plays games of player against opponent, seats alternating and the roll-off choosing who
// starts (PC-2), from fixed seeds: the count is the same on every run.
func winsOf(t *testing.T, player, opponent domain.Level, games int, firstSeed uint64) int {
	t.Helper()
	wins := 0
	for i := range games {
		levels, seat := []domain.Level{player, opponent}, 0
		if i%2 == 1 {
			levels, seat = []domain.Level{opponent, player}, 1
		}
		winner, err := Match(levels, nil, firstSeed+uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		if winner == seat {
			wins++
		}
	}
	return wins
}

// The levels are ordered: expert beats greedy, greedy beats random, each by a margin far wider than
// chance over these games (tools/strength measures the rates over thousands; see README).
func TestLongLevelsAreOrderedByStrength(t *testing.T) {
	wins := winsOf(t, domain.LevelExpert, domain.LevelGreedy, 60, 1000)
	t.Logf("expert won %d of 60 against greedy", wins)
	if wins < 42 {
		t.Errorf("expert won %d of 60 against greedy, want at least 42", wins)
	}
	wins = winsOf(t, domain.LevelGreedy, domain.LevelRandom, 30, 2000)
	t.Logf("greedy won %d of 30 against random", wins)
	if wins < 27 {
		t.Errorf("greedy won %d of 30 against random, want at least 27", wins)
	}
	wins = winsOf(t, domain.LevelExpert, domain.LevelRandom, 20, 3000)
	t.Logf("expert won %d of 20 against random", wins)
	if wins < 19 {
		t.Errorf("expert won %d of 20 against random, want at least 19", wins)
	}
}
