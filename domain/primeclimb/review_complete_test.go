package primeclimb

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"primegames/domain"
)

// The review against a brute-force search written here, apart from the engine's generator: every
// order of every die use and every ± keeper on every pawn (PC-4, PC-5, PC-12), with its own arithmetic.

// bruteMove is one complete move the brute force found and what it does.
type bruteMove struct {
	steps []Step
	win   bool
	bumps bool // an opponent's pawn goes to Start (PC-9)
	draws bool // a pawn ends on a new red prime and a card can be drawn (PC-10, PC-11)
}

// bruteStep is a step with the test's own arithmetic (stepTo) and bounds (PC-5).
func bruteStep(from int, op string, n int) (int, bool) {
	if op == OpDivide && from%n != 0 {
		return 0, false
	}
	to := stepTo(from, op, n)
	return to, to >= 0 && to <= 101
}

// bruteMoves lists the complete moves of seat to act at s (in the move phase), one per distinct path
// state, without any code of the generator.
func bruteMoves(s State) []bruteMove {
	seat := s.Turn.Seat
	ops := []string{OpAdd, OpSubtract, OpMultiply, OpDivide}
	if s.Turn.Cursed {
		ops = []string{OpSubtract, OpDivide}
	}
	var keepers []int
	for _, h := range s.Players[seat].Keepers {
		if n, ok := plusMinusValue(h.Card); ok && !h.New {
			keepers = append(keepers, n)
		}
	}
	canDraw := s.Options.PrimeCards && len(s.Deck)+len(s.Discard) > 0
	var out []bruteMove
	seen := map[string]bool{}
	var walk func(pawns [2]int, uses []int, kept []int, moved [2]bool, last int, steps []Step)
	walk = func(pawns [2]int, uses []int, kept []int, moved [2]bool, last int, steps []Step) {
		key := fmt.Sprint(pawns, uses, kept, moved, last)
		if seen[key] {
			return
		}
		seen[key] = true
		if pawns[0] == 101 && pawns[1] == 101 {
			out = append(out, bruteMove{steps: slices.Clone(steps), win: true})
			return
		}
		usable := false
		for i, n := range uses {
			for pawn := range 2 {
				for _, op := range ops {
					to, ok := bruteStep(pawns[pawn], op, n)
					if !ok || pawns[pawn] == 101 {
						continue
					}
					usable = true
					next, nextMoved := pawns, moved
					next[pawn], nextMoved[pawn] = to, true
					rest := append(slices.Clone(uses[:i]), uses[i+1:]...)
					walk(next, rest, kept, nextMoved, pawn, append(steps, Step{Die: n, Pawn: ptr(pawn), Op: op}))
				}
			}
		}
		if !usable {
			out = append(out, bruteEnd(s, pawns, moved, last, steps, canDraw))
		}
		for i, n := range kept {
			for pawn := range 2 {
				for _, sign := range []string{"+", "-"} {
					op := OpAdd
					if sign == "-" {
						op = OpSubtract
					}
					to, ok := bruteStep(pawns[pawn], op, n)
					if !ok || pawns[pawn] == 101 {
						continue
					}
					next, nextMoved := pawns, moved
					next[pawn], nextMoved[pawn] = to, true
					rest := append(slices.Clone(kept[:i]), kept[i+1:]...)
					walk(next, uses, rest, nextMoved, pawn, append(steps, Step{Card: PlusMinus(n), Pawn: ptr(pawn), Sign: sign}))
				}
			}
		}
	}
	walk(s.Players[seat].Pawns, slices.Clone(s.Turn.Uses), keepers, s.Turn.Moved, s.Turn.LastMoved, nil)
	return out
}

// bruteEnd is the bump and draw of a move that ends with the mover's pawns on pawns.
func bruteEnd(s State, pawns [2]int, moved [2]bool, last int, steps []Step, canDraw bool) bruteMove {
	m := bruteMove{steps: slices.Clone(steps)}
	if pawns[0] == pawns[1] && pawns[0] != 0 && pawns[0] != 101 && last >= 0 {
		pawns[1-last] = 0
	}
	for pawn, at := range pawns {
		if moved[pawn] && at != 0 && at != 101 {
			for seat, p := range s.Players {
				if seat != s.Turn.Seat && (p.Pawns[0] == at || p.Pawns[1] == at) {
					m.bumps = true
				}
			}
		}
		if canDraw && redPrime(at) && at != s.Turn.StartPawns[pawn] {
			m.draws = true
		}
	}
	return m
}

