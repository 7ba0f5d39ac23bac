package primeclimb

import (
	"testing"

	"primegames/domain"
)

// Moves are written one pawn at a time, a child's sentence: the first step of a pawn in full, the next
// ones on from its result, a ± keeper as "your +3 card" (PC-5, PC-12).
func TestStepsTextReadsOnePawnAtATime(t *testing.T) {
	s := game([2]int{24, 37}, [2]int{5, 6})
	for _, c := range []struct {
		steps []Step
		want  string
	}{
		{[]Step{{Die: 4, Pawn: ptr(0), Op: OpMultiply}, {Die: 2, Pawn: ptr(0), Op: OpAdd}, {Card: PlusMinus(3), Pawn: ptr(0), Sign: "+"}},
			"pawn 0: 24 × 4 = 96, + 2 = 98, then your +3 card: 101"},
		{[]Step{{Die: 4, Pawn: ptr(1), Op: OpAdd}, {Die: 2, Pawn: ptr(0), Op: OpDivide}},
			"pawn 1: 37 + 4 = 41, then pawn 0: 24 ÷ 2 = 12"},
		{[]Step{{Card: PlusMinus(5), Pawn: ptr(1), Sign: "-"}, {Die: 6, Pawn: ptr(1), Op: OpSubtract}},
			"pawn 1: 37 − 5 = 32 with your −5 card, − 6 = 26"},
		{nil, "no die can be used: end the move"},
	} {
		if got := stepsText(&s, c.steps); got != c.want {
			t.Errorf("stepsText = %q, want %q", got, c.want)
		}
	}
}

// PC-14: a hint for a move that wins ends "— you win!"; one that plays a keeper after the dice says so.
func TestHintOfAWinWithAKeeperAfterTheDice(t *testing.T) {
	s := game([2]int{97, Home}, [2]int{30, 40}).holding(0, PlusMinus(7)).rolled(1, 2)
	advice, legal := advise(t, s, domain.LevelExpert)
	if want := "pawn 0: 97 − 1 = 96, − 2 = 94, then your +7 card: 101 — you win!"; advice.Explanation != want || !legal[advice.Index].Wins {
		t.Fatalf("hint %q, want %q", advice.Explanation, want)
	}
	if advice.Action == nil {
		t.Fatal("the winning move with a keeper came as a listed entry: legal-actions lists dice-only moves")
	}
}
