package domain

import (
	"encoding/json"
	"strings"
)

// GameKind is one kind of game as the service hosts it: its rules, the JSON Schemas of what it sends
// and accepts, how its statistics are counted, and any reference data. Each engine package declares
// one; the registry (domain/games) lists them, and nothing else outside the engine names it.
type GameKind struct {
	Rules Rules
	// Schemas is the engine's schemas.yaml: an OpenAPI 3.1 fragment whose components/schemas describe
	// its JSON. Named after SchemaPrefix P, it defines POptions, PAction, PView, POutcome,
	// PLegalActions and PScores, and PBoard when Board is set; the contract's unions refer to them.
	// PView is an object with a required "game" field holding the kind's name: the contract tells
	// views apart by it (a discriminator), as it tells games, history entries, legal-action lists
	// and scores apart by theirs.
	Schemas []byte
	// Tally adds what one stored outcome tells about each seat to counts. It reads the full, stored
	// outcomes (never redacted ones) in history order, the start's included.
	Tally func(outcome json.RawMessage, counts Counts) error
	// TallyOutcome is Tally of an outcome as the rules' Apply gave it, which spares decoding the
	// JSON just made of it; nil when the kind has none (Tally is used then).
	TallyOutcome func(outcome Outcome, counts Counts) error
	// Measures derives figures from counters summed over games (one student's, or a class's), such as
	// an average; a figure that has no value yet is left out. Nil when the kind has none.
	Measures func(counts map[string]int) map[string]float64
	// Mistake says what one refused action of the kind tells a teacher about a player's arithmetic:
	// the figure it counts towards (e.g. Primed's "not_prime_totals") and the value counted there
	// (e.g. "21"); ok is false for a refusal that tells nothing of the kind. facts are the refusal's
	// facts as JSON (Error.Facts). Nil when the kind has no such figures.
	Mistake func(code string, facts json.RawMessage) (figure, value string, ok bool)
	// Board is reference data about the game, served as it is at GET /v1/boards/{game}; nil when the
	// kind has none.
	Board any
	// Greedy is how a test or load player that wants the game over soon picks: the index of one
	// entry of legal, a seat's legal actions as GET /legal-actions lists them. Nil when the kind has
	// no such strategy; players then pick at random (domain/players).
	Greedy func(legal []json.RawMessage, r Rand) (int, error)
	// Advisor is the kind's judgement of play for computer players, hints and move review; nil when
	// the kind has none (its computer players then play greedy or random, and it offers no hints or
	// review).
	Advisor *Advisor
	// Picture draws the kind's positions (and board) as SVG, from views only; nil when the kind has
	// no pictures.
	Picture *Picture
}

// Name is the kind's identifier in the API, e.g. "prime-climb".
func (k GameKind) Name() string { return k.Rules.Name() }

// SchemaPrefix is how the kind's schema names begin: "prime-climb" gives "PrimeClimb".
func (k GameKind) SchemaPrefix() string {
	var b strings.Builder
	for _, word := range strings.Split(k.Name(), "-") {
		b.WriteString(strings.ToUpper(word[:1]) + word[1:])
	}
	return b.String()
}

// MeasuresOf is k.Measures(counts), or nothing when the kind has no measures.
func (k GameKind) MeasuresOf(counts map[string]int) map[string]float64 {
	if k.Measures == nil {
		return map[string]float64{}
	}
	return k.Measures(counts)
}

// MistakeOf is k.Mistake(code, facts), or nothing when the kind has no such figures.
func (k GameKind) MistakeOf(code string, facts json.RawMessage) (figure, value string, ok bool) {
	if k.Mistake == nil || len(facts) == 0 {
		return "", "", false
	}
	return k.Mistake(code, facts)
}
