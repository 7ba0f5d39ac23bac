package primeclimb

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"primegames/domain"
)

// refusedWith checks a refusal's facts: that they are the numbers wanted, and that they match the
// schema schemas.yaml declares for the code (x-refusal-codes), when the code is Prime Climb's own.
func refusedWith(t *testing.T, schemas openapi3.Schemas, s State, seat int, action, code string, want any) {
	t.Helper()
	e := refuse(t, s, seat, action, code)
	if !reflect.DeepEqual(e.Facts, want) {
		t.Fatalf("%s: facts %#v, want %#v", action, e.Facts, want)
	}
	for name, ref := range schemas {
		if codes, _ := ref.Value.Extensions["x-refusal-codes"].([]any); slices.Contains(codes, any(code)) {
			validate(t, schemas, name, e.Facts)
			return
		}
	}
	if code != "not_your_turn" && code != "game_over" { // the codes every kind shares are openapi.yaml's
		t.Fatalf("schemas.yaml declares no facts for %s", code)
	}
}

// PC-5: a step off the board names the pawn, the square, the operation, the die and where it would land.
func TestPC5_FactsOfAStepOffTheBoard(t *testing.T) {
	schemas := loadSchemas(t)
	s := game([2]int{95, 37}, [2]int{0, 0}).deck().rolled(7, 3)
	refusedWith(t, schemas, s, 0, `{"type":"move","steps":[{"die":3,"pawn":1,"op":"multiply"}]}`, "illegal_step",
		IllegalStepFacts{Reason: ReasonPast101, Step: 1, Pawn: ptr(1), From: ptr(37), Op: OpMultiply, Die: 3, Amount: 3, Result: ptr(111)})
	refusedWith(t, schemas, s, 0, `{"type":"move","steps":[{"die":3,"pawn":1,"op":"divide"}]}`, "illegal_step",
		IllegalStepFacts{Reason: ReasonNotWhole, Step: 1, Pawn: ptr(1), From: ptr(37), Op: OpDivide, Die: 3, Amount: 3})
	z := game([2]int{3, 0}, [2]int{0, 0}).deck().rolled(7, 4)
	refusedWith(t, schemas, z, 0, `{"type":"move","steps":[{"die":4,"pawn":1,"op":"add"},{"die":7,"pawn":0,"op":"subtract"}]}`, "illegal_step",
		IllegalStepFacts{Reason: ReasonBelow0, Step: 2, Pawn: ptr(0), From: ptr(3), Op: OpSubtract, Die: 7, Amount: 7, Result: ptr(-4)})
	// PC-3: a die not rolled, or used up.
	refusedWith(t, schemas, s, 0, `{"type":"move","steps":[{"die":7,"pawn":0,"op":"subtract"},{"die":7,"pawn":0,"op":"subtract"}]}`, "die_not_available",
		DieFacts{Step: 2, Die: 7, DiceLeft: []int{3}})
	// PC-12: a keeper's step off the board names the card and its number.
	k := game([2]int{95, 0}, [2]int{0, 0}).holding(0, PlusMinus(9))
	refusedWith(t, schemas, k, 0, `{"type":"keeper","card":"plus_minus_9","pawn":0,"sign":"+"}`, "illegal_step",
		IllegalStepFacts{Reason: ReasonPast101, Pawn: ptr(0), From: ptr(95), Op: OpAdd, Card: PlusMinus(9), Amount: 9, Result: ptr(104)})
}

// PC-6: an unused die comes with one use of it that was legal; a step after the win names the winning step.
func TestPC6_FactsOfUnusedDiceAndStepsAfterTheWin(t *testing.T) {
	schemas := loadSchemas(t)
	s := game([2]int{30, 0}, [2]int{0, 0}).deck().rolled(7, 3)
	refusedWith(t, schemas, s, 0, `{"type":"move","steps":[{"die":7,"pawn":0,"op":"add"}]}`, "dice_unused",
		DiceUnusedFacts{Die: 3, Unused: []int{3}, Pawn: 0, From: 37, Op: OpAdd, Result: 40})
	w := game([2]int{101, 94}, [2]int{50, 0}).rolled(7, 3)
	refusedWith(t, schemas, w, 0, `{"type":"move","steps":[{"die":7,"pawn":1,"op":"add"},{"die":3,"pawn":0,"op":"subtract"}]}`, "illegal_step",
		IllegalStepFacts{Reason: ReasonAfterWin, Step: 2, WonAt: 1})
}

