package primeclimb

import "testing"

func TestPC5_StepsStayWholeAndWithinTheBoard(t *testing.T) {
	s := game([2]int{95, 37}, [2]int{0, 0}).deck().rolled(7, 3)
	refuse(t, s, 0, `{"type":"move","steps":[{"die":7,"pawn":0,"op":"add"}]}`, "illegal_step", "pawn 0 is on 95: 95 + 7 = 102 is past 101")
	refuse(t, s, 0, `{"type":"move","steps":[{"die":3,"pawn":1,"op":"multiply"}]}`, "illegal_step", "pawn 1 is on 37: 37 × 3 = 111 is past 101")
	refuse(t, s, 0, `{"type":"move","steps":[{"die":3,"pawn":1,"op":"divide"}]}`, "illegal_step", "37 ÷ 3 is not a whole number")
	z := game([2]int{3, 0}, [2]int{0, 0}).deck().rolled(7, 4)
	refuse(t, z, 0, `{"type":"move","steps":[{"die":7,"pawn":0,"op":"subtract"}]}`, "illegal_step", "3 − 7 = −4 is below 0")
	refuse(t, s, 0, `{"type":"move","steps":[{"die":9,"pawn":0,"op":"subtract"}]}`, "die_not_available", "no 9", "7, 3")
	refuse(t, s, 0, `{"type":"move","steps":[{"die":7,"pawn":0,"op":"subtract"},{"die":7,"pawn":0,"op":"subtract"}]}`, "die_not_available")
	refuse(t, s, 0, `{"type":"move","steps":[{"die":7,"pawn":0,"op":"power"}]}`, "invalid_step")
	refuse(t, s, 0, `{"type":"move","steps":[{"die":7,"op":"add"}]}`, "invalid_step")
	refuse(t, s, 0, `{"type":"move","steps":[{"die":7,"pawn":2,"op":"add"}]}`, "invalid_pawn")
	// An intermediate position out of range is refused even if a later step would bring it back.
	refuse(t, s, 0, `{"type":"move","steps":[{"die":7,"pawn":0,"op":"add"},{"die":3,"pawn":0,"op":"subtract"}]}`, "illegal_step", "step 1")

	// A pawn on 0 may be multiplied or divided: it stays on 0 and the die is used.
	next, out := apply(t, z, 0, `{"type":"move","steps":[{"die":7,"pawn":1,"op":"multiply"},{"die":4,"pawn":1,"op":"divide"}]}`)
	wantPawns(t, next, 0, [2]int{3, 0})
	if len(out.Steps) != 2 || *out.Steps[0].From != 0 || *out.Steps[0].To != 0 || out.Steps[1].Equation != "0 ÷ 4 = 0" || len(out.Unused) != 0 {
		t.Fatalf("steps %+v unused %v", out.Steps, out.Unused)
	}
	if next.Turn.Seat != 1 {
		t.Fatalf("turn did not pass: seat %d", next.Turn.Seat)
	}
}

func TestPC6_EveryDieMustBeUsed(t *testing.T) {
	s := game([2]int{30, 0}, [2]int{0, 0}).deck().rolled(7, 3)
	refuse(t, s, 0, `{"type":"move","steps":[{"die":7,"pawn":0,"op":"add"}]}`, "dice_unused", "your 3 can still be used", "pawn 0 on 37: 37 + 3 = 40")
	refuse(t, s, 0, `{"type":"move"}`, "dice_unused")
}

func TestPC6_WinWithDiceLeftDropsThem(t *testing.T) {
	s := game([2]int{101, 94}, [2]int{50, 0}).rolled(7, 3)
	next, out := apply(t, s, 0, `{"type":"move","steps":[{"die":7,"pawn":1,"op":"add"}]}`)
	if next.Phase != PhaseFinished || *out.Winner != 0 || len(out.Unused) != 1 || out.Unused[0] != 3 || out.NextSeat != nil {
		t.Fatalf("phase %s outcome %+v", next.Phase, out)
	}
	refuse(t, s, 0, `{"type":"move","steps":[{"die":7,"pawn":1,"op":"add"},{"die":3,"pawn":0,"op":"subtract"}]}`, "illegal_step", "already won")
}

