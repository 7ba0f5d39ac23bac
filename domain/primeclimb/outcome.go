package primeclimb

import (
	"encoding/json"

	"primegames/domain"
)

// Outcome is what the start or one action did. Prime Climb hides nothing but the deck order, which an
// outcome never contains, so every viewer sees the whole outcome.
type Outcome struct {
	Action  string      `json:"action"` // "start", "roll", "keeper", "move" or "choose"
	Seat    *int        `json:"seat"`   // the seat that acted; null for the start
	RollOff []RollRound `json:"roll_off"`
	Dice    []int       `json:"dice"`   // roll: the two dice
	Uses    []int       `json:"uses"`   // roll: the die uses granted (four on doubles)
	Steps   []StepDone  `json:"steps"`  // keeper or move: every step with before/after positions
	Unused  []int       `json:"unused"` // move: die uses left unspent (unusable under Curse, or dropped on a win)
	Bumps   []Bump      `json:"bumps"`  // move: pawns bumped after the move (PC-9)
	// PrimesLanded lists the mover's pawns that, after the bump, stand on a red prime they did not
	// stand on when the turn began: the pawns that earn a draw (PC-10), cards on or off.
	PrimesLanded []int `json:"primes_landed,omitempty"`
	Draw         *Draw `json:"draw"` // move or choose: the card drawn and what it did
	// NextSeat is whose turn it is after this action, when a new turn began; null otherwise.
	NextSeat   *int `json:"next_seat"`
	NextCursed bool `json:"next_cursed"` // the new turn is under a Curse (PC-12)
	Winner     *int `json:"winner"`
}

// RollRound is one round of the roll-off for the first player (PC-2).
type RollRound struct {
	Rolls []SeatRoll `json:"rolls"`
}

// SeatRoll is one seat's two dice in the roll-off.
type SeatRoll struct {
	Seat  int    `json:"seat"`
	Dice  [2]int `json:"dice"`
	Total int    `json:"total"`
}

// StepDone is one step as it was performed.
type StepDone struct {
	Die        int    `json:"die,omitempty"`
	Op         string `json:"op,omitempty"`
	Card       Card   `json:"card,omitempty"`
	Sign       string `json:"sign,omitempty"`
	Seat       int    `json:"seat"` // the seat whose pawn moved, or the cursed seat
	Pawn       *int   `json:"pawn"` // null for a Curse
	From       *int   `json:"from"`
	To         *int   `json:"to"`
	Equation   string `json:"equation"`    // e.g. "30 + 7 = 37", "pawn 0 of seat 1: 45 → 0 (Start)"
	Home       bool   `json:"home"`        // the pawn reached 101 with this step
	TargetSeat *int   `json:"target_seat"` // Send to Start or Curse: the seat aimed at
}

// Bump is a pawn sent back to Start.
type Bump struct {
	Seat int `json:"seat"`
	Pawn int `json:"pawn"`
	From int `json:"from"`
}

// Draw is the Prime Card drawn after a move (PC-10) and its effect (PC-12, PC-13).
type Draw struct {
	Pawn       int     `json:"pawn"`       // the mover's pawn that earned the draw
	Square     int     `json:"square"`     // the red square it stands on
	Card       *Card   `json:"card"`       // null when deck and discard pile were both empty
	Kind       string  `json:"kind"`       // "keeper", "action" or "none"
	Reshuffled bool    `json:"reshuffled"` // the discard pile became the new deck first (PC-11)
	Effect     string  `json:"effect"`     // what happened, for people
	Moves      []Moved `json:"moves"`      // pawns the card moved
	Bumps      []Bump  `json:"bumps"`      // pawns the card bumped
	Stolen     *Stolen `json:"stolen"`     // Steal
	Pending    bool    `json:"pending"`    // the card waits for a choose action
}

// Moved is a pawn moved by an action card.
type Moved struct {
	Seat int `json:"seat"`
	Pawn int `json:"pawn"`
	From int `json:"from"`
	To   int `json:"to"`
}

// Stolen is the keeper taken by Steal.
type Stolen struct {
	FromSeat int  `json:"from_seat"`
	Card     Card `json:"card"`
}

// Redact returns the whole outcome: nothing in it is hidden.
func (o *Outcome) Redact(domain.Viewer) any { return o }

func newOutcome(action string, seat *int) *Outcome {
	return &Outcome{Action: action, Seat: seat, RollOff: []RollRound{}, Dice: []int{}, Uses: []int{},
		Steps: []StepDone{}, Unused: []int{}, Bumps: []Bump{}}
}

func newDraw(pawn, square int) *Draw {
	return &Draw{Pawn: pawn, Square: square, Kind: "none", Moves: []Moved{}, Bumps: []Bump{}}
}

func decodeOutcome(raw json.RawMessage) (domain.Outcome, error) {
	var o Outcome
	if err := json.Unmarshal(raw, &o); err != nil {
		return nil, domain.Invalid("invalid_outcome", "not a prime-climb outcome: %v", err)
	}
	return &o, nil
}
