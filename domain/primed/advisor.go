package primed

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"primegames/domain"
	"primegames/domain/numbers"
)

// Thresholds of a review's loss, in points of expected hand total at the end of the round: up to 1
// point is good, up to 3 an inaccuracy, up to 7 a mistake, more a blunder. One point is a card of
// 1 kept instead of shed; 7 is about keeping a middle card of the Primed deck for nothing.
var Thresholds = [3]float64{1, 3, 7}

// Advisor is Primed's judgement of play (domain.Advisor): the expert values each action it weighs by
// the hand total it expects the seat to end the round with (rollouts) and takes the lowest.
var Advisor = domain.Advisor{Choose: choose, Review: review, Thresholds: Thresholds}

// decodeLegal reads the seat's legal entries, as LegalActions lists them.
func decodeLegal(legal []json.RawMessage) ([]LegalAction, error) {
	if len(legal) == 0 {
		return nil, fmt.Errorf("primed: no legal action to choose from")
	}
	entries := make([]LegalAction, len(legal))
	for i, raw := range legal {
		if err := json.Unmarshal(raw, &entries[i]); err != nil {
			return nil, fmt.Errorf("primed legal action %d: %w", i, err)
		}
		if a := entries[i].Action; a.Type == ActionPlay && len(a.Cards) == 0 {
			return nil, fmt.Errorf("primed legal action %d: a play without cards", i)
		}
	}
	return entries, nil
}

func choose(view json.RawMessage, legal []json.RawMessage, level domain.Level, r domain.Rand) (domain.Advice, error) {
	entries, err := decodeLegal(legal)
	if err != nil {
		return domain.Advice{}, err
	}
	p, err := readPosition(view)
	if err != nil {
		return domain.Advice{}, err
	}
	var i int
	switch level {
	case domain.LevelRandom:
		i = r.IntN(len(entries))
	case domain.LevelGreedy:
		i = LowestHand(entries, r)
	case domain.LevelExpert:
		actions := p.candidates(entries)
		i, _ = lowestOf(p.valuesOf(actions, len(entries), -1))
		return p.advice(actions, len(entries), i), nil
	default:
		return domain.Advice{}, fmt.Errorf("primed: unknown level %q", level)
	}
	return domain.Advice{Index: i, Explanation: p.explain(entries[i].Action)}, nil
}

// advice is candidate i of actions, of which the first listed are the legal entries; a play legal
// does not list comes as its action.
func (p *position) advice(actions []Action, listed, i int) domain.Advice {
	out := domain.Advice{Index: i, Explanation: p.explain(actions[i])}
	if i >= listed {
		out.Index, out.Action = -1, actions[i].JSON()
	}
	return out
}

// maxExpertHand bounds the hands whose every play the expert tries (2^12 subsets at most); a larger
// hand is judged on its legal entries.
const maxExpertHand = 12

// candidates are the actions the expert weighs: the legal entries, then, in multi-card games, every
// other play of the hand (legal-actions lists plays of up to MaxListedCards cards and the longest)
// and every play with another of its cards last, since the last card becomes the top (PR-5).
func (p *position) candidates(entries []LegalAction) []Action {
	actions := make([]Action, len(entries))
	seen := map[string]bool{}
	for i, e := range entries {
		actions[i] = e.Action
		seen[string(e.Action.JSON())] = true
	}
	if !p.opts.MultiCard || len(p.hand) > maxExpertHand {
		return actions
	}
	must := 0
	if p.phase == PhaseDrawn {
		must = p.drawn // PR-5: after a draw, a play includes the card drawn (the hand holds it)
	}
	for _, play := range Plays(p.hand, p.top, p.opts.Target, must, len(p.hand)) {
		for at, c := range play {
			if at > 0 && play[at-1] == c {
				continue
			}
			order := append(slices.Delete(slices.Clone(play), at, at+1), c)
			a := Action{Type: ActionPlay, Cards: order}
			if key := string(a.JSON()); !seen[key] {
				seen[key] = true
				actions = append(actions, a)
			}
		}
	}
	return actions
}

// lowestOf is the index of the lowest of values, the first of equals, and that value.
func lowestOf(values []float64) (int, float64) {
	pick := 0
	for i, v := range values {
		if v < values[pick] {
			pick = i
		}
	}
	return pick, values[pick]
}

// explain says in one sentence what an action does: "play 7 on 6: 13 is prime and your hand drops
// to 31".
func (p *position) explain(a Action) string {
	noun := targetNoun(p.opts.Target)
	switch a.Type {
	case ActionDraw:
		return fmt.Sprintf("draw a card: nothing in your hand makes a %s with %d", noun, p.top)
	case ActionPass:
		return fmt.Sprintf("pass and keep the %d you drew: your hand stays at %d", p.drawn, sum(p.hand))
	}
	total := p.top + sum(a.Cards)
	left := withoutCards(p.hand, a.Cards)
	what := fmt.Sprintf("play %s on %d: %d is %s", cardList(a.Cards), p.top, total, noun)
	if noun == "composite" {
		what = fmt.Sprintf("play %s on %d: %s is composite", cardList(a.Cards), p.top, numbers.FactorString(total))
	}
	if len(left) == 0 {
		return what + " and your hand is empty, which ends the round"
	}
	what += " and your hand drops to " + strconv.Itoa(sum(left))
	if newTop := a.Cards[len(a.Cards)-1]; p.stuck[newTop] >= 0.5 {
		what += fmt.Sprintf(", and the next player will likely not answer %d", newTop)
	}
	return what
}

// cardList writes cards for a sentence: "7", "3 and 5", "3, 5 and 14".
func cardList(cards []int) string {
	words := make([]string, len(cards))
	for i, c := range cards {
		words[i] = strconv.Itoa(c)
	}
	if len(words) == 1 {
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}
