package api_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"

	"primegames.dev/client"
)

// The classroom review's Primed games: students play them with a few deliberate mistakes, and every
// counter the statistics report is worked out here from the actions sent and the outcomes got.

func isPrimeNumber(n int) bool {
	if n < 2 {
		return false
	}
	for d := 2; d*d <= n; d++ {
		if n%d == 0 {
			return false
		}
	}
	return true
}

// playPrimed plays a Primed game to its end. Along the way it sends refused actions: plays whose sum
// is not prime (twice when many), a draw while a play exists, and an action out of turn. With snaps,
// it keeps the teacher's view after every entry and checks the teacher sees every hand and the
// students see only their own.
func (r *review) playPrimed(tb *table, many bool, snaps *[]crSnapshot) {
	t := r.t
	t.Helper()
	player := greedyPlayer(t, "primed")
	notPrime, wantNotPrime := 0, 1
	if many {
		wantNotPrime = 2
	}
	drawRefused, outOfTurn := false, false
	roundScores := make([]int, len(tb.tokens))
	for n := 0; tb.game.Status == "active"; n++ {
		if n >= 3000 {
			t.Fatalf("Primed game not over after %d actions", n)
		}
		seat := tb.toAct()
		legal := tb.legal(seat)
		hasPlay := slices.ContainsFunc(legal, func(raw json.RawMessage) bool {
			var la primedLegal
			return json.Unmarshal(raw, &la) == nil && bytes.Contains(la.Action, []byte(`"play"`))
		})
		phase := tb.game.Turn.Phase
		switch {
		case phase == "play" && notPrime < wantNotPrime && n >= 2+5*notPrime:
			var v client.PrimedView
			if err := json.Unmarshal(stateOf(tb.get(tb.tokens[seat])), &v); err != nil {
				t.Fatal(err)
			}
			top := v.PrimedPile[len(v.PrimedPile)-1]
			for _, c := range *v.Hands[seat].Cards {
				if !isPrimeNumber(top + c) {
					r.refuse(tb, seat, fmt.Sprintf(`{"type":"play","cards":[%d]}`, c), http.StatusUnprocessableEntity, "not_prime")
					r.studentAt(tb, seat).mistake("primed", "not_prime_totals", strconv.Itoa(top+c), 1) // PR-4
					notPrime++
					break
				}
			}
		case phase == "play" && hasPlay && !drawRefused && n >= 4:
			r.refuse(tb, seat, `{"type":"draw"}`, http.StatusUnprocessableEntity, "play_available")
			drawRefused = true
		case !outOfTurn && n >= 7:
			r.refuse(tb, (seat+1)%len(tb.tokens), `{"type":"draw"}`, http.StatusConflict, "not_your_turn")
			outOfTurn = true
		}

		var pick primedLegal
		choose(t, player, legal, tb.rng, &pick)
		e, g := tb.act(seat, pick.Action)
		r.countPrimed(tb, seat, pick.Action, e.Outcome, roundScores)

		if snaps != nil && n == 12 && g.Status == "active" {
			r.checkTeacherHistory(tb)
		}
		if snaps != nil {
			resp := r.get(tb.path(""), nil)
			var fg client.Game
			resp.JSON(t, &fg)
			if fg.State == nil {
				t.Fatalf("seq %d: the teacher's Primed view is null", e.Seq)
			}
			*snaps = append(*snaps, crSnapshot{seq: e.Seq, state: fg.State})
			if g.Status == "active" {
				var v client.PrimedView
				if err := json.Unmarshal(fg.State, &v); err != nil {
					t.Fatal(err)
				}
				for _, hand := range v.Hands {
					if hand.Cards == nil || len(*hand.Cards) != hand.Size {
						t.Errorf("seq %d: the teacher's view does not show seat %d's hand (size %d)", e.Seq, hand.Seat, hand.Size)
					}
				}
				if !field(t, fg.State, "draw_pile", nil) && v.DrawPileSize > 0 {
					t.Errorf("seq %d: the teacher's view does not show the draw pile", e.Seq)
				}
				for s, token := range tb.tokens {
					if leaks := hiddenLeaks(s, r.h.Get(tb.path(""), bearer(token)...).Body); len(leaks) > 0 {
						t.Errorf("seq %d: seat %d's view shows hidden cards: %v", e.Seq, s, leaks)
					}
				}
			}
		}
	}
	if notPrime != wantNotPrime || !drawRefused || !outOfTurn {
		t.Errorf("game %s: refused %d not_prime plays (want %d), draw refused %v, out of turn %v", tb.id, notPrime, wantNotPrime, drawRefused, outOfTurn)
	}
}

