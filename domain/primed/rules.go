package primed

import (
	"encoding/json"

	"primegames/domain"
)

// Rules is the Primed card game.
var Rules domain.Rules = rules{}

type rules struct{}

// Name is the kind's identifier in the API.
const Name = "primed"

func (rules) Name() string { return Name }

// Options validates raw options and returns them in canonical form with the seats they allow (PR-1).
func (rules) Options(raw json.RawMessage) (json.RawMessage, domain.SeatRange, error) {
	opts, err := ParseOptions(raw)
	if err != nil {
		return nil, domain.SeatRange{}, err
	}
	return opts.Canonical(), opts.Seats(), nil
}

// Start shuffles and deals round 1; seat 0 deals and seat 1 starts (PR-3).
func (rules) Start(raw json.RawMessage, seats int, r domain.Rand) (domain.State, domain.Outcome, error) {
	s, out, err := Start(raw, seats, r)
	if err != nil {
		return nil, nil, err
	}
	return s, out, nil
}

// Start is Rules.Start with concrete types.
func Start(raw json.RawMessage, seats int, r domain.Rand) (*State, *Outcome, error) {
	opts, err := ParseOptions(raw)
	if err != nil {
		return nil, nil, err
	}
	if sr := opts.Seats(); seats < sr.Min || seats > sr.Max {
		return nil, nil, domain.Invalid("invalid_seats", "the %s deck is for %d to %d players, not %d", opts.Deck, sr.Min, sr.Max, seats)
	}
	t := table{Options: opts, Seats: seats, Results: []RoundResult{}, Totals: make([]int, seats), Winners: []int{}}
	out := &Outcome{Dealt: t.startRound(r)}
	return &State{t: t}, out, nil
}

// Decode restores a state from json.Marshal of a State, checking that it is a possible Primed table.
func (rules) Decode(snapshot json.RawMessage) (domain.State, error) {
	s, err := Decode(snapshot)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// Decode is Rules.Decode with a concrete type.
func Decode(snapshot json.RawMessage) (*State, error) {
	var t table
	if err := domain.DecodeStrict(snapshot, &t); err != nil {
		return nil, domain.Invalid("invalid_snapshot", "not a Primed game snapshot: %v", err)
	}
	if err := t.validate(); err != nil {
		return nil, domain.Invalid("invalid_snapshot", "not a possible Primed game: %v", err)
	}
	return &State{t: t}, nil
}

// DecodeOutcome restores a stored outcome so that it can be redacted.
func (rules) DecodeOutcome(raw json.RawMessage) (domain.Outcome, error) {
	var out Outcome
	if err := domain.DecodeStrict(raw, &out); err != nil {
		return nil, domain.Invalid("invalid_outcome", "not a Primed outcome: %v", err)
	}
	return &out, nil
}
