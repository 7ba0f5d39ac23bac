package primed

import (
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"testing"

	"primegames/domain"
)

// tallyJSON stores an outcome as the service does (json.Marshal, every card) and tallies it.
func tallyJSON(t testing.TB, out *Outcome, counts domain.Counts) {
	t.Helper()
	raw, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	if err := Tally(raw, counts); err != nil {
		t.Fatalf("tally %s: %v", raw, err)
	}
}

// nonzero drops zero counters and seats left without counters, so that counts compare by value.
func nonzero(c domain.Counts) domain.Counts {
	out := domain.Counts{}
	for seat, m := range c {
		for name, n := range m {
			if n != 0 {
				out.Add(seat, name, n)
			}
		}
	}
	return out
}

func wantCounts(t *testing.T, got, want domain.Counts, context string) {
	t.Helper()
	a, b := nonzero(got), nonzero(want)
	if !maps.EqualFunc(a, b, func(x, y map[string]int) bool { return maps.Equal(x, y) }) {
		t.Fatalf("%s:\ntallied  %v\nexpected %v", context, a, b)
	}
}

// counts builds expected counters: seat, name, n, seat, name, n, ...
func counts(triples ...any) domain.Counts {
	c := domain.Counts{}
	for i := 0; i < len(triples); i += 3 {
		c.Add(triples[i].(int), triples[i+1].(string), triples[i+2].(int))
	}
	return c
}

func sumOf(cards []int) int {
	n := 0
	for _, c := range cards {
		n += c
	}
	return n
}

// expectAction works out what one action adds from the action sent and the typed states around it,
// never from the outcome: round scores are the hands left before the action (the player who went out
// scores 0), and they must agree with Scores().
func expectAction(t *testing.T, prev, next *State, seat int, raw json.RawMessage, want domain.Counts) {
	t.Helper()
	var a Action
	if err := json.Unmarshal(raw, &a); err != nil {
		t.Fatal(err)
	}
	roundEnded := len(next.Results()) > len(prev.Results())
	switch a.Type {
	case ActionPlay:
		want.Add(seat, "plays", 1)
		want.Add(seat, "cards_played", len(a.Cards))
		if len(a.Cards) > 1 {
			want.Add(seat, "multi_card_plays", 1)
		}
	case ActionPass:
		want.Add(seat, "passes", 1)
	case ActionDraw:
		drew := !roundEnded && len(next.Hand(seat)) == len(prev.Hand(seat))+1
		if drew {
			want.Add(seat, "draws", 1)
		}
		if !drew || next.Drawn() == 0 { // nothing to draw, or the drawn card cannot hit the target
			want.Add(seat, "passes", 1)
		}
	}
	if !roundEnded {
		return
	}
	wentOut := a.Type == ActionPlay
	if wentOut {
		want.Add(seat, "went_out", 1)
	}
	scores := next.Scores().(Scores)
	last := scores.Rounds[len(scores.Rounds)-1]
	for s := range prev.Seats() {
		score := sumOf(prev.Hand(s))
		if wentOut && s == seat {
			score = 0
		}
		if last.Scores[s] != score {
			t.Fatalf("round %d: Scores() gives seat %d %d, the hand left %d", last.Round, s, last.Scores[s], score)
		}
		want.Add(s, "rounds", 1)
		want.Add(s, "round_score_total", score)
	}
}

