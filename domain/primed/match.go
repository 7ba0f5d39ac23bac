package primed

import (
	"encoding/json"
	"fmt"

	"primegames/domain"
)

// PlayMatch plays a whole game of options among computer players, seat i at levels[i], and returns
// every seat's final total (PR-7). Each player decides through Advisor.Choose from its own view and
// legal actions as JSON, as a computer player on the server does. The deal and every choice follow
// from seed, so the same seed gives the same game.
func PlayMatch(o Options, levels []domain.Level, seed uint64) ([]int, error) {
	s, _, err := Start(o.Canonical(), len(levels), domain.SeededRand(seed, 0))
	if err != nil {
		return nil, err
	}
	for step := int64(1); !s.Status().Finished; step++ {
		if step > maxMatchActions {
			return nil, fmt.Errorf("primed match seed %d: not finished after %d actions", seed, maxMatchActions)
		}
		seat := s.Turn()
		view, err := json.Marshal(s.ViewFor(domain.Player(seat)))
		if err != nil {
			return nil, err
		}
		entries := s.Legal(seat)
		legal := make([]json.RawMessage, len(entries))
		for i, e := range entries {
			if legal[i], err = json.Marshal(e); err != nil {
				return nil, err
			}
		}
		advice, err := Advisor.Choose(view, legal, levels[seat], domain.SeededRand(^seed, step))
		if err != nil {
			return nil, err
		}
		action, err := advice.ActionIn(legal)
		if err != nil {
			return nil, err
		}
		next, _, err := s.Apply(seat, action, domain.SeededRand(seed, step))
		if err != nil {
			return nil, fmt.Errorf("primed match seed %d step %d: %w", seed, step, err)
		}
		s = next.(*State)
	}
	return cloneInts(s.t.Totals), nil
}

// maxMatchActions bounds one match; a game of four rounds takes a few hundred actions.
const maxMatchActions = 100000