// playedDoes is what action a, legal at s, does: wins, bumps, draws, by the engine itself.
func playedDoes(t *testing.T, s State, a json.RawMessage) (win, bumps, draws bool) {
	t.Helper()
	tape := make([]int, 64)
	next, out, err := s.Apply(s.Turn.Seat, a, domain.NewTape(tape))
	if err != nil {
		t.Fatalf("%s refused: %v", a, err)
	}
	o := out.(*Outcome)
	for _, b := range o.Bumps {
		if b.Seat != s.Turn.Seat {
			bumps = true
		}
	}
	w := next.(State).Winner
	return w != nil && *w == s.Turn.Seat, bumps, o.Draw != nil && o.Draw.Card != nil
}

func movesJSON(m bruteMove) json.RawMessage {
	raw, _ := json.Marshal(Action{Type: ActMove, Steps: m.steps})
	return raw
}

// checkReviewComplete judges played at s and holds the review to the brute force: a missed win is
// named and a blunder exactly when one exists; a bump or card named exists and its action does it;
// and one a brute-force move takes that the expert rates above the move played is named.
func checkReviewComplete(t *testing.T, s State, played json.RawMessage) {
	t.Helper()
	moves := bruteMoves(s)
	canWin := slices.ContainsFunc(moves, func(m bruteMove) bool { return m.win })
	win, bumps, draws := playedDoes(t, s, played)
	j := judge(t, s, string(played))
	named := func(kind string) *domain.Missed { return missedOf(j, kind) }
	if canWin && !win {
		m := named(MissedWin)
		if m == nil || Advisor.Label(j.Loss) != "blunder" {
			t.Fatalf("%s at pawns %v, dice %v: a win is legal, review %q %+v", played, s.mover().Pawns, s.Turn.Uses, Advisor.Label(j.Loss), j.Missed)
		}
		if w, _, _ := playedDoes(t, s, m.Action); !w {
			t.Fatalf("the missed win %s does not win", m.Action)
		}
	}
	if (!canWin || win) && named(MissedWin) != nil {
		t.Fatalf("%s: a missed win named where none is legal: %+v", played, j.Missed)
	}
	if win {
		return
	}
	for _, c := range []struct {
		kind string
		done bool
		does func(bruteMove) bool
		with func(b, d bool) bool
	}{
		{MissedBump, bumps, func(m bruteMove) bool { return m.bumps }, func(b, _ bool) bool { return b }},
		{MissedPrimeCard, draws, func(m bruteMove) bool { return m.draws }, func(_, d bool) bool { return d }},
	} {
		m := named(c.kind)
		if m != nil {
			if c.done || !slices.ContainsFunc(moves, c.does) {
				t.Fatalf("%s: %s named, but the brute force finds none or the move played took it", played, c.kind)
			}
			if _, b, d := playedDoes(t, s, m.Action); !c.with(b, d) {
				t.Fatalf("the missed %s %s does not take it", c.kind, m.Action)
			}
			continue
		}
		if c.done {
			continue
		}
		for i, bm := range moves {
			if !c.does(bm) || i%max(1, len(moves)/6) != 0 {
				continue
			}
			if other := judge(t, s, string(movesJSON(bm))); other.Loss < j.Loss-lossEpsilon-1e-6 {
				t.Fatalf("%s (loss %.3f): %s takes a %s and loses only %.3f, but the review names none: %+v",
					played, j.Loss, movesJSON(bm), c.kind, other.Loss, j.Missed)
			}
		}
	}
}

// firstDiceMove is the first move legal-actions lists: dice only.
func firstDiceMove(s State) json.RawMessage {
	raw, _ := json.Marshal(s.MoveOptions()[0].Action)
	return raw
}

// The five positions of issue 25, from black-box games: each win needs a keeper after or between the
// dice (PC-4, PC-5, PC-12), and the review of a dice-only move must name it and call it a blunder.

func TestReviewFindsTheWin24Times4Plus2ThenKeeper3(t *testing.T) {
	s := game([2]int{Home, 24}, [2]int{30, 40}).holding(0, PlusMinus(7), PlusMinus(3)).rolled(4, 2)
	checkReviewComplete(t, s, firstDiceMove(s))
	advice, legal := advise(t, game([2]int{Home, 24}, [2]int{30, 40}).holding(0, PlusMinus(3)).rolled(4, 2), domain.LevelExpert)
	if want := "pawn 1: 24 × 4 = 96, + 2 = 98, then your +3 card: 101 — you win!"; !legal[advice.Index].Wins || advice.Explanation != want {
		t.Fatalf("hint %q, want %q", advice.Explanation, want)
	}
}