func TestPC6_CurseMayLeaveUnusableUses(t *testing.T) {
	// Pawn on 3 under a Curse: 3 − 7 and 3 − 5 go below 0, 3 ÷ 7 and 3 ÷ 5 are fractions.
	s := game([2]int{101, 3}, [2]int{50, 0}).cursed().rolled(7, 5)
	next, out := apply(t, s, 0, `{"type":"move","steps":[]}`)
	if len(out.Unused) != 2 || next.Turn.Seat != 1 {
		t.Fatalf("unused %v", out.Unused)
	}
	// From 8: 8 − 7 = 1 leaves the 5 unusable; 8 − 5 = 3 leaves the 7 unusable. Either is a whole move.
	s = game([2]int{101, 8}, [2]int{50, 0}).cursed().rolled(7, 5)
	refuse(t, s, 0, `{"type":"move","steps":[]}`, "dice_unused", "8 − 7 = 1")
	_, out = apply(t, s, 0, `{"type":"move","steps":[{"die":7,"pawn":1,"op":"subtract"}]}`)
	if len(out.Unused) != 1 || out.Unused[0] != 5 {
		t.Fatalf("unused %v", out.Unused)
	}
	legal := s.MoveOptions()
	if len(legal) != 2 {
		t.Fatalf("want the two cursed moves, got %+v", legal)
	}
	refuse(t, s, 0, `{"type":"move","steps":[{"die":7,"pawn":1,"op":"add"}]}`, "cursed", "subtract or divide")
}

func TestPC7_HomePawnsNeverMove(t *testing.T) {
	s := game([2]int{101, 40}, [2]int{101, 30}).holding(0, PlusMinus(1), SendToStart).rolled(2, 3)
	refuse(t, s, 0, `{"type":"move","steps":[{"die":2,"pawn":0,"op":"subtract"}]}`, "pawn_home", "pawn 0 is home")
	refuse(t, s, 0, `{"type":"keeper","card":"plus_minus_1","pawn":0,"sign":"-"}`, "pawn_home")
	refuse(t, s, 0, `{"type":"keeper","card":"send_to_start","target_seat":1,"pawn":0}`, "invalid_target", "home")
	if got := s.swapCandidates(PawnRef{0, 1}); len(got) != 1 || got[0].TargetSeat != 1 || *got[0].Pawn != 1 {
		t.Fatalf("swap candidates %+v", got)
	}
	for _, la := range s.Legal(0) {
		for _, st := range la.Action.Steps {
			if *st.Pawn == 0 {
				t.Fatalf("legal move moves the home pawn: %+v", la)
			}
		}
	}
}

func TestPC8_StartHoldsAnyNumberOfPawns(t *testing.T) {
	s := game([2]int{7, 0}, [2]int{0, 0}).holding(0, SendToStart).rolled(7, 2)
	next, out := apply(t, s, 0, `{"type":"move","steps":[{"die":7,"pawn":0,"op":"subtract"},{"die":2,"pawn":1,"op":"multiply"}]}`)
	wantPawns(t, next, 0, [2]int{0, 0})
	wantPawns(t, next, 1, [2]int{0, 0})
	if len(out.Bumps) != 0 {
		t.Fatalf("bumps on Start: %+v", out.Bumps)
	}
	refuse(t, s, 0, `{"type":"keeper","card":"send_to_start","target_seat":1,"pawn":0}`, "invalid_target", "on Start already")
}

func TestPC9_BumpOnlyAtEndOfMove(t *testing.T) {
	// Seat 0 lands on 10 after the first die, where seat 1 stands, and leaves with the second: no bump.
	s := game([2]int{3, 0}, [2]int{10, 0}).deck().rolled(7, 5)
	next, out := apply(t, s, 0, `{"type":"move","steps":[{"die":7,"pawn":0,"op":"add"},{"die":5,"pawn":0,"op":"add"}]}`)
	wantPawns(t, next, 1, [2]int{10, 0})
	if len(out.Bumps) != 0 {
		t.Fatalf("bumps %+v", out.Bumps)
	}
	// Ending there bumps.
	next, out = apply(t, s, 0, `{"type":"move","steps":[{"die":5,"pawn":1,"op":"add"},{"die":7,"pawn":0,"op":"add"}]}`)
	wantPawns(t, next, 1, [2]int{0, 0})
	if len(out.Bumps) != 1 || out.Bumps[0] != (Bump{Seat: 1, Pawn: 0, From: 10}) {
		t.Fatalf("bumps %+v", out.Bumps)
	}
}

