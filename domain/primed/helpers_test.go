package primed

import (
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"primegames/domain"
)

// opts builds options from the defaults.
func opts(deck, target string, multi bool, rounds int) Options {
	return Options{Deck: deck, Target: target, MultiCard: multi, Rounds: rounds}
}

// allVariants is every combination of deck, target and multi-card mode.
func allVariants(rounds int) []Options {
	var out []Options
	for _, deck := range []string{DeckPrimed, DeckStandard} {
		for _, target := range []string{TargetPrimes, TargetComposites} {
			for _, multi := range []bool{false, true} {
				out = append(out, opts(deck, target, multi, rounds))
			}
		}
	}
	return out
}

func variantName(o Options) string {
	name := o.Deck + "_" + o.Target
	if o.MultiCard {
		name += "_multi"
	}
	return name
}

// fill says where the deck cards a crafted table does not place go.
type fill int

const (
	fillDraw   fill = iota // under the given draw pile
	fillPrimed             // under the given Primed pile
	fillNone               // nowhere: the table is not a whole deck (for states a full deck cannot reach)
)

// crafted builds a round-1 table (dealer 0) with the given hands and piles, seat turn to act.
func crafted(t *testing.T, o Options, turn int, hands [][]int, primed, draw []int, where fill) *State {
	t.Helper()
	seats := len(hands)
	tb := table{Options: o, Seats: seats, Round: 1, Dealer: 0, Starter: 1 % seats, Turn: turn, Phase: PhasePlay,
		Hands: make([][]int, seats), DrawPile: cloneInts(draw), PrimedPile: cloneInts(primed),
		Results: []RoundResult{}, Totals: make([]int, seats), Winners: []int{}}
	used := countCards(primed)
	for _, c := range draw {
		used[c]++
	}
	for seat, h := range hands {
		tb.Hands[seat] = cloneInts(h)
		slices.Sort(tb.Hands[seat])
		for _, c := range h {
			used[c]++
		}
	}
	var rest []int
	for _, c := range o.NewDeck() {
		if used[c] > 0 {
			used[c]--
			continue
		}
		rest = append(rest, c)
	}
	for c, n := range used {
		if n > 0 {
			t.Fatalf("crafted table uses more cards of %d than the deck has", c)
		}
	}
	switch where {
	case fillDraw:
		tb.DrawPile = append(tb.DrawPile, rest...)
	case fillPrimed:
		tb.PrimedPile = append(rest, tb.PrimedPile...)
	}
	if where != fillNone {
		if err := tb.validate(); err != nil {
			t.Fatalf("crafted table is invalid: %v", err)
		}
	}
	return &State{t: tb}
}

// zeroRand fails the test if the engine asks for chance it should not need.
type noRand struct{ t *testing.T }

func (r noRand) IntN(int) int {
	r.t.Helper()
	r.t.Fatal("the engine drew a random value where the rules need none")
	return 0
}

// firstRand always returns 0: a deterministic source for crafted tests that need a shuffle.
type firstRand struct{}

func (firstRand) IntN(int) int { return 0 }

func apply(t *testing.T, s *State, seat int, action json.RawMessage, r domain.Rand) (*State, *Outcome) {
	t.Helper()
	next, out, err := s.Apply(seat, action, r)
	if err != nil {
		t.Fatalf("seat %d %s: %v", seat, action, err)
	}
	return next.(*State), out.(*Outcome)
}

// refused applies an action that must fail with code and returns the error.
func refused(t *testing.T, s *State, seat int, action json.RawMessage, code string) *domain.Error {
	t.Helper()
	_, _, err := s.Apply(seat, action, firstRand{})
	var de *domain.Error
	if !errors.As(err, &de) {
		t.Fatalf("seat %d %s: want error %s, got %v", seat, action, code, err)
	}
	if de.Code != code {
		t.Fatalf("seat %d %s: want error %s, got %s: %s", seat, action, code, de.Code, de.Message)
	}
	return de
}

func start(t testing.TB, o Options, seats int, seed uint64) *State {
	t.Helper()
	s, _, err := Start(o.Canonical(), seats, domain.SeededRand(seed, 0))
	if err != nil {
		t.Fatal(err)
	}
	return s
}
