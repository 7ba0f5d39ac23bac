package api_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"testing"

	"primegames.dev/client"
	"primegames/api/apitest"
	"primegames/domain/players"
	"primegames/repo/repotest"
)

// End-to-end games of Primed over real HTTP (see play_test.go), with the PR-8 checks that no seat's
// view or history shows another seat's hidden cards.

// primedLegal is one entry of PrimedLegalActions with its action left raw, to be posted back byte for
// byte (client.PrimedLegalAction holds it as a union that re-encodes it).
type primedLegal struct {
	Action json.RawMessage `json:"action"`
}

// checkPrimedView checks what viewer (a seat, or -1 for the public) sees of the table while the
// game runs (PR-8): only their own hand, never the draw pile, the drawn card only when they drew it;
// and every card of the deck is somewhere.
func checkPrimedView(t *testing.T, seq int64, viewer int, raw json.RawMessage) client.PrimedView {
	t.Helper()
	var v client.PrimedView
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	if v.Phase == "finished" {
		return v
	}
	for j, h := range v.Hands {
		switch {
		case j != viewer && h.Cards != nil:
			t.Errorf("PR-8: seq %d: the view for viewer %d shows seat %d's hand %v", seq, viewer, j, *h.Cards)
		case j == viewer && (h.Cards == nil || len(*h.Cards) != h.Size):
			t.Errorf("PR-8: seq %d: seat %d's own view of its hand: cards %v, size %d", seq, viewer, h.Cards, h.Size)
		}
	}
	if field(t, raw, "draw_pile", nil) {
		t.Errorf("PR-8: seq %d: the view for viewer %d shows the draw pile", seq, viewer)
	}
	drawer := v.Phase == "drawn" && slices.Equal(v.ToAct, []client.PrimedSeat{viewer})
	if has := field(t, raw, "drawn_card", nil); has != drawer {
		t.Errorf("PR-8: seq %d: viewer %d, phase %s, to_act %v: drawn_card shown = %v", seq, viewer, v.Phase, v.ToAct, has)
	}
	total := len(v.PrimedPile) + v.DrawPileSize
	for _, h := range v.Hands {
		total += h.Size
	}
	var deck client.PrimedOptionsDeck // the canonical options a view shows have every field
	if v.Options.Deck != nil {
		deck = *v.Options.Deck
	}
	want := map[client.PrimedOptionsDeck]int{"primed": 68, "standard": 40}[deck] // PR-2
	if total != want {
		t.Errorf("seq %d: hands, Primed pile and draw pile hold %d cards, want the %s deck's %d", seq, total, deck, want)
	}
	return v
}

// checkPrimedHistory checks the history as viewer sees it while the game runs: no random values
// (G-1), no card another seat drew, no hand dealt to another seat (PR-8).
func checkPrimedHistory(t *testing.T, viewer int, items []json.RawMessage) {
	t.Helper()
	for _, raw := range items {
		var e client.HistoryEntry
		if err := json.Unmarshal(raw, &e); err != nil {
			t.Fatal(err)
		}
		if e.Random != nil {
			t.Errorf("G-1: viewer %d sees the random values %v of entry %d while the game runs", viewer, *e.Random, e.Seq)
		}
		var out client.PrimedOutcome
		if err := json.Unmarshal(e.Outcome, &out); err != nil {
			t.Fatal(err)
		}
		if d := out.Drew; d != nil && (d.Card != nil) != (d.Seat == viewer) {
			t.Errorf("PR-8: entry %d seen by viewer %d: seat %d drew, drew.card = %s", e.Seq, viewer, d.Seat, cardText(d.Card))
		}
		if d := out.Dealt; d != nil {
			for j, h := range d.Hands {
				if j != viewer && h != nil {
					t.Errorf("PR-8: entry %d seen by viewer %d shows the hand dealt to seat %d: %v", e.Seq, viewer, j, *h)
				}
				if j == viewer && (h == nil || len(*h) != d.HandSizes[j]) {
					t.Errorf("PR-8: entry %d: seat %d does not see its own dealt hand: %v", e.Seq, viewer, h)
				}
			}
		}
	}
}