// PC-7, PC-12: home pawns, Curses and cards not held.
func TestPC7_PC12_FactsOfPawnsCardsAndCurses(t *testing.T) {
	schemas := loadSchemas(t)
	s := game([2]int{101, 40}, [2]int{101, 30}).holding(0, PlusMinus(1), SendToStart).rolled(2, 3)
	refusedWith(t, schemas, s, 0, `{"type":"move","steps":[{"die":2,"pawn":0,"op":"subtract"}]}`, "pawn_home", PawnFacts{Step: 1, Pawn: 0})
	refusedWith(t, schemas, s, 0, `{"type":"keeper","card":"send_to_start","target_seat":1,"pawn":0}`, "invalid_target",
		InvalidTargetFacts{Reason: TargetHome, Card: SendToStart, TargetSeat: 1, Pawn: ptr(0)})
	refusedWith(t, schemas, s, 0, `{"type":"keeper","card":"plus_minus_8","pawn":1,"sign":"-"}`, "card_not_held", CardFacts{Card: PlusMinus(8)})
	refusedWith(t, schemas, s, 0, `{"type":"keeper","card":"swap"}`, "not_a_keeper", CardFacts{Card: Swap})
	refusedWith(t, schemas, s, 1, `{"type":"roll"}`, "not_your_turn", domain.NotYourTurnFacts{Seat: 1, ToAct: []int{0}})
	refusedWith(t, schemas, s, 0, `{"type":"roll"}`, "wrong_phase", WrongPhaseFacts{Phase: PhaseMove, Action: ActRoll, Dice: []int{2, 3}})

	c := game([2]int{40, 0}, [2]int{30, 0}).holding(0, Curse).cursed().rolled(7, 5)
	refusedWith(t, schemas, c, 0, `{"type":"move","steps":[{"die":7,"pawn":0,"op":"multiply"}]}`, "cursed", CursedFacts{Step: 1, Op: OpMultiply, Die: 7})
	refusedWith(t, schemas, c, 0, `{"type":"keeper","card":"curse","target_seat":0}`, "invalid_target",
		InvalidTargetFacts{Reason: TargetSelf, Card: Curse, TargetSeat: 0})
}

// PC-12: a keeper got on this turn waits for the next.
func TestPC12_FactsOfAKeeperGotThisTurn(t *testing.T) {
	schemas := loadSchemas(t)
	s := game([2]int{40, 0}, [2]int{30, 0})
	s.Players[0].Keepers = []HeldCard{{Card: PlusMinus(1), New: true}}
	refusedWith(t, schemas, s, 0, `{"type":"keeper","card":"plus_minus_1","pawn":0,"sign":"+"}`, "card_drawn_this_turn", CardFacts{Card: PlusMinus(1)})
}

// PC-13, PC-14: a Swap's answer that is not a choice lists the choices; a won game names its winner.
func TestPC13_PC14_FactsOfChoicesAndTheEnd(t *testing.T) {
	schemas := loadSchemas(t)
	s := drawAt(37, Swap, [2]int{80, 5})
	s.Players[0].Pawns[1] = 20
	s.Turn.StartPawns[1] = 20
	next, _ := apply(t, s, 0, moveTo)
	e := refuse(t, next, 0, `{"type":"choose","target_seat":2,"pawn":0}`, "invalid_target")
	facts, ok := e.Facts.(InvalidTargetFacts)
	if !ok || facts.Reason != TargetNotChoice || facts.Card != Swap || facts.TargetSeat != 2 || len(facts.Choices) != 3 {
		t.Fatalf("facts %#v", e.Facts)
	}
	validate(t, schemas, "PrimeClimbInvalidTargetFacts", e.Facts)
	refusedWith(t, schemas, next, 0, `{"type":"roll"}`, "wrong_phase", WrongPhaseFacts{Phase: PhaseResolve, Action: ActRoll, Card: Swap})

	won, _ := apply(t, game([2]int{101, 94}, [2]int{50, 0}).rolled(7, 3), 0, `{"type":"move","steps":[{"die":7,"pawn":1,"op":"add"}]}`)
	refusedWith(t, schemas, won, 1, `{"type":"roll"}`, "game_over", domain.GameOverFacts{Winners: []int{0}})
}

// PC-5: the statistics count a step off the board by its operation and reason; a step after the
// win (PC-6) and the other refusals are no arithmetic mistake.
func TestPC5_IllegalStepsCountByKind(t *testing.T) {
	for _, c := range []struct {
		code, facts, value string
		ok                 bool
	}{
		{"illegal_step", `{"reason":"past_101","pawn":1,"from":37,"op":"multiply","die":3,"amount":3,"result":111}`, "multiply_past_101", true},
		{"illegal_step", `{"reason":"not_whole","pawn":1,"from":37,"op":"divide","die":3,"amount":3}`, "divide_not_whole", true},
		{"illegal_step", `{"reason":"below_0","pawn":0,"from":0,"op":"subtract","card":"plus_minus_9","amount":9,"result":-9}`, "subtract_below_0", true},
		{"illegal_step", `{"reason":"after_win","step":2,"won_at":1}`, "", false},
		{"dice_unused", `{"die":4,"unused":[4],"pawn":0,"from":12,"op":"add","result":16}`, "", false},
	} {
		figure, value, ok := Kind.MistakeOf(c.code, json.RawMessage(c.facts))
		if value != c.value || ok != c.ok || (ok && figure != FigureIllegalSteps) {
			t.Errorf("%s %s: %q %q %v, want %q %v", c.code, c.facts, figure, value, ok, c.value, c.ok)
		}
	}
}
