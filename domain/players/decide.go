package players

import (
	"encoding/json"
	"fmt"

	"primegames/domain"
)

// Decide is a computer player's choice at level: the action to post, ready as JSON. It is given what
// the seat's own client is given and nothing more, view (the state's View(Player(seat)) as JSON)
// and legal (the seat's LegalActions entries as JSON), so a computer player cannot peek at hidden
// cards or the order of a deck. r is its only chance, so the choice is replayable.
//
// random picks uniformly; greedy and expert ask the kind's Advisor at that level, and a kind
// without one plays its Greedy strategy (or random, without that either). An advisor may choose an
// action legal does not list (domain.Advice.Action).
func Decide(kind domain.GameKind, level domain.Level, view json.RawMessage, legal []json.RawMessage, r domain.Rand) (json.RawMessage, error) {
	if len(legal) == 0 {
		return nil, errNoChoice
	}
	var advice domain.Advice
	var err error
	switch level {
	case domain.LevelRandom:
		advice.Index, err = Random(legal, r)
	case domain.LevelGreedy, domain.LevelExpert:
		if kind.Advisor == nil {
			advice.Index, err = Greedy(kind)(legal, r)
		} else {
			advice, err = kind.Advisor.Choose(view, legal, level, r)
		}
	default:
		return nil, fmt.Errorf("players: there is no level %q", level)
	}
	if err != nil {
		return nil, err
	}
	action, err := advice.ActionIn(legal)
	if err != nil {
		return nil, fmt.Errorf("players: %w", err)
	}
	return action, nil
}
