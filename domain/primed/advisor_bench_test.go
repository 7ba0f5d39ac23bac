package primed

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"primegames/domain"
)

// decision is one moment of a game as an advisor sees it, and the action that was played.
type decision struct {
	view   json.RawMessage
	legal  []json.RawMessage
	played json.RawMessage
}

// recordDecisions plays a game of o, expert against greedy, and returns every decision in it.
func recordDecisions(tb testing.TB, o Options, seed uint64) []decision {
	tb.Helper()
	s := start(tb, o, 2, seed)
	levels := []domain.Level{domain.LevelExpert, domain.LevelGreedy}
	var out []decision
	for step := int64(1); !s.Status().Finished; step++ {
		view, legal := seatInputs(tb, s)
		advice, err := Advisor.Choose(view, legal, levels[s.Turn()], domain.SeededRand(seed, step))
		if err != nil {
			tb.Fatal(err)
		}
		played, err := advice.ActionIn(legal)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, decision{view: view, legal: legal, played: played})
		next, _, err := s.Apply(s.Turn(), played, domain.SeededRand(seed, step))
		if err != nil {
			tb.Fatal(err)
		}
		s = next.(*State)
	}
	return out
}

// fullMultiCardHand is a position of the multi-card game in which the seat to act holds 30 cards.
func fullMultiCardHand(tb testing.TB) decision {
	tb.Helper()
	s := start(tb, opts(DeckPrimed, TargetPrimes, true, 4), 2, 3)
	s.t.Hands[s.t.Turn] = slices.Clone(thirtyCards)
	// The other cards are where the view can account for them: the other hands keep what is left of
	// theirs, and the rest of the deck is the draw pile.
	left := countCards(s.t.Options.NewDeck())
	for _, c := range append(slices.Clone(thirtyCards), s.t.PrimedPile...) {
		left[c]--
	}
	for seat, hand := range s.t.Hands {
		if seat != s.t.Turn {
			s.t.Hands[seat] = slices.DeleteFunc(hand, func(c int) bool {
				if left[c] > 0 {
					left[c]--
					return false
				}
				return true
			})
		}
	}
	s.t.DrawPile = left.cards()
	view, legal := seatInputs(tb, s)
	return decision{view: view, legal: legal}
}

// BenchmarkExpertDecision times the expert's choice at every position of recorded games of each
// deck, with and without multi_card, and at a 30-card multi-card hand, and reports the 99th
// percentile of one decision (target: 10 ms).
func BenchmarkExpertDecision(b *testing.B) {
	var positions []decision
	for _, o := range []Options{DefaultOptions(), opts(DeckStandard, TargetPrimes, false, 4),
		opts(DeckPrimed, TargetPrimes, true, 4), opts(DeckStandard, TargetComposites, true, 4)} {
		positions = append(positions, recordDecisions(b, o, 11)...)
	}
	full := fullMultiCardHand(b)
	for range 20 {
		positions = append(positions, full)
	}
	var times []time.Duration
	for b.Loop() {
		for _, d := range positions {
			began := time.Now()
			if _, err := Advisor.Choose(d.view, d.legal, domain.LevelExpert, firstRand{}); err != nil {
				b.Fatal(err)
			}
			times = append(times, time.Since(began))
		}
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)*99/100].Microseconds())/1000, "p99-ms")
	b.ReportMetric(float64(times[len(times)-1].Microseconds())/1000, "max-ms")
	b.ReportMetric(float64(len(positions)), "positions")
}