func TestPC9_PassingThroughDoesNotBump(t *testing.T) {
	// 20 + 9 passes over 25 where seat 1 stands.
	s := game([2]int{20, 0}, [2]int{25, 0}).deck().rolled(9, 1)
	next, out := apply(t, s, 0, `{"type":"move","steps":[{"die":9,"pawn":0,"op":"add"},{"die":1,"pawn":1,"op":"add"}]}`)
	wantPawns(t, next, 1, [2]int{25, 0})
	if len(out.Bumps) != 0 {
		t.Fatal(out.Bumps)
	}
}

func TestPC9_OwnPawnBumpLastMoverStays(t *testing.T) {
	// Pawn 1 joins pawn 0, which did not move: pawn 0 goes to Start.
	s := game([2]int{20, 11}, [2]int{0, 0}).deck().rolled(7, 2)
	next, out := apply(t, s, 0, `{"type":"move","steps":[{"die":7,"pawn":1,"op":"add"},{"die":2,"pawn":1,"op":"add"}]}`)
	wantPawns(t, next, 0, [2]int{0, 20})
	if len(out.Bumps) != 1 || out.Bumps[0] != (Bump{Seat: 0, Pawn: 0, From: 20}) {
		t.Fatalf("bumps %+v", out.Bumps)
	}
	// Both moved: the one that moved last stays, whichever it is.
	s = game([2]int{18, 13}, [2]int{0, 0}).deck().rolled(2, 7)
	next, _ = apply(t, s, 0, `{"type":"move","steps":[{"die":2,"pawn":0,"op":"add"},{"die":7,"pawn":1,"op":"add"}]}`)
	wantPawns(t, next, 0, [2]int{0, 20})
	next, _ = apply(t, s, 0, `{"type":"move","steps":[{"die":7,"pawn":1,"op":"add"},{"die":2,"pawn":0,"op":"add"}]}`)
	wantPawns(t, next, 0, [2]int{20, 0})
}

func TestPC9_HomeAndStartNeverBumped(t *testing.T) {
	s := game([2]int{91, 5}, [2]int{101, 0}).deck().rolled(10, 5)
	next, out := apply(t, s, 0, `{"type":"move","steps":[{"die":10,"pawn":0,"op":"add"},{"die":5,"pawn":1,"op":"subtract"}]}`)
	wantPawns(t, next, 0, [2]int{101, 0})
	wantPawns(t, next, 1, [2]int{101, 0})
	if len(out.Bumps) != 0 || next.Phase == PhaseFinished {
		t.Fatalf("bumps %+v phase %s", out.Bumps, next.Phase)
	}
}

func TestPC9_KeeperMovesArePartOfTheMove(t *testing.T) {
	// ±3 before the roll puts pawn 0 on 23 next to nobody; seat 1 on 26 is not bumped by the keeper
	// alone, only by where the move ends.
	s := game([2]int{20, 0}, [2]int{23, 26}).deck().holding(0, PlusMinus(3))
	s, out := apply(t, s, 0, `{"type":"keeper","card":"plus_minus_3","pawn":0,"sign":"+"}`)
	wantPawns(t, s, 1, [2]int{23, 26})
	if len(out.Steps) != 1 || *out.Steps[0].To != 23 || len(out.Bumps) != 0 {
		t.Fatalf("keeper outcome %+v", out)
	}
	s, _ = apply(t, s, 0, `{"type":"roll"}`, 0, 1) // 1 and 2
	// Pawn 0 stays on 23 (× 1) and pawn 1 uses the 2: the keeper-moved pawn bumps at the end.
	next, out := apply(t, s, 0, `{"type":"move","steps":[{"die":1,"pawn":0,"op":"multiply"},{"die":2,"pawn":1,"op":"multiply"}]}`)
	wantPawns(t, next, 1, [2]int{0, 26})
	if len(out.Bumps) != 1 {
		t.Fatalf("bumps %+v", out.Bumps)
	}
	// A keeper between dice steps inside the move.
	s = game([2]int{20, 0}, [2]int{0, 26}).deck().holding(0, PlusMinus(4)).rolled(1, 2)
	next, out = apply(t, s, 0, `{"type":"move","steps":[{"die":2,"pawn":0,"op":"add"},{"card":"plus_minus_4","pawn":0,"sign":"+"},{"die":1,"pawn":1,"op":"multiply"}]}`)
	wantPawns(t, next, 0, [2]int{26, 0})
	wantPawns(t, next, 1, [2]int{0, 0})
	if len(out.Steps) != 3 || out.Steps[1].Card != PlusMinus(4) || len(next.Discard) != 1 {
		t.Fatalf("steps %+v discard %v", out.Steps, next.Discard)
	}
}
