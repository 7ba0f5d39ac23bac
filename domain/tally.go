package domain

import "encoding/json"

// Counts holds named counters per seat: counts[seat]["op_multiply"]. Names are snake_case and stable;
// teachers' statistics sum them over games.
type Counts map[int]map[string]int

// Add increases one counter of one seat.
func (c Counts) Add(seat int, name string, n int) {
	if c[seat] == nil {
		c[seat] = map[string]int{}
	}
	c[seat][name] += n
}

// Tallier is implemented by rules that can tell, from a game's history, what each seat did: the
// operations a student chose, the cards they played, the scores they got. It reads the full, stored
// outcomes (never redacted ones) in history order, the start's included.
type Tallier interface {
	Tally(outcome json.RawMessage, counts Counts) error
}
