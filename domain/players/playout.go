package players

import (
	"encoding/json"
	"fmt"

	"primegames/domain"
)

// Step is one moment of a played-out game: the state after an action (or the start) and that
// action's outcome.
type Step struct {
	State   domain.State
	Outcome domain.Outcome
}

// Playout plays a game of kind with default options for seats seats, every seat picking with p,
// and returns the start and every step after it, at most maxSteps of them.
func Playout(kind domain.GameKind, seats int, p Player, seed uint64, maxSteps int) ([]Step, error) {
	options, _, err := kind.Rules.Options(nil)
	if err != nil {
		return nil, err
	}
	state, outcome, err := kind.Rules.Start(options, seats, domain.SeededRand(seed, 0))
	if err != nil {
		return nil, err
	}
	steps := []Step{{state, outcome}}
	for i := 1; i <= maxSteps && !state.Status().Finished; i++ {
		seat := state.Status().ToAct[0]
		raw, err := json.Marshal(state.LegalActions(seat))
		if err != nil {
			return nil, err
		}
		var legal []json.RawMessage
		if err := json.Unmarshal(raw, &legal); err != nil {
			return nil, err
		}
		pick, err := p(legal, domain.SeededRand(seed, int64(-i)))
		if err != nil {
			return nil, err
		}
		var entry struct {
			Action json.RawMessage `json:"action"`
		}
		if err := json.Unmarshal(legal[pick], &entry); err != nil {
			return nil, err
		}
		state, outcome, err = state.Apply(seat, entry.Action, domain.SeededRand(seed, int64(i)))
		if err != nil {
			return nil, fmt.Errorf("step %d: %w", i, err)
		}
		steps = append(steps, Step{state, outcome})
	}
	return steps, nil
}
