package domain

import (
	"encoding/json"
	"fmt"
)

// Level is how strongly a computer player plays.
type Level string

const (
	// LevelRandom picks uniformly among the legal actions.
	LevelRandom Level = "random"
	// LevelGreedy takes the best immediate result by a simple measure.
	LevelGreedy Level = "greedy"
	// LevelExpert is the kind's strongest judgement.
	LevelExpert Level = "expert"
)

// Levels lists every level, weakest first.
var Levels = []Level{LevelRandom, LevelGreedy, LevelExpert}

// Advisor is a kind's judgement of play, used by computer players, hints and move review. It decides
// from what one seat may see and nothing else: view is the state's View(Player(seat)) encoded as JSON,
// legal are the seat's LegalActions entries encoded as JSON (each holding an "action" Apply accepts).
// Giving it only these is what keeps a computer player from peeking at hidden cards.
type Advisor struct {
	// Choose picks an entry of legal for level (greedy or expert; random needs no advisor). r is the
	// only source of chance, so a choice is replayable from the game's seed and the step.
	Choose func(view json.RawMessage, legal []json.RawMessage, level Level, r Rand) (Advice, error)
	// Review judges played, the action the seat posted, against the expert's choice at the moment
	// view shows.
	Review func(view json.RawMessage, legal []json.RawMessage, played json.RawMessage) (Judgement, error)
	// Thresholds are the upper bounds of a loss (in the kind's own units of Judgement.Loss) for the
	// labels good, inaccuracy and mistake; a larger loss is a blunder and a loss of 0 is best.
	Thresholds [3]float64
}

// Advice is one suggested action with a sentence a child or a teacher can read, such as
// "pawn 0: 37 + 4 = 41 lands on a prime and draws a card".
type Advice struct {
	Index       int    `json:"-"` // the entry of legal, or -1 when Action is a move legal does not list
	Explanation string `json:"explanation"`
	// Action is the chosen action when it is none of legal's entries: a kind may list only part of
	// its actions (Prime Climb lists moves without keeper steps) and judge them all.
	Action json.RawMessage `json:"-"`
}

// ActionIn is the chosen action, ready to post: Action, or the action of entry Index of legal.
func (a Advice) ActionIn(legal []json.RawMessage) (json.RawMessage, error) {
	if a.Action != nil {
		return a.Action, nil
	}
	if a.Index < 0 || a.Index >= len(legal) {
		return nil, fmt.Errorf("the advisor chose entry %d of %d legal actions", a.Index, len(legal))
	}
	var entry struct {
		Action json.RawMessage `json:"action"`
	}
	if err := json.Unmarshal(legal[a.Index], &entry); err != nil || len(entry.Action) == 0 {
		return nil, fmt.Errorf("legal action %s holds no action: %v", legal[a.Index], err)
	}
	return entry.Action, nil
}

// Judgement is what the expert thinks of one action played.
type Judgement struct {
	Best Advice // the expert's choice
	// Loss is how much worse the played action is than Best in the expert's own evaluation, >= 0.
	Loss   float64
	Missed []Missed // concrete opportunities the played action left, found by exact search
}

// Missed is one concrete opportunity an action left, e.g. a win available but not taken.
type Missed struct {
	// Kind names the opportunity: the kind documents its names (e.g. "win", "bump", "prime_card").
	Kind   string          `json:"kind"`
	Detail string          `json:"detail"` // in words
	Action json.RawMessage `json:"action"` // an action that would have taken it, as Apply accepts it
}

// Label names a loss for a reader, by the advisor's thresholds.
func (a Advisor) Label(loss float64) string {
	switch {
	case loss <= 0:
		return "best"
	case loss <= a.Thresholds[0]:
		return "good"
	case loss <= a.Thresholds[1]:
		return "inaccuracy"
	case loss <= a.Thresholds[2]:
		return "mistake"
	default:
		return "blunder"
	}
}