func TestReviewFindsTheWin11Times9ThenThreeKeepers(t *testing.T) {
	s := game([2]int{Home, 11}, [2]int{30, 40}).holding(0, PlusMinus(7), PlusMinus(3), PlusMinus(6)).rolled(9, 10)
	checkReviewComplete(t, s, firstDiceMove(s))
}

func TestReviewFindsTheWin97Minus1Minus2ThenKeeper7(t *testing.T) {
	s := game([2]int{97, Home}, [2]int{30, 40}).holding(0, PlusMinus(7)).rolled(1, 2)
	checkReviewComplete(t, s, firstDiceMove(s))
}

func TestReviewFindsTheWin97Minus10Plus7ThenKeeper7(t *testing.T) {
	s := game([2]int{97, Home}, [2]int{30, 40}).holding(0, PlusMinus(7)).rolled(10, 7)
	checkReviewComplete(t, s, firstDiceMove(s))
}

func TestReviewFindsTheWin17Minus1Times6ThenKeeper5(t *testing.T) {
	s := game([2]int{17, Home}, [2]int{30, 40}).holding(0, PlusMinus(5)).rolled(1, 6)
	checkReviewComplete(t, s, firstDiceMove(s))
}

// Over random positions (pawns, keepers, dice, doubles, Curses) and constructed ones, each judged for a
// few of its legal moves, the review is complete against the brute force.
func TestReviewIsCompleteAgainstBruteForce(t *testing.T) {
	t.Parallel()
	reviewAgainstBruteForce(t, 25, 40)
}

// reviewAgainstBruteForce checks n random positions from seed and the constructed ones.
func reviewAgainstBruteForce(t *testing.T, seed uint64, n int) {
	r := rand.New(rand.NewPCG(seed, 25))
	square := func() int {
		switch r.IntN(6) {
		case 0:
			return Home
		case 1:
			return 85 + r.IntN(16)
		}
		return r.IntN(101)
	}
	positions := []State{
		game([2]int{37, 60}, [2]int{41, 0}).holding(0, PlusMinus(4)).rolled(3, 1),
		game([2]int{12, 30}, [2]int{45, 0}).holding(0, PlusMinus(3), PlusMinus(7)).rolled(4, 4, 4, 4),
		game([2]int{95, Home}, [2]int{99, 50}).holding(0, PlusMinus(2)).rolled(3, 3, 3, 3),
	}
	for len(positions) < n+3 {
		a, b := square(), square()
		if a == Home && b == Home {
			continue
		}
		// the opponent's pawns stand where a real game could have them: not on a square of the
		// mover's on the board, since landing there bumps (PC-9)
		c, d := square()%Home, square()%Home
		if (c != Start && (c == a || c == b)) || (d != Start && (d == a || d == b)) {
			continue
		}
		s := game([2]int{a, b}, [2]int{c, d})
		for _, n := range r.Perm(9)[:r.IntN(4)] {
			s = s.holding(0, PlusMinus(n+1))
		}
		d1, d2 := 1+r.IntN(10), 1+r.IntN(10)
		if r.IntN(4) == 0 {
			d2 = d1
		}
		uses := []int{d1, d2}
		if d1 == d2 {
			uses = []int{d1, d1, d1, d1}
		}
		s = s.rolled(uses...)
		if r.IntN(8) == 0 {
			s = s.cursed()
		}
		positions = append(positions, s)
	}
	for i, s := range positions {
		legal := s.MoveOptions()
		for k := 0; k < len(legal); k += max(1, len(legal)/3) {
			raw, _ := json.Marshal(legal[k].Action)
			t.Run(fmt.Sprintf("position %d entry %d", i, k), func(t *testing.T) { checkReviewComplete(t, s, raw) })
		}
	}
}

// PC-12, PC-14: before the roll, a keeper that wins at once is a missed winning card when the seat rolls.
func TestReviewNamesAWinningCardBeforeTheRoll(t *testing.T) {
	s := game([2]int{Home, 96}, [2]int{10, 20}).holding(0, PlusMinus(5))
	j := judge(t, s, `{"type":"roll"}`)
	if m := missedOf(j, MissedWinningCard); m == nil || !strings.Contains(m.Detail, "won") || Advisor.Label(j.Loss) != "blunder" {
		t.Fatalf("rolling past ±5 on 96: %+v", j.Missed)
	}
}
