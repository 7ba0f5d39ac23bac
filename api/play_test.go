package api_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"primegames.dev/client"
	"primegames/api/apitest"
	"primegames/repo/repotest"
)

// End-to-end games over real HTTP: a scripted client creates a game, and until it is over asks the
// seat to act for its legal actions, posts one of them as it is, and checks after every accepted
// action the response (201, next seq, version + 1), the replay step against the game view with the
// same token (G-2), the fold of the stored history against the stored snapshot (G-2) and, for Primed,
// that no seat's view or history shows another seat's hidden cards (PR-8). At the end it checks the
// winners against the scores (PC-14, PR-7) and the public history, paged and as NDJSON, with its
// random values (G-1).

// climbLegal is one entry of PrimeClimbLegalActions with its action left raw, to be posted back byte
// for byte (client.PrimeClimbLegalAction holds it as a union that re-encodes it).
type climbLegal struct {
	Type   string          `json:"type"`
	Action json.RawMessage `json:"action"`
	Ends   *[2]int         `json:"ends"`
	Wins   bool            `json:"wins"`
}

func TestPlayFullPrimeClimbGame(t *testing.T) {
	t.Parallel()
	for _, players := range []int{3, 4} {
		t.Run(fmt.Sprintf("players=%d", players), func(t *testing.T) {
			t.Parallel()
			playPrimeClimb(t, players, map[string]any{"prime_cards": true}, uint64(100+players))
		})
	}
}

// PC-11: the "no cards" option plays without Prime Cards.
func TestPlayFullPrimeClimbGameWithoutPrimeCards(t *testing.T) {
	t.Parallel()
	playPrimeClimb(t, 2, map[string]any{"prime_cards": false}, 202)
}