func cardText(c *int) string {
	if c == nil {
		return "absent"
	}
	return fmt.Sprint(*c)
}

// One whole game of Primed over HTTP, in the variant with most to check: the Primed deck, several
// cards a play (PR-5), four players. The rules of every variant are tested in domain/primed; the
// long tier plays every variant over HTTP too (TestLongPlayFullPrimedGamesOfEveryVariant).
func TestPlayFullPrimedGame(t *testing.T) {
	t.Parallel()
	db := repotest.NewDB(t)
	s := apitest.Start(t, newServer(t, db))
	opts := map[string]any{"deck": "primed", "target": "primes", "multi_card": true, "rounds": 4}
	playPrimed(t, newTable(t, s, db, "primed", opts, 4, 1001), true)
}

func playPrimed(t *testing.T, tb *table, multi bool) {
	playToEnd(t, tb, primedKit(t, len(tb.tokens), multi))
}

// primedKit is what the driver checks of Primed beyond what every kind meets: no viewer sees a
// hidden card of another seat, in views, earlier replay steps and the history (PR-8); the drawer
// sees its card; and at the end the rounds, totals and winners read from the scores (PR-3, PR-7) and
// the last hands and history shown to all.
func primedKit(t *testing.T, seats int, multi bool) kindKit {
	player := greedyPlayer(t, "primed")
	if multi {
		player = players.Random // multi-card games are short
	}
	draws, rounds, reshuffles := 0, 0, 0
	passes := map[client.PrimedPassedReason]int{}
	return kindKit{
		player: player,
		hidden: true,
		closed: `{"type":"draw"}`,
		acted: func(p *playthrough, seat int, _ json.RawMessage, e client.HistoryEntry) {
			var out client.PrimedOutcome
			if err := json.Unmarshal(e.Outcome, &out); err != nil {
				t.Fatal(err)
			}
			if out.Drew != nil {
				draws++
				if out.Drew.Card == nil {
					t.Errorf("seq %d: seat %d drew but its own response does not show the card", e.Seq, seat)
				}
			}
			if out.RoundEnded != nil {
				rounds++
			}
			if out.Reshuffled != nil {
				reshuffles++
			}
			if out.Passed != nil {
				passes[out.Passed.Reason]++
			}
		},
		viewed: func(p *playthrough, seq int64, viewer int, view json.RawMessage) {
			checkPrimedView(t, seq, viewer, view)
		},
		followed: func(p *playthrough, viewer int, items []json.RawMessage) {
			checkPrimedHistory(t, viewer, items)
		},
		finished: func(p *playthrough, g client.Game, scoresRaw json.RawMessage, entries []client.HistoryEntry) {
			t.Logf("finished after %d actions, %d draws, passes %v, %d PR-6 refills, %d rounds, winners %v", p.seq, draws, passes, reshuffles, rounds, g.Winners)
			checkPrimedEnd(t, seats, rounds, g, scoresRaw, entries)
		},
	}
}

