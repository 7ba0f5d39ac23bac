package primeclimb

import (
	"encoding/json"
	"fmt"

	"primegames/domain"
)

// Review thresholds, in the evaluation's unit: turns (see evaluate.go). A loss up to a tenth of a turn
// is good, up to a third an inaccuracy, up to one whole turn a mistake; more is a blunder, and so is
// every missed win, which costs winValue.
var reviewThresholds = [3]float64{0.1, 0.35, 1.0}

// lossEpsilon is the rounding below which two evaluations are equal.
const lossEpsilon = 1e-9

// Advisor is Prime Climb's judgement for computer players, hints and move review. It decides from one
// seat's view and legal entries alone: the deck order stays unknown, and a draw counts as the mean of
// the cards the seat cannot see.
var Advisor = domain.Advisor{Choose: choose, Review: review, Thresholds: reviewThresholds}

func choose(view json.RawMessage, legal []json.RawMessage, level domain.Level, r domain.Rand) (domain.Advice, error) {
	p, err := readPosition(view, legal)
	if err != nil {
		return domain.Advice{}, err
	}
	pick := 0
	switch level {
	case domain.LevelRandom:
		pick = r.IntN(len(p.entries))
	case domain.LevelGreedy:
		pick = greedyPick(&p.s, p.entries[:p.listed], func(scores []int) int { return best(scores, r) })
	case domain.LevelExpert:
		p.addKeeperMoves()
		if len(p.entries) > 1 {
			pick, _, _ = expertPick(&p.s, p.entries, p.listed)
		}
	default:
		return domain.Advice{}, fmt.Errorf("prime climb advice: unknown level %q", level)
	}
	return p.advice(pick), nil
}

// advice explains entry i of p; a move with keepers, which legal does not list, comes as its action.
func (p position) advice(i int) domain.Advice {
	la := p.entry(i)
	out := domain.Advice{Index: i, Explanation: la.Description}
	if i >= p.listed {
		out.Index = -1
		out.Action, _ = json.Marshal(la.Action)
	}
	if res, err := simulate(&p.s, la.Action); err == nil {
		out.Explanation = explain(&p.s, la, res)
	}
	return out
}

// entry is entry i with its steps written.
func (p position) entry(i int) LegalAction {
	la := p.entries[i]
	la.spell()
	return la
}

func review(view json.RawMessage, legal []json.RawMessage, played json.RawMessage) (domain.Judgement, error) {
	p, err := readPosition(view, legal)
	if err != nil {
		return domain.Judgement{}, err
	}
	a, err := DecodeAction(played)
	if err != nil {
		return domain.Judgement{}, err
	}
	p.addKeeperMoves()
	pick, values, exact := expertPick(&p.s, p.entries, p.listed)
	playedValue, res, err := newExpert(&p.s).value(&p.s, a, 0)
	if err != nil {
		return domain.Judgement{}, fmt.Errorf("prime climb review: the action played is not legal here: %w", err)
	}
	if i := p.find(a); i >= 0 && exact[i] {
		playedValue = values[i]
	}
	loss := values[pick] - playedValue
	if loss < lossEpsilon {
		loss = 0
	}
	return domain.Judgement{Best: p.advice(pick), Loss: loss, Missed: missed(p, values, exact, a, res, playedValue)}, nil
}

// find is the index of the entry whose action is a, or -1.
func (p position) find(a Action) int {
	want, _ := json.Marshal(a)
	for i, la := range p.entries[:p.listed] {
		if got, _ := json.Marshal(la.Action); string(got) == string(want) {
			return i
		}
	}
	return -1
}