// tallyRandomGame plays a whole game with random legal actions, tallies each outcome's JSON as it
// comes and compares the counters after every action with the expected ones; at the end the score
// totals must equal Scores().Totals.
func tallyRandomGame(t *testing.T, o Options, seats int, seed uint64) domain.Counts {
	t.Helper()
	ds, out, _, err := domain.StartRecorded(Rules, o.Canonical(), seats, domain.SeededRand(seed, 0))
	if err != nil {
		t.Fatal(err)
	}
	got, want := domain.Counts{}, domain.Counts{}
	tallyJSON(t, out.(*Outcome), got)
	wantCounts(t, got, want, "the start")
	s := ds.(*State)
	pick := rand.New(rand.NewPCG(seed, 11))
	for i := 1; !s.Status().Finished; i++ {
		if i > maxActions {
			t.Fatalf("seed %d: not finished", seed)
		}
		seat := s.Turn()
		action := bot(s, pick)
		next, out, _, err := domain.ApplyRecorded(s, seat, action, domain.SeededRand(seed, int64(i)))
		if err != nil {
			t.Fatalf("seed %d action %d %s: %v", seed, i, action, err)
		}
		expectAction(t, s, next.(*State), seat, action, want)
		tallyJSON(t, out.(*Outcome), got)
		wantCounts(t, got, want, fmt.Sprintf("%s seed %d action %d %s by seat %d", variantName(o), seed, i, action, seat))
		s = next.(*State)
	}
	totals := s.Scores().(Scores).Totals
	for seat, total := range totals {
		if got[seat]["round_score_total"] != total || got[seat]["rounds"] != o.Rounds {
			t.Fatalf("seed %d seat %d: %d rounds totalling %d; Scores() says %d rounds totalling %d",
				seed, seat, got[seat]["rounds"], got[seat]["round_score_total"], o.Rounds, total)
		}
	}
	return got
}

// Whole random games in every variant: after every action the tallied counters equal those the test
// works out from the actions sent and the states before and after.
func TestTallyRandomGames(t *testing.T) {
	total := domain.Counts{}
	for i, o := range allVariants(2) {
		for k := range 2 {
			seats := o.Seats().Min + (i+2*k)%(o.Seats().Max-o.Seats().Min+1)
			for seat, m := range tallyRandomGame(t, o, seats, uint64(500+10*i+k)) {
				for name, n := range m {
					total.Add(seat, name, n)
				}
			}
		}
	}
	for _, name := range []string{"plays", "cards_played", "multi_card_plays", "draws", "passes", "rounds", "round_score_total", "went_out"} {
		sum := 0
		for _, m := range total {
			sum += m[name]
		}
		if sum == 0 {
			t.Errorf("no game counted %s", name)
		}
	}
}

// The rarer outcomes, played on crafted tables: a multi-card play that goes out, every kind of pass,
// a reshuffle and a blocked round.
func TestTallyPlayedSituations(t *testing.T) {
	c := domain.Counts{}
	s := crafted(t, multi, 1, [][]int{{1, 2, 3}, {4, 6}, {5, 17}}, []int{13}, nil, fillDraw)
	_, out := apply(t, s, 1, PlayAction(4, 6), domain.SeededRand(1, 1)) // 13 + 4 + 6 = 23: seat 1 goes out
	tallyJSON(t, out, c)
	wantCounts(t, c, counts(1, "plays", 1, 1, "cards_played", 2, 1, "multi_card_plays", 1, 1, "went_out", 1,
		0, "rounds", 1, 1, "rounds", 1, 2, "rounds", 1, 0, "round_score_total", 6, 2, "round_score_total", 22), "went out")

	// A draw whose card can be played, kept with a pass; then a draw whose card cannot be played.
	c = domain.Counts{}
	s = crafted(t, primes, 1, [][]int{{1}, noPlayOn13, {1}}, []int{13}, []int{4, 2}, fillDraw)
	s, out = apply(t, s, 1, DrawAction(), noRand{t}) // 13 + 4 = 17
	tallyJSON(t, out, c)
	s, out = apply(t, s, 1, PassAction(), noRand{t})
	tallyJSON(t, out, c)
	_, out = apply(t, s, 2, DrawAction(), noRand{t}) // 13 + 2 = 15, and 13 + 1 = 14
	tallyJSON(t, out, c)
	wantCounts(t, c, counts(1, "draws", 1, 1, "passes", 1, 2, "draws", 1, 2, "passes", 1), "draws and passes")

	// Nothing to draw twice: two passes and a blocked round, scored for both seats, gone out by none.
	c = domain.Counts{}
	s, out = apply(t, blockable(t, 4), 1, DrawAction(), noRand{t})
	tallyJSON(t, out, c)
	_, out = apply(t, s, 0, DrawAction(), domain.SeededRand(1, 2))
	tallyJSON(t, out, c)
	wantCounts(t, c, counts(1, "passes", 1, 0, "passes", 1, 0, "rounds", 1, 1, "rounds", 1,
		0, "round_score_total", 16, 1, "round_score_total", 16), "blocked round")
}

