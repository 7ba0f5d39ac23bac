package primeclimb

import (
	"testing"

	"primegames/domain"
)

// A match is replayable: the same seed gives the same winner (G-2).
func TestMatchIsReplayable(t *testing.T) {
	levels := []domain.Level{domain.LevelExpert, domain.LevelGreedy}
	a, err := Match(levels, nil, 77)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := Match(levels, nil, 77); a != b || a < 0 {
		t.Fatalf("seed 77 gave winners %d and %d", a, b)
	}
}
