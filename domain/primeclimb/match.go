package primeclimb

import (
	"encoding/json"
	"fmt"

	"primegames/domain"
)

// matchActionLimit ends a computer match that has not finished after this many actions, with no winner.
const matchActionLimit = 20000

// Match plays one game between computer players, seat i at levels[i], from seed alone: the rules draw
// from domain.SeededRand(seed, step) as the server does, and each player picks with Advisor.Choose
// from its own view and legal entries, drawing from a second stream. It returns the winner, or -1 when
// the game reached matchActionLimit.
func Match(levels []domain.Level, options json.RawMessage, seed uint64) (int, error) {
	st, _, err := Rules.Start(options, len(levels), domain.SeededRand(seed, 0))
	if err != nil {
		return 0, err
	}
	for step := int64(1); step <= matchActionLimit; step++ {
		s := st.(State)
		if s.Winner != nil {
			return *s.Winner, nil
		}
		seat := s.Turn.Seat
		view, legal, err := AdvisorInputs(s, seat)
		if err != nil {
			return 0, err
		}
		advice, err := Advisor.Choose(view, legal, levels[seat], domain.SeededRand(^seed, step))
		if err != nil {
			return 0, fmt.Errorf("seat %d at step %d: %w", seat, step, err)
		}
		action, err := advice.ActionIn(legal)
		if err != nil {
			return 0, err
		}
		if st, _, err = s.Apply(seat, action, domain.SeededRand(seed, step)); err != nil {
			return 0, fmt.Errorf("seat %d at step %d played %s: %w", seat, step, action, err)
		}
	}
	return -1, nil
}

// AdvisorInputs are what domain.Advisor receives for seat at s: its view and legal entries as JSON.
func AdvisorInputs(s State, seat int) (json.RawMessage, []json.RawMessage, error) {
	view, err := json.Marshal(s.View(domain.Player(seat)))
	if err != nil {
		return nil, nil, err
	}
	entries := s.Legal(seat)
	legal := make([]json.RawMessage, len(entries))
	for i, la := range entries {
		if legal[i], err = json.Marshal(la); err != nil {
			return nil, nil, err
		}
	}
	return view, legal, nil
}

// actionOf is the action of one legal entry, as Apply accepts it.
func actionOf(entry json.RawMessage) (json.RawMessage, error) {
	var la struct {
		Action json.RawMessage `json:"action"`
	}
	err := json.Unmarshal(entry, &la)
	return la.Action, err
}