func TestTallyFromStoredOutcomes(t *testing.T) {
	c := domain.Counts{}
	for _, raw := range []string{
		`{"dealt":{"round":1,"dealer":0,"starter":1,"top":5,"draw_pile_size":1,"hand_sizes":[1,1],"hands":[[2],[4]]}}`,
		`{"played":{"seat":1,"cards":[2,4,6],"on":5,"total":17,"equation":"5 + 2 + 4 + 6 = 17 is prime"}}`,
		`{"reshuffled":{"seat":0,"cards":3},"drew":{"seat":0,"card":9,"can_play":false},"passed":{"seat":0,"reason":"drawn_card_cannot_play","in_a_row":0}}`,
		`{"drew":{"seat":1,"card":8,"can_play":true}}`,
		`{"passed":{"seat":1,"reason":"kept_drawn_card","in_a_row":0}}`,
		`{"played":{"seat":0,"cards":[6],"on":7,"total":13,"equation":"7 + 6 = 13 is prime"},` +
			`"round_ended":{"round":1,"dealer":0,"starter":1,"ending":"went_out","went_out":0,"hands":[[],[8,9]],"scores":[0,17],"totals":[0,17]},` +
			`"game_ended":{"totals":[0,17],"winners":[0]}}`,
	} {
		if err := Tally(json.RawMessage(raw), c); err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
	}
	wantCounts(t, c, counts(1, "plays", 1, 1, "cards_played", 3, 1, "multi_card_plays", 1, 0, "draws", 1, 0, "passes", 1,
		1, "draws", 1, 1, "passes", 1, 0, "plays", 1, 0, "cards_played", 1, 0, "went_out", 1,
		0, "rounds", 1, 1, "rounds", 1, 1, "round_score_total", 17), "stored outcomes")
}

func TestTallyRefusesWhatIsNotAPrimedOutcome(t *testing.T) {
	for _, raw := range []string{
		`{"played":`, `{"drew":{"seat":1,"card":8,"can_play":true}} {}`, // and what is no outcome of any kind: gametest
		`{"played":{"seat":0,"cards":[]}}`,
		`{"played":{"seat":-1,"cards":[3]}}`,
		`{"played":{"seat":6,"cards":[3]}}`,
		`{"played":{"seat":0,"cards":[3]},"passed":{"seat":0,"reason":"kept_drawn_card"}}`,
		`{"drew":{"seat":0,"card":0,"can_play":true}}`,
		`{"drew":{"seat":9,"card":3,"can_play":true}}`,
		`{"passed":{"seat":0,"reason":"bored"}}`,
		`{"passed":{"seat":0}}`,
		`{"round_ended":{"round":1,"ending":"went_out","scores":[0,5]}}`,
		`{"round_ended":{"round":1,"ending":"went_out","went_out":2,"scores":[0,5]}}`,
		`{"round_ended":{"round":1,"ending":"blocked","went_out":0,"scores":[0,5]}}`,
		`{"round_ended":{"round":1,"ending":"tied","scores":[3,5]}}`,
		`{"round_ended":{"round":1,"ending":"blocked","scores":[5]}}`,
		`{"round_ended":{"round":1,"ending":"blocked","scores":[5,-1]}}`,
		`{"played":{"seat":0,"cards":[3],"joker":true}}`,
	} {
		c := domain.Counts{}
		if err := Tally(json.RawMessage(raw), c); err == nil {
			t.Errorf("%s: accepted", raw)
		} else if domain.ErrorCode(err) != "invalid_outcome" {
			t.Errorf("%s: code %q (%v)", raw, domain.ErrorCode(err), err)
		}
		if len(c) != 0 {
			t.Errorf("%s: refused but counted %v", raw, c)
		}
	}
}

func TestMeasuresAverageTheRoundScoresOnceARoundIsScored(t *testing.T) {
	if got := Measures(map[string]int{}); len(got) != 0 {
		t.Errorf("before any round: %v, want no measures", got)
	}
	got := Measures(map[string]int{CountRounds: 4, CountRoundScoreTotal: 10, CountPlays: 7})
	if want := map[string]float64{MeasureAverageRoundScore: 2.5}; !maps.Equal(got, want) {
		t.Errorf("Measures = %v, want %v", got, want)
	}
}
