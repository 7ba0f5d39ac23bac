package primed

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"primegames/domain"
)

// Deck names (PR-2).
const (
	DeckPrimed   = "primed"
	DeckStandard = "standard"
)

// Target names (PR-4).
const (
	TargetPrimes     = "primes"
	TargetComposites = "composites"
)

// MaxRounds bounds the rounds option. The rules only ask for at least one round (PR-3); the upper
// bound keeps a single game from running without end, and bounds what one game costs the
// server's worker when computers play it: 20 rounds is five games of the default length (issue 23).
const MaxRounds = 20

// Options are the game options. The zero value is not valid; DefaultOptions gives the defaults.
type Options struct {
	Deck      string `json:"deck"`
	Target    string `json:"target"`
	MultiCard bool   `json:"multi_card"`
	Rounds    int    `json:"rounds"`
}

// DefaultOptions are the options of a game created with nil or {} options.
func DefaultOptions() Options {
	return Options{Deck: DeckPrimed, Target: TargetPrimes, MultiCard: false, Rounds: 4}
}

// ParseOptions validates raw options, filling in defaults for missing fields.
func ParseOptions(raw json.RawMessage) (Options, error) {
	opts := DefaultOptions()
	if len(bytes.TrimSpace(raw)) == 0 || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return opts, nil
	}
	if err := domain.DecodeStrict(raw, &opts); err != nil {
		return Options{}, optionsDecodeError(err)
	}
	if err := opts.validate(); err != nil {
		return Options{}, err
	}
	return opts, nil
}

func optionsDecodeError(err error) error {
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) && typeErr.Field != "" {
		e := domain.Invalid("invalid_options", "option %q must be a %s, not a JSON %s", typeErr.Field, kindOfField(typeErr.Field), typeErr.Value)
		e.Fields = []domain.FieldError{{Field: typeErr.Field, Message: e.Message}}
		return e
	}
	return domain.Invalid("invalid_options", "options must be a JSON object with the fields deck, target, multi_card and rounds: %v", err)
}

func kindOfField(field string) string {
	switch field {
	case "multi_card":
		return "boolean"
	case "rounds":
		return "whole number"
	}
	return "string"
}

func (o Options) validate() error {
	bad := func(field, format string, args ...any) error {
		e := domain.Invalid("invalid_options", format, args...)
		e.Fields = []domain.FieldError{{Field: field, Message: e.Message}}
		return e
	}
	if o.Deck != DeckPrimed && o.Deck != DeckStandard {
		return bad("deck", "deck must be %q (four each of 1..17) or %q (four each of 1..10), not %q", DeckPrimed, DeckStandard, o.Deck)
	}
	if o.Target != TargetPrimes && o.Target != TargetComposites {
		return bad("target", "target must be %q or %q, not %q", TargetPrimes, TargetComposites, o.Target)
	}
	if o.Rounds < 1 || o.Rounds > MaxRounds {
		return bad("rounds", "rounds must be between 1 and %d, not %d", MaxRounds, o.Rounds)
	}
	return nil
}

// Canonical is the options as stored: every field present, in a fixed order.
func (o Options) Canonical() json.RawMessage {
	b, err := json.Marshal(o)
	if err != nil {
		panic(fmt.Sprintf("primed: options do not encode: %v", err))
	}
	return b
}

// Seats is the number of players the options allow (PR-1).
func (o Options) Seats() domain.SeatRange {
	if o.Deck == DeckStandard {
		return domain.SeatRange{Min: 2, Max: 5}
	}
	return domain.SeatRange{Min: 2, Max: 6}
}

// MaxCard is the highest card value of the deck (PR-2).
func (o Options) MaxCard() int {
	if o.Deck == DeckStandard {
		return 10
	}
	return 17
}

// NewDeck returns the full deck in canonical order: four each of 1..MaxCard (PR-2).
func (o Options) NewDeck() []int {
	deck := make([]int, 0, 4*o.MaxCard())
	for v := 1; v <= o.MaxCard(); v++ {
		deck = append(deck, v, v, v, v)
	}
	return deck
}
