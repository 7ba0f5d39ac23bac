package primed

import (
	"slices"

	"primegames/domain"
)

// HandSize is the number of cards dealt to each player (PR-3).
const HandSize = 7

// deal begins a round: every card is collected back into the deck, which is shuffled in full; each
// seat gets HandSize cards one at a time starting with the starter, and the next card is flipped onto
// the Primed pile (PR-3). Collecting everything makes each round independent of how the last one ended.
func (t *table) deal(r domain.Rand) *Dealt {
	deck := t.Options.NewDeck()
	domain.Shuffle(r, deck)
	t.Hands = make([][]int, t.Seats)
	for seat := range t.Hands {
		t.Hands[seat] = make([]int, 0, HandSize)
	}
	i := 0
	for range HandSize {
		for k := range t.Seats {
			seat := (t.Starter + k) % t.Seats
			t.Hands[seat] = append(t.Hands[seat], deck[i])
			i++
		}
	}
	for _, h := range t.Hands {
		slices.Sort(h)
	}
	t.PrimedPile = []int{deck[i]}
	t.DrawPile = cloneInts(deck[i+1:])
	t.Turn = t.Starter
	t.Phase = PhasePlay
	t.Drawn = 0
	t.Passes = 0

	d := &Dealt{Round: t.Round, Dealer: t.Dealer, Starter: t.Starter, Top: t.top(), DrawPileSize: len(t.DrawPile),
		HandSizes: make([]int, t.Seats), Hands: make([][]int, t.Seats)}
	for seat, h := range t.Hands {
		d.HandSizes[seat] = len(h)
		d.Hands[seat] = cloneInts(h)
	}
	return d
}

// startRound sets up round 1 (dealer seat 0) or the round after the current one, whose dealer is the
// current starter (PR-3).
func (t *table) startRound(r domain.Rand) *Dealt {
	if t.Round == 0 {
		t.Dealer = 0
	} else {
		t.Dealer = t.Starter
	}
	t.Round++
	t.Starter = t.next(t.Dealer)
	return t.deal(r)
}

// endRound scores the round (PR-7), reveals the hands (PR-8) and either deals the next round or ends
// the game. wentOut is the seat that emptied its hand, or -1 for a blocked round (PR-6).
func (t *table) endRound(wentOut int, r domain.Rand, out *Outcome) {
	res := RoundResult{Round: t.Round, Dealer: t.Dealer, Starter: t.Starter, Ending: EndBlocked,
		Hands: make([][]int, t.Seats), Scores: make([]int, t.Seats)}
	if wentOut >= 0 {
		res.Ending = EndWentOut
		res.WentOut = &wentOut
	}
	for seat, h := range t.Hands {
		res.Hands[seat] = cloneInts(h)
		res.Scores[seat] = sum(h)
		t.Totals[seat] += res.Scores[seat]
	}
	res.Totals = cloneInts(t.Totals)
	t.Results = append(t.Results, res)
	out.RoundEnded = &res

	if t.Round < t.Options.Rounds {
		out.Dealt = t.startRound(r)
		return
	}
	t.Phase = PhaseFinished
	t.Turn = -1
	t.Drawn = 0
	t.Passes = 0
	t.Winners = lowest(t.Totals)
	out.GameEnded = &GameEnded{Totals: cloneInts(t.Totals), Winners: cloneInts(t.Winners)}
}

// lowest returns the seats with the lowest total, ascending: ties share the win (PR-7).
func lowest(totals []int) []int {
	low := slices.Min(totals)
	winners := []int{}
	for seat, total := range totals {
		if total == low {
			winners = append(winners, seat)
		}
	}
	return winners
}
