package primeclimb

import "testing"

func TestPC13_RollAgain(t *testing.T) {
	next, out := apply(t, drawAt(13, RollAgain), 0, moveTo)
	if *out.NextSeat != 0 || next.Turn.Seat != 0 || next.Phase != PhaseRoll || next.TurnNumber != 2 || next.Discard[0] != RollAgain {
		t.Fatalf("next %d phase %s", next.Turn.Seat, next.Phase)
	}
	next, _ = apply(t, next.rolled(1, 2), 0, `{"type":"move","steps":[{"die":1,"pawn":1,"op":"add"},{"die":2,"pawn":1,"op":"multiply"}]}`)
	if next.Turn.Seat != 1 {
		t.Fatal("Roll Again gave more than one extra turn")
	}
}

func TestPC13_PlusMinus50(t *testing.T) {
	next, _ := apply(t, drawAt(37, PlusMinus50), 0, moveTo)
	wantPawns(t, next, 0, [2]int{87, 0})
	next, _ = apply(t, drawAt(53, PlusMinus50), 0, moveTo)
	wantPawns(t, next, 0, [2]int{3, 0})
}

func TestPC13_DoubleOrBack10(t *testing.T) {
	next, _ := apply(t, drawAt(23, DoubleOrBack10), 0, moveTo)
	wantPawns(t, next, 0, [2]int{46, 0})
	next, _ = apply(t, drawAt(59, DoubleOrBack10, [2]int{49, 0}), 0, moveTo)
	wantPawns(t, next, 0, [2]int{49, 0})
	wantPawns(t, next, 1, [2]int{0, 0}) // bumped by the card
}

func TestPC13_AdvanceToNearestPawn(t *testing.T) {
	next, out := apply(t, drawAt(37, AdvanceToNearestPawn, [2]int{60, 45}), 0, moveTo)
	wantPawns(t, next, 0, [2]int{45, 0})
	wantPawns(t, next, 1, [2]int{60, 0})
	if len(out.Draw.Bumps) != 1 || out.Draw.Bumps[0] != (Bump{Seat: 1, Pawn: 1, From: 45}) {
		t.Fatalf("card bumps %+v", out.Draw.Bumps)
	}
	next, out = apply(t, drawAt(37, AdvanceToNearestPawn, [2]int{20, 101}), 0, moveTo)
	wantPawns(t, next, 0, [2]int{37, 0})
	if len(out.Draw.Moves) != 0 || out.Draw.Effect == "" {
		t.Fatalf("no pawn ahead: %+v", out.Draw)
	}
}

func TestPC13_ReverseToNearestPawn(t *testing.T) {
	next, _ := apply(t, drawAt(37, ReverseToNearestPawn, [2]int{20, 30}), 0, moveTo)
	wantPawns(t, next, 0, [2]int{30, 0})
	wantPawns(t, next, 1, [2]int{20, 0})
	next, out := apply(t, drawAt(37, ReverseToNearestPawn, [2]int{0, 40}), 0, moveTo)
	wantPawns(t, next, 0, [2]int{37, 0})
	if len(out.Draw.Moves) != 0 {
		t.Fatalf("no pawn behind: %+v", out.Draw)
	}
}

func TestPC13_ReverseDigits(t *testing.T) {
	next, _ := apply(t, drawAt(37, ReverseDigits), 0, moveTo)
	wantPawns(t, next, 0, [2]int{73, 0})
	next, _ = apply(t, drawAt(11, ReverseDigits), 0, moveTo)
	wantPawns(t, next, 0, [2]int{11, 0})
}

func TestPC13_GoTo64(t *testing.T) {
	next, out := apply(t, drawAt(37, GoTo64, [2]int{64, 0}), 0, moveTo)
	wantPawns(t, next, 0, [2]int{64, 0})
	wantPawns(t, next, 1, [2]int{0, 0})
	if len(out.Draw.Bumps) != 1 {
		t.Fatalf("bumps %+v", out.Draw.Bumps)
	}
}

func TestPC13_SwapWithOneCandidateApplies(t *testing.T) {
	next, out := apply(t, drawAt(37, Swap, [2]int{80, 101}), 0, moveTo)
	wantPawns(t, next, 0, [2]int{80, 0})
	wantPawns(t, next, 1, [2]int{37, 101})
	if len(out.Draw.Moves) != 2 || next.Phase != PhaseRoll {
		t.Fatalf("draw %+v", out.Draw)
	}
	next, out = apply(t, drawAt(37, Swap, [2]int{0, 101}), 0, moveTo) // no candidate: no effect
	wantPawns(t, next, 0, [2]int{37, 0})
	if len(out.Draw.Moves) != 0 || next.Discard[0] != Swap {
		t.Fatalf("draw %+v", out.Draw)
	}
}

