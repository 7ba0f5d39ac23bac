package primeclimb

import (
	"encoding/json"

	"primegames/domain"
)

// Action types.
const (
	ActRoll   = "roll"
	ActKeeper = "keeper"
	ActMove   = "move"
	ActChoose = "choose"
)

// Dice operations.
const (
	OpAdd      = "add"
	OpSubtract = "subtract"
	OpMultiply = "multiply"
	OpDivide   = "divide"
)

// Action is what a client sends. Which fields apply depends on Type:
//
//	{"type":"roll"}
//	{"type":"keeper","card":"plus_minus_5","pawn":1,"sign":"-"}
//	{"type":"keeper","card":"send_to_start","target_seat":2,"pawn":0}
//	{"type":"keeper","card":"curse","target_seat":1}
//	{"type":"move","steps":[{"die":7,"pawn":0,"op":"add"},{"card":"plus_minus_5","pawn":1,"sign":"-"}],"draw_pawn":0}
//	{"type":"choose","target_seat":1,"pawn":0}        (Swap)
//	{"type":"choose","target_seat":1,"card":"curse"}  (Steal)
type Action struct {
	Type       string `json:"type"`
	Card       Card   `json:"card,omitempty"`
	Pawn       *int   `json:"pawn,omitempty"`
	Sign       string `json:"sign,omitempty"`
	TargetSeat *int   `json:"target_seat,omitempty"`
	Steps      []Step `json:"steps,omitempty"`
	DrawPawn   *int   `json:"draw_pawn,omitempty"` // move: which pawn acts for the card when both earned it (PC-13)
}

// Step is one step of a move (PC-5): a die use (Die, Pawn, Op) or a keeper (Card with Pawn/Sign/TargetSeat
// as for a keeper action).
type Step struct {
	Die        int    `json:"die,omitempty"`
	Op         string `json:"op,omitempty"`
	Card       Card   `json:"card,omitempty"`
	Pawn       *int   `json:"pawn,omitempty"`
	Sign       string `json:"sign,omitempty"`
	TargetSeat *int   `json:"target_seat,omitempty"`
}

func (s Step) isCard() bool { return s.Card != "" }

// keeperStep turns a keeper action into the step it performs.
func (a Action) keeperStep() Step {
	return Step{Card: a.Card, Pawn: a.Pawn, Sign: a.Sign, TargetSeat: a.TargetSeat}
}

// DecodeAction parses and shape-checks a raw action. Rule checks happen in Apply.
func DecodeAction(raw json.RawMessage) (Action, error) {
	var a Action
	if err := domain.DecodeStrict(raw, &a); err != nil {
		return Action{}, domain.Invalid("invalid_action", "the action is not a prime-climb action object: %v", err)
	}
	if err := a.checkShape(); err != nil {
		return Action{}, err
	}
	return a, nil
}

func (a Action) checkShape() error {
	extra := func(present bool, field string) error {
		if present {
			return domain.Invalid("invalid_action", "a %q action has no %q field", a.Type, field)
		}
		return nil
	}
	switch a.Type {
	case ActRoll:
		return firstErr(extra(a.Card != "", "card"), extra(a.Pawn != nil, "pawn"), extra(a.Sign != "", "sign"),
			extra(a.TargetSeat != nil, "target_seat"), extra(a.Steps != nil, "steps"), extra(a.DrawPawn != nil, "draw_pawn"))
	case ActKeeper:
		if err := firstErr(extra(a.Steps != nil, "steps"), extra(a.DrawPawn != nil, "draw_pawn")); err != nil {
			return err
		}
		return a.keeperStep().checkShape("")
	case ActMove:
		if err := firstErr(extra(a.Card != "", "card"), extra(a.Pawn != nil, "pawn"), extra(a.Sign != "", "sign"),
			extra(a.TargetSeat != nil, "target_seat")); err != nil {
			return err
		}
		if a.DrawPawn != nil && *a.DrawPawn != 0 && *a.DrawPawn != 1 {
			return domain.Invalid("invalid_pawn", "draw_pawn must be 0 or 1, not %d", *a.DrawPawn)
		}
		for i, st := range a.Steps {
			if err := st.checkShape(stepLabel(i)); err != nil {
				return err
			}
		}
		return nil
	case ActChoose:
		if err := firstErr(extra(a.Sign != "", "sign"), extra(a.Steps != nil, "steps"), extra(a.DrawPawn != nil, "draw_pawn")); err != nil {
			return err
		}
		if a.TargetSeat == nil {
			return domain.Invalid("invalid_action", "a choose action needs target_seat")
		}
		if (a.Pawn == nil) == (a.Card == "") {
			return domain.Invalid("invalid_action", "a choose action names either a pawn (Swap) or a card (Steal)")
		}
		return nil
	case "":
		return domain.Invalid("invalid_action", "the action needs a type: roll, keeper, move or choose")
	}
	return domain.Invalid("invalid_action", "unknown action type %q: use roll, keeper, move or choose", a.Type)
}

func stepLabel(i int) string { return "step " + itoa(i+1) + ": " }

func (s Step) checkShape(label string) error {
	if s.Pawn != nil && (*s.Pawn < 0 || *s.Pawn > 1) {
		return domain.Invalid("invalid_pawn", "%spawn must be 0 or 1, not %d", label, *s.Pawn)
	}
	if !s.isCard() {
		switch {
		case s.Sign != "" || s.TargetSeat != nil:
			return domain.Invalid("invalid_step", "%sa die step has die, pawn and op only", label)
		case s.Die < 1 || s.Die > 10:
			return domain.Invalid("invalid_step", "%sa step needs a die value from 1 to 10 or a card", label)
		case s.Pawn == nil:
			return domain.Invalid("invalid_step", "%sa die step needs the pawn (0 or 1)", label)
		}
		switch s.Op {
		case OpAdd, OpSubtract, OpMultiply, OpDivide:
			return nil
		}
		return domain.Invalid("invalid_step", "%sop must be add, subtract, multiply or divide, not %q", label, s.Op)
	}
	if s.Die != 0 || s.Op != "" {
		return domain.Invalid("invalid_step", "%sa step plays either a die or a card, not both", label)
	}
	if !s.Card.Valid() {
		return domain.Invalid("unknown_card", "%sthere is no Prime Card called %q", label, s.Card)
	}
	if _, pm := plusMinusValue(s.Card); pm {
		if s.Pawn == nil || s.TargetSeat != nil {
			return domain.Invalid("invalid_step", "%s%s needs pawn and sign only", label, s.Card.Title())
		}
		if s.Sign != "+" && s.Sign != "-" {
			return domain.Invalid("invalid_step", "%s%s needs sign \"+\" or \"-\"", label, s.Card.Title())
		}
		return nil
	}
	switch s.Card {
	case SendToStart:
		if s.TargetSeat == nil || s.Pawn == nil || s.Sign != "" {
			return domain.Invalid("invalid_step", "%sSend to Start needs target_seat and pawn", label)
		}
	case Curse:
		if s.TargetSeat == nil || s.Pawn != nil || s.Sign != "" {
			return domain.Invalid("invalid_step", "%sCurse needs target_seat only", label)
		}
	}
	return nil
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
