package primed

import (
	"encoding/json"
	"fmt"

	"primegames/domain"
)

// Kinds of missed opportunity a Primed review names (domain.Missed.Kind), each found by exact search
// over the seat's legal entries. One counts only when the play that takes it is one the expert values
// above the action played (a lower expected total at the end of the round), as in Prime Climb: the
// expert's own choice misses nothing, and a play that sheds more now but the expert expects to cost
// more later (a top card the next player answers easily, a card kept to go out with) is no miss.
const (
	// MissedGoOut: a legal play would have emptied the hand, ending the round with 0 for the seat
	// (PR-7), and the action played did not. It takes the place of lower_total for that play.
	MissedGoOut = "go_out"
	// MissedLowerTotal: a legal play valued above the action played would have left a lower hand
	// total now (a pass keeps the drawn card, so any play is lower). Of those, the one leaving the
	// lowest total is named.
	MissedLowerTotal = "lower_total"
	// MissedLongerPlay: with multi_card, a legal play of at least two cards, valued above the action
	// played, used more cards than it (PR-5). The longest is named.
	MissedLongerPlay = "longer_play"
)

func review(view json.RawMessage, legal []json.RawMessage, played json.RawMessage) (domain.Judgement, error) {
	entries, err := decodeLegal(legal)
	if err != nil {
		return domain.Judgement{}, err
	}
	p, err := readPosition(view)
	if err != nil {
		return domain.Judgement{}, err
	}
	a, err := parseAction(played)
	if err != nil {
		return domain.Judgement{}, fmt.Errorf("primed review: %w", err)
	}
	if a.Type == ActionPlay && !holds(p.hand, a.Cards) {
		return domain.Judgement{}, fmt.Errorf("primed review: the play %v is not in the hand %v", a.Cards, p.hand)
	}
	actions := p.candidates(entries)
	n := len(actions)
	values := p.valuesOf(append(actions, a), len(entries), n)
	i, bestValue := lowestOf(values[:n])
	return domain.Judgement{
		Best:   p.advice(actions, len(entries), i),
		Loss:   max(0, values[n]-bestValue),
		Missed: p.missed(entries, a, values[:len(entries)], values[n]),
	}, nil
}

// valueEpsilon is the rounding below which two expected totals are equal.
const valueEpsilon = 1e-9

// missed lists the opportunities the action a left among entries. values are the expert's expected
// totals of the entries and playedValue that of a: only entries valued below a count.
func (p *position) missed(entries []LegalAction, a Action, values []float64, playedValue float64) []domain.Missed {
	missed := []domain.Missed{}
	left := sum(p.hand)
	if a.Type == ActionPlay {
		left -= sum(a.Cards)
	}
	lowest, longest := -1, -1
	for i, e := range entries {
		if e.Action.Type != ActionPlay || values[i] >= playedValue-valueEpsilon {
			continue
		}
		if lowest < 0 || sum(e.Action.Cards) > sum(entries[lowest].Action.Cards) {
			lowest = i
		}
		if longest < 0 || len(e.Action.Cards) > len(entries[longest].Action.Cards) {
			longest = i
		}
	}
	if lowest >= 0 {
		better := entries[lowest].Action
		switch after := sum(p.hand) - sum(better.Cards); {
		case len(better.Cards) == len(p.hand) && left > 0:
			missed = append(missed, domain.Missed{Kind: MissedGoOut, Action: better.JSON(),
				Detail: fmt.Sprintf("playing %s on %d (%s) would have emptied your hand and ended the round", cardList(better.Cards), p.top, equation(p.top, better.Cards))})
		case after < left:
			missed = append(missed, domain.Missed{Kind: MissedLowerTotal, Action: better.JSON(),
				Detail: fmt.Sprintf("playing %s on %d (%s) would have left %d in your hand instead of %d", cardList(better.Cards), p.top, equation(p.top, better.Cards), after, left)})
		}
	}
	if played := cardsShed(a); p.opts.MultiCard && longest >= 0 {
		longer := entries[longest].Action
		if n := len(longer.Cards); n >= 2 && n > played {
			missed = append(missed, domain.Missed{Kind: MissedLongerPlay, Action: longer.JSON(),
				Detail: fmt.Sprintf("playing %d cards, %s on %d (%s), would have shed more cards than your %d", n, cardList(longer.Cards), p.top, equation(p.top, longer.Cards), played)})
		}
	}
	return missed
}

// cardsShed is how many cards a puts on the pile: none for a draw or a pass.
func cardsShed(a Action) int {
	if a.Type != ActionPlay {
		return 0
	}
	return len(a.Cards)
}

// holds reports whether hand has every card of cards, counting copies.
func holds(hand, cards []int) bool {
	have := countCards(hand)
	for _, c := range cards {
		if c < 1 || c >= len(have) || have[c] == 0 {
			return false
		}
		have[c]--
	}
	return true
}
