package primeclimb

import "testing"

// The legal actions after a roll are listed on every Prime Climb move (the answer to the roll, the
// move's GET of legal actions): their allocations stay within about 20 % of what they measured
// (docs/performance.md, "Allocation budget"). One string per move's description and one slice per
// move's steps is the shape; a string or a slice per step, or a table per call, is over it.
func TestLegalActionsAfterARollAllocateWithinBudget(t *testing.T) {
	for _, c := range []struct {
		name   string
		state  State
		budget float64 // measured: 119 and 316
	}{
		{"two dice", game([2]int{12, 30}, [2]int{45, 0}).rolled(4, 7), 145},
		{"doubles and keepers", game([2]int{12, 30}, [2]int{45, 0}).holding(0, PlusMinus(3), PlusMinus(7), SendToStart, Curse).rolled(4, 4, 4, 4), 380},
	} {
		moves := 0
		allocs := testing.AllocsPerRun(20, func() { moves = len(c.state.Legal(0)) })
		t.Logf("%s: %d legal actions, %.0f allocations (budget %.0f)", c.name, moves, allocs, c.budget)
		if allocs > c.budget {
			t.Errorf("%s: listing %d legal actions allocates %.0f times, over its budget of %.0f", c.name, moves, allocs, c.budget)
		}
	}
}
