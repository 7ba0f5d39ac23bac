// Package players picks actions for the service's computer players (Decide) and for the simulated
// players of the tests and of tools/loadgen, in any kind of game: they see what a client sees, a
// seat's view and legal actions as the API lists them.
package players

import (
	"encoding/json"
	"errors"

	"primegames/domain"
)

// A Player picks the index of one entry of legal, which is never empty.
type Player func(legal []json.RawMessage, r domain.Rand) (int, error)

// Random picks uniformly among the legal actions.
func Random(legal []json.RawMessage, r domain.Rand) (int, error) {
	if len(legal) == 0 {
		return 0, errNoChoice
	}
	return r.IntN(len(legal)), nil
}

// Greedy plays kind's own strategy for ending the game soon (domain.GameKind.Greedy), or Random when
// the kind has none. Uniform picks can take a thousand actions to finish a game of Prime Climb.
func Greedy(kind domain.GameKind) Player {
	if kind.Greedy == nil {
		return Random
	}
	return func(legal []json.RawMessage, r domain.Rand) (int, error) {
		if len(legal) == 0 {
			return 0, errNoChoice
		}
		return kind.Greedy(legal, r)
	}
}

// Mostly plays p in percent picks out of a hundred and Random in the others, so that games still
// take the turns a strategy never would.
func Mostly(p Player, percent int) Player {
	return func(legal []json.RawMessage, r domain.Rand) (int, error) {
		if r.IntN(100) < percent {
			return p(legal, r)
		}
		return Random(legal, r)
	}
}

var errNoChoice = errors.New("players: no legal action to pick")
