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

// End-to-end games of Prime Climb over real HTTP, played to their end by the driver of
// playkit_test.go with Prime Climb's kit: the dice (PC-3), the cards (PC-11), the pawns a legal entry
// promises, a hidden deck, and at the end one winner with both pawns home (PC-14) after the roll-off
// that chose who went first (PC-2).

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
	kit := primeClimbKit(t, players, options["prime_cards"] == true)
	playToEnd(t, tb, kit)
}

// primeClimbKit is what the driver checks of Prime Climb beyond what every kind meets: the dice
// (PC-3), the cards (PC-11), the pawns a legal entry promises, a hidden deck, and at the end one
// winner with both pawns home (PC-14) after the roll-off that chose who went first (PC-2).
func primeClimbKit(t *testing.T, players int, cards bool) kindKit {
	draws := 0
	kinds := map[string]int{}
	hasDraw := false
	return kindKit{
		maxActions: 3000,
		closed:     `{"type":"roll"}`,
		acted: func(p *playthrough, seat int, picked json.RawMessage, e client.HistoryEntry) {
			var pick climbLegal
			if err := json.Unmarshal(picked, &pick); err != nil {
				t.Fatal(err)
			}
			kinds[pick.Type]++
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
			hasDraw = out.Draw != nil
			if hasDraw {
				draws++
				if !cards {
					t.Errorf("seq %d: a card was drawn in a game without Prime Cards (PC-11): %+v", e.Seq, *out.Draw)
				}
			}
		},
		actorView: func(p *playthrough, seat int, picked json.RawMessage, e client.HistoryEntry, g client.Game, view json.RawMessage) {
			var pick climbLegal
			if err := json.Unmarshal(picked, &pick); err != nil {
				t.Fatal(err)
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
		},
		finished: func(p *playthrough, g client.Game, scoresRaw json.RawMessage, entries []client.HistoryEntry) {
			t.Logf("Prime Climb, %d players, prime_cards %v: finished after %d actions %v, %d cards drawn, winners %v", players, cards, p.seq, kinds, draws, g.Winners)
			checkPrimeClimbEnd(t, players, p.first, g, scoresRaw, entries)
		},
	}
}

// checkPrimeClimbEnd reads the finished game's scores, view and history on their own.
func checkPrimeClimbEnd(t *testing.T, players, first int, g client.Game, scoresRaw json.RawMessage, entries []client.HistoryEntry) {
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
