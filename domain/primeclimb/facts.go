package primeclimb

import "primegames/domain"

// The facts of Prime Climb's refusals: the numbers behind each message, for programs. Their JSON
// shapes are declared in schemas.yaml (x-refusal-codes); Step is the 1-based number of the refused
// step within a move, absent for a keeper played on its own.

// Why a step's arithmetic is refused (PC-5).
const (
	ReasonPast101  = "past_101"  // add or multiply gives more than 101
	ReasonBelow0   = "below_0"   // subtract gives less than 0
	ReasonNotWhole = "not_whole" // divide leaves a remainder
	ReasonAfterWin = "after_win" // a step after the move already won (PC-6, PC-14)
)

// IllegalStepFacts are the facts of illegal_step.
type IllegalStepFacts struct {
	Reason string `json:"reason"`
	Step   int    `json:"step,omitempty"`
	Pawn   *int   `json:"pawn,omitempty"`
	From   *int   `json:"from,omitempty"`
	Op     string `json:"op,omitempty"`
	Die    int    `json:"die,omitempty"`
	Card   Card   `json:"card,omitempty"`
	// Amount is what the step adds, subtracts, multiplies or divides by: the die, or the keeper's number.
	Amount int `json:"amount,omitempty"`
	// Result is where the pawn would land; absent when a division is not whole.
	Result *int `json:"result,omitempty"`
	// WonAt is the step that won, for after_win.
	WonAt int `json:"won_at,omitempty"`
}

// DiceUnusedFacts are the facts of dice_unused (PC-6): the die left over, and one legal use of it.
type DiceUnusedFacts struct {
	Die    int    `json:"die"`
	Unused []int  `json:"unused"`
	Pawn   int    `json:"pawn"`
	From   int    `json:"from"`
	Op     string `json:"op"`
	Result int    `json:"result"`
}

// DieFacts are the facts of die_not_available: the die asked for and the uses left (PC-3).
type DieFacts struct {
	Step     int   `json:"step,omitempty"`
	Die      int   `json:"die"`
	DiceLeft []int `json:"dice_left"`
}

// PawnFacts are the facts of pawn_home (PC-7).
type PawnFacts struct {
	Step int `json:"step,omitempty"`
	Pawn int `json:"pawn"`
}

// CursedFacts are the facts of cursed (PC-12): the operation the Curse forbids.
type CursedFacts struct {
	Step int    `json:"step,omitempty"`
	Op   string `json:"op"`
	Die  int    `json:"die"`
}

// CardFacts are the facts of not_a_keeper, card_not_held and card_drawn_this_turn (PC-12).
type CardFacts struct {
	Step int  `json:"step,omitempty"`
	Card Card `json:"card"`
}

// Why a card's target is refused.
const (
	TargetNoSuchSeat = "no_such_seat"
	TargetOnStart    = "on_start"
	TargetHome       = "home"
	TargetSelf       = "self"
	TargetNoPawns    = "no_pawns"
	TargetNotChoice  = "not_a_choice"
)

// InvalidTargetFacts are the facts of invalid_target (PC-12, PC-13).
type InvalidTargetFacts struct {
	Reason     string `json:"reason"`
	Step       int    `json:"step,omitempty"`
	Card       Card   `json:"card"`
	TargetSeat int    `json:"target_seat"`
	Pawn       *int   `json:"pawn,omitempty"`
	// Choices are the answers a pending Swap or Steal takes, for not_a_choice.
	Choices []Choice `json:"choices,omitempty"`
}

// WrongPhaseFacts are the facts of wrong_phase (PC-4): what was tried, and what the turn waits for.
type WrongPhaseFacts struct {
	Phase  Phase  `json:"phase"`
	Action string `json:"action"`
	Dice   []int  `json:"dice,omitempty"`
	// Card is the Swap or Steal waiting for a choice, in the resolve phase.
	Card Card `json:"card,omitempty"`
}

func illegalWith(facts any, code, format string, args ...any) *domain.Error {
	return domain.Illegal(code, format, args...).WithFacts(facts)
}

// stepReason classifies why from op n is refused (see whyNot).
func stepReason(from int, op string, n int) (reason string, result *int) {
	switch op {
	case OpAdd:
		return ReasonPast101, ptr(from + n)
	case OpSubtract:
		return ReasonBelow0, ptr(from - n)
	case OpMultiply:
		return ReasonPast101, ptr(from * n)
	}
	return ReasonNotWhole, nil
}