// checkTeacherHistory reads a running game's history as the teacher: every hand dealt and every card
// drawn is shown.
func (r *review) checkTeacherHistory(tb *table) {
	t := r.t
	t.Helper()
	items := tb.history(r.class.teacher, 50)
	if int64(len(items)) != tb.seq+1 {
		t.Fatalf("the teacher's history has %d entries, want %d", len(items), tb.seq+1)
	}
	deals, dealt, drawn := 0, 0, 0
	for _, raw := range items {
		var e client.HistoryEntry
		if err := json.Unmarshal(raw, &e); err != nil {
			t.Fatal(err)
		}
		var out client.PrimedOutcome
		if err := json.Unmarshal(e.Outcome, &out); err != nil {
			t.Fatal(err)
		}
		if out.Dealt != nil {
			deals++
			for seat, hand := range out.Dealt.Hands {
				dealt++
				if hand == nil || len(*hand) != out.Dealt.HandSizes[seat] {
					t.Errorf("entry %d: the teacher's history hides the hand dealt to seat %d", e.Seq, seat)
				}
			}
		}
		if out.Drew != nil {
			drawn++
			if out.Drew.Card == nil {
				t.Errorf("entry %d: the teacher's history hides the card seat %d drew", e.Seq, out.Drew.Seat)
			}
		}
	}
	// The start deals the first round; a round that ended early (the cards decide) dealt the next.
	if deals == 0 || dealt != deals*len(tb.tokens) {
		t.Errorf("the teacher's history holds %d dealt hands in %d deals, want %d in each", dealt, deals, len(tb.tokens))
	}
	t.Logf("teacher's history at entry %d: %d hands dealt, %d cards drawn, all shown", tb.seq, dealt, drawn)
}

// countPrimed adds what one accepted Primed action did: plays and cards from the action sent, the
// rest from the outcome in the response.
func (r *review) countPrimed(tb *table, seat int, action json.RawMessage, raw json.RawMessage, roundScores []int) {
	t := r.t
	t.Helper()
	var a struct {
		Type  string `json:"type"`
		Cards []int  `json:"cards"`
	}
	if err := json.Unmarshal(action, &a); err != nil {
		t.Fatal(err)
	}
	var out client.PrimedOutcome
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	me := r.studentAt(tb, seat)
	if a.Type == "play" {
		me.primed["plays"]++
		me.primed["cards_played"] += len(a.Cards)
		if out.Played == nil || out.Played.Seat != seat || !slices.Equal(out.Played.Cards, a.Cards) {
			t.Errorf("play %v by seat %d: outcome played %+v", a.Cards, seat, out.Played)
		}
	}
	if out.Drew != nil {
		r.studentAt(tb, out.Drew.Seat).primed["draws"]++
	}
	if out.Passed != nil {
		r.studentAt(tb, out.Passed.Seat).primed["passes"]++
	}
	if re := out.RoundEnded; re != nil {
		for s, score := range re.Scores {
			st := r.studentAt(tb, s)
			st.primed["rounds"]++
			st.primed["round_score_total"] += score
			roundScores[s] += score
		}
		if re.WentOut != nil {
			r.studentAt(tb, *re.WentOut).primed["went_out"]++
		}
	}
	if out.GameEnded != nil && !slices.Equal(out.GameEnded.Totals, roundScores) {
		t.Errorf("game %s ended with totals %v; its round scores add up to %v", tb.id, out.GameEnded.Totals, roundScores)
	}
}
