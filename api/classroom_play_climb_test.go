package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"

	"primegames.dev/client"
)

// The classroom review's Prime Climb game: played to the end with a few refused steps, counted here
// independently of the server's tally.

// illegalClimbStep finds a die step that breaks the board for the mover's view: past 101, below 0,
// or a division that is not whole.
func illegalClimbStep(v client.PrimeClimbView, seat int) (action, kind string, ok bool) {
	for _, d := range v.Uses {
		for pawn, at := range v.Players[seat].Pawns {
			if at == 101 {
				continue
			}
			switch {
			case !v.Cursed && at*d > 101:
				return fmt.Sprintf(`{"type":"move","steps":[{"die":%d,"pawn":%d,"op":"multiply"}]}`, d, pawn), "multiply_past_101", true
			case at-d < 0:
				return fmt.Sprintf(`{"type":"move","steps":[{"die":%d,"pawn":%d,"op":"subtract"}]}`, d, pawn), "subtract_below_0", true
			case at%d != 0:
				return fmt.Sprintf(`{"type":"move","steps":[{"die":%d,"pawn":%d,"op":"divide"}]}`, d, pawn), "divide_not_whole", true
			}
		}
	}
	return "", "", false
}

// playClimb plays the Prime Climb game to its end with a move before rolling, an action out of turn
// and two impossible steps along the way; it returns the teacher's view every 40 entries.
func (r *review) playClimb(tb *table) []crSnapshot {
	t := r.t
	t.Helper()
	var snaps []crSnapshot
	player := greedyPlayer(t, "prime-climb")
	wrongPhase, outOfTurn, badSteps := false, false, 0
	for n := 0; tb.game.Status == "active"; n++ {
		if n >= 3000 {
			t.Fatalf("Prime Climb game not over after %d actions", n)
		}
		seat := tb.toAct()
		phase := tb.game.Turn.Phase
		switch {
		case phase == "roll" && !wrongPhase && n >= 3:
			r.refuse(tb, seat, `{"type":"move","steps":[{"die":2,"pawn":0,"op":"add"}]}`, http.StatusUnprocessableEntity, "wrong_phase")
			wrongPhase = true
		case phase == "roll" && !outOfTurn && n >= 8:
			r.refuse(tb, (seat+1)%len(tb.tokens), `{"type":"roll"}`, http.StatusConflict, "not_your_turn")
			outOfTurn = true
		case phase == "move" && badSteps < 2 && n >= 5+6*badSteps:
			var v client.PrimeClimbView
			if err := json.Unmarshal(stateOf(tb.get(tb.tokens[seat])), &v); err != nil {
				t.Fatal(err)
			}
			if action, kind, ok := illegalClimbStep(v, seat); ok {
				r.refuse(tb, seat, action, http.StatusUnprocessableEntity, "illegal_step")
				r.studentAt(tb, seat).mistake("prime-climb", "illegal_steps", kind, 1) // PC-5
				badSteps++
			}
		}
		legal := tb.legal(seat)
		if len(legal) == 0 {
			t.Fatalf("seq %d: seat %d is to act but has no legal action", tb.seq, seat)
		}
		var pick climbLegal
		choose(t, player, legal, tb.rng, &pick)
		e, g := tb.act(seat, pick.Action)
		r.countClimb(tb, seat, pick.Action, e.Outcome)
		// The first step, every 40th and the last: a short game (dice decide) still keeps some.
		if e.Seq == 1 || e.Seq%40 == 0 || g.Status != "active" {
			var fg client.Game
			r.get(tb.path(""), &fg)
			if fg.State == nil {
				t.Fatalf("seq %d: the teacher's Prime Climb view is null", e.Seq)
			}
			if fg.Status == "active" && !field(t, fg.State, "deck", nil) {
				t.Errorf("seq %d: the teacher's Prime Climb view has no deck", e.Seq)
			}
			snaps = append(snaps, crSnapshot{seq: e.Seq, state: fg.State})
		}
	}
	if !wrongPhase || !outOfTurn || badSteps != 2 {
		t.Errorf("Prime Climb: move before rolling refused %v, out of turn %v, %d impossible steps (want 2)", wrongPhase, outOfTurn, badSteps)
	}
	return snaps
}

// countClimb adds what one accepted Prime Climb action did: turns, dice operations and keepers from
// the action sent; cards drawn and bumps from the outcome in the response.
func (r *review) countClimb(tb *table, seat int, action json.RawMessage, raw json.RawMessage) {
	t := r.t
	t.Helper()
	var a struct {
		Type       string                  `json:"type"`
		Steps      []client.PrimeClimbStep `json:"steps"`
		Card       *client.PrimeClimbCard  `json:"card"`
		TargetSeat *int                    `json:"target_seat"`
	}
	if err := json.Unmarshal(action, &a); err != nil {
		t.Fatal(err)
	}
	var out client.PrimeClimbOutcome
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	me := r.studentAt(tb, seat)
	bump := func(victim int) {
		if victim == seat {
			me.climb["own_bumps"]++
			return
		}
		me.climb["bumps_given"]++
		r.studentAt(tb, victim).climb["bumps_taken"]++
	}
	keeper := func(card *client.PrimeClimbCard, target *int) {
		me.climb["keepers_played"]++
		if card == nil {
			return
		}
		switch *card {
		case "curse":
			r.studentAt(tb, *target).climb["curses_received"]++
		case "send_to_start":
			bump(*target)
		}
	}
	switch a.Type {
	case "move":
		me.climb["turns"]++
		for _, st := range a.Steps {
			if die, err := st.AsPrimeClimbDieStep(); err == nil && die.Die != 0 {
				me.climb["op_"+string(die.Op)]++
			} else {
				var k struct {
					Card       client.PrimeClimbCard `json:"card"`
					TargetSeat *int                  `json:"target_seat"`
				}
				raw, err := st.MarshalJSON()
				if err == nil {
					err = json.Unmarshal(raw, &k)
				}
				if err != nil {
					t.Fatal(err)
				}
				keeper(&k.Card, k.TargetSeat)
			}
		}
		if out.Draw != nil && out.Draw.Card != nil {
			me.climb["cards_drawn"]++
		}
	case "keeper":
		keeper(a.Card, a.TargetSeat)
	}
	for _, b := range out.Bumps {
		bump(b.Seat)
	}
	if out.Draw != nil {
		for _, b := range out.Draw.Bumps {
			bump(b.Seat)
		}
	}
}