func playPrimeClimb(t *testing.T, players int, options map[string]any, seed uint64) {
	db := repotest.NewDB(t)
	s := apitest.Start(t, newServer(t, db))
	tb := newTable(t, s, db, "prime-climb", options, players, seed)
	player := greedyPlayer(t, "prime-climb")
	cards := options["prime_cards"] == true
	draws := 0
	kinds := map[string]int{}
	first := tb.toAct()
	// The public and every seat follow the history while the game runs: no random values (G-1).
	tails := []*tail{{seen: -1}}
	for _, tok := range tb.tokens {
		tails = append(tails, &tail{token: tok, seen: -1})
	}

	for n := 0; tb.game.Status == "active"; n++ {
		if n >= 3000 {
			t.Fatalf("Prime Climb game not over after %d actions", n)
		}
		seat := tb.toAct()
		legal := tb.legal(seat)
		if len(legal) == 0 {
			t.Fatalf("seq %d: seat %d is to act in phase %s but has no legal action", tb.seq, seat, tb.game.Turn.Phase)
		}
		if other := (seat + 1) % players; other != seat {
			if l := tb.legal(other); len(l) != 0 {
				t.Errorf("seq %d: seat %d is not to act but has %d legal actions", tb.seq, other, len(l))
			}
		}
		var pick climbLegal
		choose(t, player, legal, tb.rng, &pick)
		kinds[pick.Type]++
		e, g := tb.act(seat, pick.Action)

		var out client.PrimeClimbOutcome
		if err := json.Unmarshal(e.Outcome, &out); err != nil {
			t.Fatal(err)
		}
		for _, d := range out.Dice {
			if d < 1 || d > 10 {
				t.Errorf("seq %d: die %d outside 1..10 (PC-3)", e.Seq, d)
			}
		}
		if out.Action == "roll" && len(out.Dice) != 2 {
			t.Errorf("seq %d: a roll gave dice %v, want two (PC-3)", e.Seq, out.Dice)
		}
		hasDraw := out.Draw != nil
		if hasDraw {
			draws++
			if !cards {
				t.Errorf("seq %d: a card was drawn in a game without Prime Cards (PC-11): %+v", e.Seq, *out.Draw)
			}
		}

		// The replay step is checked at every action early on and at every fifth later, the fold of
		// the whole history after entries 1, 2, 4, 8, …: each reads the whole history, and a game of
		// four runs to hundreds of actions. The final history is checked whole below.
		thorough := n < 40 || n%5 == 0 || g.Status != "active"
		var view json.RawMessage
		if thorough {
			view = tb.checkReplay(tb.tokens[seat])
		} else {
			view = stateOf(tb.get(tb.tokens[seat]))
		}
		var v client.PrimeClimbView
		if err := json.Unmarshal(view, &v); err != nil {
			t.Fatal(err)
		}
		if g.Status == "active" && field(t, view, "deck", nil) {
			t.Errorf("seq %d: seat %d's view shows the deck order", e.Seq, seat)
		}
		// The legal entry promised where the mover's pawns end, unless a card moved them.
		if pick.Ends != nil && !hasDraw && g.Status == "active" && !slices.Equal(v.Players[seat].Pawns, pick.Ends[:]) {
			t.Errorf("seq %d: %s promised pawns %v, got %v", e.Seq, pick.Action, *pick.Ends, v.Players[seat].Pawns)
		}
		if !cards && (v.DeckSize != 0 || v.Players[seat].Keepers == nil || len(v.Players[seat].Keepers) != 0) {
			t.Errorf("seq %d: game without cards has deck_size %d, keepers %v", e.Seq, v.DeckSize, v.Players[seat].Keepers)
		}
		if g.Status == "active" {
			tl := tails[int(e.Seq)%len(tails)]
			for _, raw := range tl.next(tb) {
				if field(t, raw, "random", nil) {
					t.Errorf("G-1: entry %s shows its random values while the game runs", raw)
				}
			}
		}
		tb.checkFoldNowAndThen()
	}
	t.Logf("Prime Climb, %d players, prime_cards %v: finished after %d actions %v, %d cards drawn, winners %v", players, cards, tb.seq, kinds, draws, tb.game.Winners)

	g, scoresRaw := tb.checkFinished()
	// PC-14: one winner, the first with both pawns home; the game is finished.
	if len(g.Winners) != 1 {
		t.Fatalf("winners = %v, want exactly one (PC-14)", g.Winners)
	}
	w := g.Winners[0]
	var scores []struct {
		Seat     int    `json:"seat"`
		Pawns    [2]int `json:"pawns"`
		Home     int    `json:"home"`
		Progress int    `json:"progress"`
		Winner   bool   `json:"winner"`
	}
	if err := json.Unmarshal(scoresRaw, &scores); err != nil {
		t.Fatalf("scores: %v: %s", err, scoresRaw)
	}
	if len(scores) != players {
		t.Fatalf("scores has %d seats, want %d", len(scores), players)
	}
	for i, sc := range scores {
		if sc.Seat != i || sc.Winner != (i == w) {
			t.Errorf("scores[%d] = %+v; winner is seat %d", i, sc, w)
		}
		if i == w && (sc.Pawns != [2]int{101, 101} || sc.Home != 2) {
			t.Errorf("PC-14: winner seat %d has pawns %v (home %d), want both on 101", w, sc.Pawns, sc.Home)
		}
		if sc.Progress != sc.Pawns[0]+sc.Pawns[1] {
			t.Errorf("scores[%d]: progress %d for pawns %v", i, sc.Progress, sc.Pawns)
		}
		if i != w && sc.Home == 2 {
			t.Errorf("PC-14: seat %d also has both pawns home, but seat %d won", i, w)
		}
	}
	var v client.PrimeClimbView
	if err := json.Unmarshal(stateOf(g), &v); err != nil {
		t.Fatal(err)
	}
	if v.Phase != "finished" || v.Winner == nil || *v.Winner != w || !slices.Equal(v.Players[w].Pawns, []int{101, 101}) {
		t.Errorf("final view: phase %q winner %v pawns of seat %d %v", v.Phase, v.Winner, w, v.Players[w].Pawns)
	}

	entries := tb.checkFinalHistory()
	// PC-2: the start records the roll-off; the highest total of its last round goes first.
	var start struct {
		RollOff []struct {
			Rolls []struct {
				Seat  int    `json:"seat"`
				Dice  [2]int `json:"dice"`
				Total int    `json:"total"`
			} `json:"rolls"`
		} `json:"roll_off"`
		NextSeat *int `json:"next_seat"`
	}
	if err := json.Unmarshal(entries[0].Outcome, &start); err != nil {
		t.Fatal(err)
	}
	if len(start.RollOff) == 0 {
		t.Errorf("PC-2: the start of a %d-player game records no roll-off: %s", players, entries[0].Outcome)
	} else {
		rolls, best, leaders := start.RollOff[len(start.RollOff)-1].Rolls, -1, []int{}
		for _, r := range rolls {
			if r.Total != r.Dice[0]+r.Dice[1] {
				t.Errorf("PC-2: roll-off %+v: total is not the sum of the dice", r)
			}
			switch {
			case r.Total > best:
				best, leaders = r.Total, []int{r.Seat}
			case r.Total == best:
				leaders = append(leaders, r.Seat)
			}
		}
		if len(leaders) != 1 || leaders[0] != first || start.NextSeat == nil || *start.NextSeat != first {
			t.Errorf("PC-2: roll-off %s; seat %d went first", entries[0].Outcome, first)
		}
	}
	var last client.PrimeClimbOutcome
	if err := json.Unmarshal(entries[len(entries)-1].Outcome, &last); err != nil {
		t.Fatal(err)
	}
	if last.Winner == nil || *last.Winner != w {
		t.Errorf("the last entry's outcome names winner %v, want %d", last.Winner, w)
	}
	for _, e := range entries {
		var out client.PrimeClimbOutcome
		if err := json.Unmarshal(e.Outcome, &out); err != nil {
			t.Fatal(err)
		}
		if out.Action == "roll" && len(*e.Random) == 0 {
			t.Errorf("entry %d: a roll with no recorded random values (G-1)", e.Seq)
		}
	}
}