func TestPC13_SwapWithSeveralCandidatesWaitsInResolve(t *testing.T) {
	s := drawAt(37, Swap, [2]int{80, 5})
	s.Players[0].Pawns[1] = 20
	s.Turn.StartPawns[1] = 20
	next, out := apply(t, s, 0, moveTo)
	if next.Phase != PhaseResolve || !out.Draw.Pending || out.NextSeat != nil || len(next.Turn.Pending.Candidates) != 3 {
		t.Fatalf("phase %s pending %+v", next.Phase, next.Turn.Pending)
	}
	if st := next.Status(); st.Phase != "resolve" || st.ToAct[0] != 0 {
		t.Fatalf("status %+v", st)
	}
	legal := next.Legal(0)
	if len(legal) != 3 || legal[0].Type != ActChoose {
		t.Fatalf("legal %+v", legal)
	}
	refuse(t, next, 0, `{"type":"choose","target_seat":1,"pawn":1,"card":"swap"}`, "invalid_action")
	refuse(t, next, 0, `{"type":"choose","target_seat":2,"pawn":0}`, "invalid_target", "pawn 0 of seat 1 (on 80)")
	refuse(t, next, 0, `{"type":"roll"}`, "wrong_phase", "Swap")
	refuse(t, next, 0, `{"type":"keeper","card":"curse","target_seat":1}`, "wrong_phase")
	done, out := apply(t, next, 0, `{"type":"choose","target_seat":1,"pawn":1}`)
	wantPawns(t, done, 0, [2]int{5, 20})
	wantPawns(t, done, 1, [2]int{80, 37})
	if done.Phase != PhaseRoll || *out.NextSeat != 1 || done.Discard[0] != Swap || done.Turn.Pending != nil {
		t.Fatalf("after choose: %+v", out)
	}
}

func TestPC13_Steal(t *testing.T) {
	s := drawAt(37, Steal, [2]int{0, 0}, [2]int{0, 0})
	next, out := apply(t, s, 0, moveTo) // nobody holds a keeper
	if out.Draw.Stolen != nil || next.Phase != PhaseRoll {
		t.Fatalf("draw %+v", out.Draw)
	}
	one := s.holding(2, Curse)
	next, out = apply(t, one, 0, moveTo)
	if out.Draw.Stolen == nil || *out.Draw.Stolen != (Stolen{FromSeat: 2, Card: Curse}) || len(next.Players[2].Keepers) != 0 || !next.Players[0].Keepers[0].New {
		t.Fatalf("draw %+v", out.Draw)
	}
	several := s.holding(1, SendToStart, SendToStart).holding(2, Curse)
	next, _ = apply(t, several, 0, moveTo)
	if next.Phase != PhaseResolve || len(next.Turn.Pending.Candidates) != 2 {
		t.Fatalf("pending %+v", next.Turn.Pending)
	}
	next, out = apply(t, next, 0, `{"type":"choose","target_seat":1,"card":"send_to_start"}`)
	if len(next.Players[1].Keepers) != 1 || len(next.Players[0].Keepers) != 1 || out.Draw.Stolen.FromSeat != 1 {
		t.Fatalf("after steal %+v", next.Players)
	}
}

func TestPC14_WinEndsTheGame(t *testing.T) {
	s := game([2]int{101, 91}, [2]int{50, 0}).holding(1, PlusMinus(1)).rolled(10, 4)
	won, out := apply(t, s, 0, `{"type":"move","steps":[{"die":10,"pawn":1,"op":"add"}]}`)
	st := won.Status()
	if !st.Finished || len(st.Winners) != 1 || st.Winners[0] != 0 || len(st.ToAct) != 0 || *out.Winner != 0 || *won.Winner != 0 {
		t.Fatalf("status %+v", st)
	}
	for seat, action := range map[int]string{0: `{"type":"roll"}`, 1: `{"type":"keeper","card":"plus_minus_1","pawn":0,"sign":"+"}`} {
		refuse(t, won, seat, action, "game_over", "seat 0 has won")
	}
	refuse(t, won, 0, `garbage`, "game_over")
	if len(won.Legal(0)) != 0 || len(won.Legal(1)) != 0 {
		t.Fatal("a finished game lists actions")
	}
	// A keeper can win before the roll.
	k := game([2]int{101, 96}, [2]int{0, 0}).holding(0, PlusMinus(5))
	won, _ = apply(t, k, 0, `{"type":"keeper","card":"plus_minus_5","pawn":1,"sign":"+"}`)
	if won.Phase != PhaseFinished {
		t.Fatal("keeper win did not finish the game")
	}
}
