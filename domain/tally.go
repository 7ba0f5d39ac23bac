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

// Tallies makes a kind's GameKind.Tally and GameKind.TallyOutcome from how it counts one of its
// outcomes, *O: the first decodes the stored JSON strictly, the second takes the outcome as Apply
// gave it; either refuses what is not a *O of the kind named in its error, and adds nothing then.
func Tallies[O any](kind string, count func(*O, Counts) error) (tally func(json.RawMessage, Counts) error, tallyOutcome func(Outcome, Counts) error) {
	tally = func(raw json.RawMessage, counts Counts) error {
		var o O
		if err := DecodeStrict(raw, &o); err != nil {
			return Invalid("invalid_outcome", "not a %s outcome: %v", kind, err)
		}
		return count(&o, counts)
	}
	tallyOutcome = func(outcome Outcome, counts Counts) error {
		o, ok := any(outcome).(*O)
		if !ok {
			return Invalid("invalid_outcome", "not a %s outcome: %T", kind, outcome)
		}
		return count(o, counts)
	}
	return tally, tallyOutcome
}
