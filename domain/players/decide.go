package players

import (
	"encoding/json"
	"fmt"

	"primegames/domain"
)

// Decide is a computer player's choice at level: the index of one entry of legal. It is given what
// the seat's own client is given and nothing more, view (the state's View(Player(seat)) as JSON)
// and legal (the seat's LegalActions entries as JSON), so a computer player cannot peek at hidden
// cards or the order of a deck. r is its only chance, so the choice is replayable.
//
// random picks uniformly; greedy and expert ask the kind's Advisor at that level, and a kind
// without one plays its Greedy strategy (or random, without that either).
func Decide(kind domain.GameKind, level domain.Level, view json.RawMessage, legal []json.RawMessage, r domain.Rand) (int, error) {
	if len(legal) == 0 {
		return 0, errNoChoice
	}
	switch level {
	case domain.LevelRandom:
		return Random(legal, r)
	case domain.LevelGreedy, domain.LevelExpert:
		if kind.Advisor == nil {
			return Greedy(kind)(legal, r)
		}
		advice, err := kind.Advisor.Choose(view, legal, level, r)
		if err != nil {
			return 0, err
		}
		if advice.Index < 0 || advice.Index >= len(legal) {
			return 0, fmt.Errorf("players: the advisor chose entry %d of %d", advice.Index, len(legal))
		}
		return advice.Index, nil
	}
	return 0, fmt.Errorf("players: there is no level %q", level)
}
