package primeclimb

import (
	"fmt"
	"testing"
)

func TestPC12_PlusMinusKeepers(t *testing.T) {
	for n := 1; n <= 9; n++ {
		for _, sign := range []string{"+", "-"} {
			s := game([2]int{50, 0}, [2]int{0, 0}).holding(0, PlusMinus(n))
			next, out := apply(t, s, 0, fmt.Sprintf(`{"type":"keeper","card":"plus_minus_%d","pawn":0,"sign":"%s"}`, n, sign))
			want := 50 + n
			if sign == "-" {
				want = 50 - n
			}
			wantPawns(t, next, 0, [2]int{want, 0})
			if len(next.Players[0].Keepers) != 0 || len(next.Discard) != 1 || next.Discard[0] != PlusMinus(n) || out.Steps[0].Card != PlusMinus(n) {
				t.Fatalf("±%d: keepers %v discard %v", n, next.Players[0].Keepers, next.Discard)
			}
		}
	}
	s := game([2]int{95, 0}, [2]int{0, 0}).holding(0, PlusMinus(9))
	refuse(t, s, 0, `{"type":"keeper","card":"plus_minus_9","pawn":0,"sign":"+"}`, "illegal_step", "95 + 9 = 104 is past 101")
	refuse(t, s, 0, `{"type":"keeper","card":"plus_minus_9","pawn":1,"sign":"-"}`, "illegal_step", "0 − 9 = −9 is below 0")
	refuse(t, s, 0, `{"type":"keeper","card":"plus_minus_9","pawn":0}`, "invalid_step")
	refuse(t, s, 0, `{"type":"keeper","card":"plus_minus_8","pawn":0,"sign":"-"}`, "card_not_held", "±8")
	refuse(t, s, 0, `{"type":"keeper","card":"swap"}`, "not_a_keeper")
	refuse(t, s, 0, `{"type":"keeper","card":"plus_minus_10","pawn":0,"sign":"-"}`, "unknown_card")
	refuse(t, s, 1, `{"type":"keeper","card":"plus_minus_9","pawn":0,"sign":"-"}`, "not_your_turn")
}

func TestPC12_SendToStart(t *testing.T) {
	s := game([2]int{40, 12}, [2]int{33, 0}).holding(0, SendToStart, SendToStart)
	next, out := apply(t, s, 0, `{"type":"keeper","card":"send_to_start","target_seat":1,"pawn":0}`)
	wantPawns(t, next, 1, [2]int{0, 0})
	if *out.Steps[0].From != 33 || *out.Steps[0].TargetSeat != 1 {
		t.Fatalf("step %+v", out.Steps[0])
	}
	next, _ = apply(t, next, 0, `{"type":"keeper","card":"send_to_start","target_seat":0,"pawn":1}`)
	wantPawns(t, next, 0, [2]int{40, 0})
	refuse(t, s, 0, `{"type":"keeper","card":"send_to_start","target_seat":5,"pawn":1}`, "invalid_target")
	refuse(t, s, 0, `{"type":"keeper","card":"send_to_start","target_seat":1}`, "invalid_step")
}

func TestPC12_CurseLimitsTheNextTurnsDice(t *testing.T) {
	s := game([2]int{40, 0}, [2]int{30, 0}, [2]int{0, 0}).holding(0, Curse, Curse).rolled(1, 2)
	refuse(t, s, 0, `{"type":"keeper","card":"curse","target_seat":0}`, "invalid_target", "opponent")
	s, _ = apply(t, s, 0, `{"type":"keeper","card":"curse","target_seat":1}`)
	s, out := apply(t, s, 0, `{"type":"keeper","card":"curse","target_seat":1}`) // does not stack
	if out.Steps[0].Equation != "seat 1 was cursed already: two Curses do not stack" || !s.Players[1].CursedNext {
		t.Fatalf("second curse %+v", out.Steps[0])
	}
	s, out = apply(t, s, 0, `{"type":"move","steps":[{"die":1,"pawn":0,"op":"add"},{"die":2,"pawn":0,"op":"multiply"}]}`)
	if !out.NextCursed || !s.Turn.Cursed || s.Turn.Seat != 1 || s.Players[1].CursedNext {
		t.Fatalf("seat 1's turn is not cursed: %+v", s.Turn)
	}
	s = s.holding(1, PlusMinus(2)).rolled(3, 5)
	refuse(t, s, 1, `{"type":"move","steps":[{"die":3,"pawn":0,"op":"add"},{"die":5,"pawn":0,"op":"subtract"}]}`, "cursed")
	refuse(t, s, 1, `{"type":"move","steps":[{"die":3,"pawn":0,"op":"multiply"},{"die":5,"pawn":0,"op":"subtract"}]}`, "cursed")
	keeperInMove := false
	for _, la := range append(s.MoveOptions(), keeperMoves(&s)...) {
		la.spell()
		for _, st := range la.Action.Steps {
			keeperInMove = keeperInMove || st.isCard()
			if !st.isCard() && st.Op != OpSubtract && st.Op != OpDivide {
				t.Fatalf("cursed legal move %+v", la)
			}
		}
	}
	if !keeperInMove {
		t.Fatal("no cursed move plays the ±2 keeper: keepers are not limited")
	}
	s, _ = apply(t, s, 1, `{"type":"keeper","card":"plus_minus_2","pawn":0,"sign":"+"}`) // keepers are not limited
	s, _ = apply(t, s, 1, `{"type":"move","steps":[{"die":3,"pawn":0,"op":"subtract"},{"die":5,"pawn":0,"op":"subtract"}]}`)
	wantPawns(t, s, 1, [2]int{24, 0})
	if s.Turn.Cursed || s.Turn.Seat != 2 {
		t.Fatalf("curse leaked to seat %d", s.Turn.Seat)
	}
	// Seat 1's following turn is free again.
	s.Turn = Turn{}
	s.startTurn(1)
	if s.Turn.Cursed {
		t.Fatal("the curse lasted two turns")
	}
}

func TestPC12_KeeperNotPlayableOnTheTurnDrawn(t *testing.T) {
	next, _ := apply(t, drawAt(13, PlusMinus(1), [2]int{0, 0}), 0, moveTo)
	if !next.Players[0].Keepers[0].New {
		t.Fatal("a drawn keeper must be marked new")
	}
	// The same turn cannot continue, so show the rule on a state where the card is still new.
	s := game([2]int{50, 0}, [2]int{0, 0})
	s.Players[0].Keepers = []HeldCard{{Card: PlusMinus(1), New: true}}
	refuse(t, s, 0, `{"type":"keeper","card":"plus_minus_1","pawn":0,"sign":"+"}`, "card_drawn_this_turn", "next turn")
	if len(s.KeeperOptions()) != 0 {
		t.Fatal("a new keeper is listed as playable")
	}
	// At the owner's next turn it becomes playable.
	s.startTurn(0)
	if s.Players[0].Keepers[0].New || len(s.KeeperOptions()) != 3 { // 50 + 1, 50 − 1, 0 + 1
		t.Fatalf("keepers %+v", s.Players[0].Keepers)
	}
}