// checkPrimedEnd reads the finished game's scores, view and history on their own; rounds is the
// number of round_ended outcomes seen along the way.
func checkPrimedEnd(t *testing.T, seats, rounds int, g client.Game, scoresRaw json.RawMessage, entries []client.HistoryEntry) {
	var sc client.PrimedScores
	if err := json.Unmarshal(scoresRaw, &sc); err != nil {
		t.Fatalf("scores: %v: %s", err, scoresRaw)
	}
	// PR-7: four rounds, totals are the sums of the round scores, the lowest total(s) win.
	if len(sc.Rounds) != 4 || rounds != 4 || !sc.Finished {
		t.Errorf("scores: %d rounds (%d round_ended outcomes seen), finished %v; want 4 rounds, finished", len(sc.Rounds), rounds, sc.Finished)
	}
	totals := make([]int, seats)
	for r, rr := range sc.Rounds {
		if rr.Round != r+1 || len(rr.Scores) != seats || len(rr.Hands) != seats {
			t.Fatalf("round %d result: %+v", r+1, rr)
		}
		// PR-3: round 1 is dealt by seat 0; the seat after the dealer starts and deals next.
		dealer := 0
		if r > 0 {
			dealer = sc.Rounds[r-1].Starter
		}
		if rr.Dealer != dealer || rr.Starter != (dealer+1)%seats {
			t.Errorf("PR-3: round %d dealt by seat %d, started by seat %d; want %d and %d", rr.Round, rr.Dealer, rr.Starter, dealer, (dealer+1)%seats)
		}
		// PR-7: the round ends when a hand is empty.
		if rr.Ending == "went_out" && (rr.WentOut == nil || len(rr.Hands[*rr.WentOut]) != 0) || rr.Ending == "blocked" && rr.WentOut != nil {
			t.Errorf("PR-7: round %d ended %q, went_out %v, hands %v", rr.Round, rr.Ending, rr.WentOut, rr.Hands)
		}
		for i := range seats {
			sum := 0
			for _, c := range rr.Hands[i] {
				sum += c
			}
			if rr.Scores[i] != sum {
				t.Errorf("PR-7: round %d, seat %d scored %d for hand %v", rr.Round, i, rr.Scores[i], rr.Hands[i])
			}
			totals[i] += rr.Scores[i]
		}
		if !reflect.DeepEqual(rr.Totals, totals) {
			t.Errorf("PR-7: round %d running totals %v, want %v", rr.Round, rr.Totals, totals)
		}
	}
	if !reflect.DeepEqual(sc.Totals, totals) {
		t.Errorf("PR-7: totals %v, want %v", sc.Totals, totals)
	}
	low := totals[0]
	for _, x := range totals {
		low = min(low, x)
	}
	var winners []int
	for i, x := range totals {
		if x == low {
			winners = append(winners, i)
		}
	}
	if !reflect.DeepEqual(g.Winners, winners) || !reflect.DeepEqual(sc.Winners, winners) {
		t.Errorf("PR-7: totals %v: game winners %v, scores winners %v, want %v (lowest, ties share)", totals, g.Winners, sc.Winners, winners)
	}
	// PR-8: once the game is over, the last hands are shown to all.
	var v client.PrimedView
	if err := json.Unmarshal(stateOf(g), &v); err != nil {
		t.Fatal(err)
	}
	if v.Phase != "finished" || v.ToAct == nil || len(v.ToAct) != 0 {
		t.Errorf("final view: phase %q to_act %v", v.Phase, v.ToAct)
	}
	for _, h := range v.Hands {
		if h.Cards == nil || len(*h.Cards) != h.Size {
			t.Errorf("PR-8: the finished game's public view hides seat %d's hand (size %d)", h.Seat, h.Size)
		}
	}

	var last client.PrimedOutcome
	if err := json.Unmarshal(entries[len(entries)-1].Outcome, &last); err != nil {
		t.Fatal(err)
	}
	if last.GameEnded == nil || !reflect.DeepEqual(last.GameEnded.Winners, winners) || !reflect.DeepEqual(last.GameEnded.Totals, totals) {
		t.Errorf("the last entry's game_ended = %+v, want totals %v winners %v", last.GameEnded, totals, winners)
	}
	// Once over, the history hides nothing: every drawn card and every dealt hand (PR-8).
	for _, e := range entries {
		var out client.PrimedOutcome
		if err := json.Unmarshal(e.Outcome, &out); err != nil {
			t.Fatal(err)
		}
		if out.Drew != nil && out.Drew.Card == nil {
			t.Errorf("entry %d: the drawn card is still hidden after the game", e.Seq)
		}
		if out.Dealt != nil {
			for j, h := range out.Dealt.Hands {
				if h == nil {
					t.Errorf("entry %d: the hand dealt to seat %d is still hidden after the game", e.Seq, j)
				}
			}
		}
	}
}
