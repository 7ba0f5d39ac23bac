package primeclimb

import (
	"encoding/json"
	"testing"

	"primegames/domain"
)

func TestPC1_SeatsOptionsAndStart(t *testing.T) {
	canon, seats, err := Rules.Options(nil)
	if err != nil || string(canon) != `{"prime_cards":true}` || seats != (domain.SeatRange{Min: 1, Max: 4}) {
		t.Fatalf("Options(nil) = %s %v %v", canon, seats, err)
	}
	if canon, _, _ := Rules.Options(json.RawMessage(` {"prime_cards": false} `)); string(canon) != `{"prime_cards":false}` {
		t.Fatalf("canonical %s", canon)
	}
	for _, bad := range []string{`{"cards":true}`, `[]`, `{"prime_cards":1}`, `{} {}`} {
		if _, _, err := Rules.Options(json.RawMessage(bad)); domain.ErrorKind(err) != domain.KindInvalid {
			t.Errorf("options %s: %v", bad, err)
		}
	}
	for _, n := range []int{0, 5} {
		if _, _, err := Rules.Start(nil, n, domain.NewTape(nil)); domain.ErrorCode(err) != "invalid_seats" {
			t.Errorf("%d seats: %v", n, err)
		}
	}
	values := []int{0, 0, 1, 1, 2, 2, 3, 3} // seat 3 rolls 4+4
	st, _, err := Rules.Start(nil, 4, domain.NewTape(append(values, shuffleZeros(24)...)))
	if err != nil {
		t.Fatal(err)
	}
	s := st.(State)
	for seat := range 4 {
		wantPawns(t, s, seat, [2]int{0, 0})
	}
	if len(s.Deck) != 24 || s.Turn.Seat != 3 || s.Phase != PhaseRoll {
		t.Fatalf("start: deck %d seat %d phase %s", len(s.Deck), s.Turn.Seat, s.Phase)
	}
	if Rules.Name() != "prime-climb" {
		t.Fatal(Rules.Name())
	}
}

func TestPC2_RollOffTiesRollAgainAndIsRecorded(t *testing.T) {
	tape := []int{9, 9, 2, 2, 9, 9, 0, 0, 1, 0} // 20, 6, 20; then seat 0: 2, seat 2: 3
	st, out, err := Rules.Start(json.RawMessage(`{"prime_cards":false}`), 3, domain.NewTape(tape))
	if err != nil {
		t.Fatal(err)
	}
	o := out.(*Outcome)
	if len(o.RollOff) != 2 || len(o.RollOff[0].Rolls) != 3 || len(o.RollOff[1].Rolls) != 2 {
		t.Fatalf("roll-off %+v", o.RollOff)
	}
	if r := o.RollOff[1].Rolls[1]; r.Seat != 2 || r.Dice != [2]int{2, 1} || r.Total != 3 {
		t.Fatalf("second round %+v", r)
	}
	s := st.(State)
	if s.Turn.Seat != 2 || *o.NextSeat != 2 {
		t.Fatalf("first seat %d", s.Turn.Seat)
	}
	// Seat order from the first player: 2 → 0.
	s = s.rolled(1, 2)
	s, out2 := apply(t, s, 2, `{"type":"move","steps":[{"die":1,"pawn":0,"op":"add"},{"die":2,"pawn":0,"op":"add"}]}`)
	if s.Turn.Seat != 0 || *out2.NextSeat != 0 {
		t.Fatalf("after seat 2 comes seat %d", s.Turn.Seat)
	}
	// A single player needs no roll-off and, without cards, draws nothing at all.
	if _, out, err := Rules.Start(json.RawMessage(`{"prime_cards":false}`), 1, domain.NewTape(nil)); err != nil || len(out.(*Outcome).RollOff) != 0 {
		t.Fatalf("solo start: %v", err)
	}
}

func TestPC3_TenSidedDiceAndDoubles(t *testing.T) {
	s := game([2]int{0, 0}, [2]int{0, 0})
	next, out := apply(t, s, 0, `{"type":"roll"}`, 9, 2)
	if len(out.Dice) != 2 || out.Dice[0] != 10 || out.Dice[1] != 3 || len(next.Turn.Uses) != 2 || next.Phase != PhaseMove {
		t.Fatalf("dice %v uses %v", out.Dice, next.Turn.Uses)
	}
	next, out = apply(t, s, 0, `{"type":"roll"}`, 4, 4)
	if len(out.Uses) != 4 || next.Turn.Uses[3] != 5 {
		t.Fatalf("doubles give four uses, got %v", out.Uses)
	}
	refuse(t, s, 0, `{"type":"roll","dice":[6,6]}`, "invalid_action")
	// Doubles: all four uses must be spent.
	d := s.rolled(5, 5, 5, 5)
	refuse(t, d, 0, `{"type":"move","steps":[{"die":5,"pawn":0,"op":"add"},{"die":5,"pawn":0,"op":"add"}]}`, "dice_unused")
	d, _ = apply(t, d, 0, `{"type":"move","steps":[{"die":5,"pawn":0,"op":"add"},{"die":5,"pawn":0,"op":"add"},{"die":5,"pawn":1,"op":"add"},{"die":5,"pawn":0,"op":"multiply"}]}`)
	wantPawns(t, d, 0, [2]int{50, 5})
}

func TestPC4_PhasesInOrder(t *testing.T) {
	s := game([2]int{0, 0}, [2]int{0, 0}).holding(0, PlusMinus(2))
	refuse(t, s, 0, `{"type":"move","steps":[]}`, "wrong_phase", "roll first")
	refuse(t, s, 0, `{"type":"choose","target_seat":1,"pawn":0}`, "wrong_phase")
	s, _ = apply(t, s, 0, `{"type":"keeper","card":"plus_minus_2","pawn":0,"sign":"+"}`) // before the roll
	s, _ = apply(t, s, 0, `{"type":"roll"}`, 0, 1)
	refuse(t, s, 0, `{"type":"roll"}`, "wrong_phase", "1, 2")
	if s.Status().Phase != "move" || s.Status().ToAct[0] != 0 {
		t.Fatalf("status %+v", s.Status())
	}
	refuse(t, s, 1, `{"type":"roll"}`, "not_your_turn")
	refuse(t, s, 0, `{"type":"dance"}`, "invalid_action")
	refuse(t, s, 0, `not json`, "invalid_action")
}
