package primed

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"primegames/domain"
)

var (
	primes     = opts(DeckPrimed, TargetPrimes, false, 4)
	composites = opts(DeckPrimed, TargetComposites, false, 4)
	multi      = opts(DeckPrimed, TargetPrimes, true, 4)
)

func TestPR1_SeatRangeByDeck(t *testing.T) {
	for _, tc := range []struct {
		raw  string
		want domain.SeatRange
	}{
		{`{}`, domain.SeatRange{Min: 2, Max: 6}},
		{`{"deck":"primed"}`, domain.SeatRange{Min: 2, Max: 6}},
		{`{"deck":"standard"}`, domain.SeatRange{Min: 2, Max: 5}},
	} {
		_, got, err := Rules.Options(json.RawMessage(tc.raw))
		if err != nil || got != tc.want {
			t.Errorf("Options(%s) seats = %v, %v; want %v", tc.raw, got, err, tc.want)
		}
	}
	for _, tc := range []struct {
		deck  string
		seats int
		ok    bool
	}{{DeckPrimed, 1, false}, {DeckPrimed, 2, true}, {DeckPrimed, 6, true}, {DeckPrimed, 7, false},
		{DeckStandard, 5, true}, {DeckStandard, 6, false}} {
		o := opts(tc.deck, TargetPrimes, false, 4)
		_, _, err := Rules.Start(o.Canonical(), tc.seats, domain.SeededRand(1, 0))
		if (err == nil) != tc.ok {
			t.Errorf("%s deck with %d seats: err = %v", tc.deck, tc.seats, err)
		}
		if err != nil && domain.ErrorCode(err) != "invalid_seats" {
			t.Errorf("%s deck with %d seats: code %s", tc.deck, tc.seats, domain.ErrorCode(err))
		}
	}
}

// PR-1: "left of the dealer" is the next seat, wrapping around.
func TestPR1_LeftOfDealerIsNextSeat(t *testing.T) {
	s := start(t, opts(DeckPrimed, TargetPrimes, false, 4), 4, 7)
	if s.Dealer() != 0 || s.Turn() != 1 {
		t.Fatalf("dealer %d, turn %d; want 0 and 1", s.Dealer(), s.Turn())
	}
	tb := s.t.clone()
	tb.Round, tb.Dealer, tb.Starter = 1, 3, 0
	tb.startRound(domain.SeededRand(1, 1))
	if tb.Dealer != 0 || tb.Starter != 1 || tb.Turn != 1 {
		t.Fatalf("after a round dealt by 3 and started by 0: dealer %d starter %d turn %d", tb.Dealer, tb.Starter, tb.Turn)
	}
}

func TestPR2_Decks(t *testing.T) {
	for _, tc := range []struct {
		deck      string
		size, max int
	}{{DeckPrimed, 68, 17}, {DeckStandard, 40, 10}} {
		s := start(t, opts(tc.deck, TargetPrimes, false, 4), 2, 3)
		var all []int
		for seat := range 2 {
			all = append(all, s.Hand(seat)...)
		}
		all = append(all, s.DrawPile()...)
		all = append(all, s.PrimedPile()...)
		if len(all) != tc.size {
			t.Fatalf("%s deck has %d cards, want %d", tc.deck, len(all), tc.size)
		}
		counts := countCards(all)
		for v := 1; v <= tc.max; v++ {
			if counts[v] != 4 {
				t.Errorf("%s deck has %d cards of %d, want 4", tc.deck, counts[v], v)
			}
		}
	}
}

func TestPR2_ShuffleComesOnlyFromRand(t *testing.T) {
	a := start(t, primes, 3, 42)
	b := start(t, primes, 3, 42)
	c := start(t, primes, 3, 43)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("the same seed dealt two different games")
	}
	if reflect.DeepEqual(a, c) {
		t.Fatal("two seeds dealt the same game")
	}
}

func TestPR3_DealSevenFlipOneSeatAfterDealerStarts(t *testing.T) {
	for _, seats := range []int{2, 6} {
		s, out, err := Start(primes.Canonical(), seats, domain.SeededRand(5, 0))
		if err != nil {
			t.Fatal(err)
		}
		for seat := range seats {
			if len(s.Hand(seat)) != 7 {
				t.Errorf("seat %d holds %d cards", seat, len(s.Hand(seat)))
			}
		}
		if len(s.PrimedPile()) != 1 || len(s.DrawPile()) != 68-7*seats-1 {
			t.Errorf("primed pile %v, draw pile %d cards", s.PrimedPile(), len(s.DrawPile()))
		}
		if s.Round() != 1 || s.Dealer() != 0 || s.Turn() != 1 || s.Status().Phase != PhasePlay {
			t.Errorf("round %d dealer %d turn %d", s.Round(), s.Dealer(), s.Turn())
		}
		d := out.Dealt
		if d == nil || d.Round != 1 || d.Dealer != 0 || d.Starter != 1 || d.Top != s.Top() || d.DrawPileSize != len(s.DrawPile()) {
			t.Errorf("start outcome %+v", d)
		}
	}
}

func TestPR3_DealerRotationOverFourRounds(t *testing.T) {
	for _, seats := range []int{2, 3, 5} {
		s := playOut(t, opts(DeckPrimed, TargetPrimes, false, 4), seats, 11)
		res := s.Results()
		if len(res) != 4 {
			t.Fatalf("%d seats: %d rounds played", seats, len(res))
		}
		for i, r := range res {
			if r.Round != i+1 || r.Dealer != i%seats || r.Starter != (i+1)%seats {
				t.Errorf("%d seats, round %d: dealer %d starter %d", seats, r.Round, r.Dealer, r.Starter)
			}
			if i > 0 && r.Dealer != res[i-1].Starter {
				t.Errorf("round %d dealer %d is not round %d's starter %d", r.Round, r.Dealer, i, res[i-1].Starter)
			}
		}
	}
}

func TestPR3_RoundsOption(t *testing.T) {
	for _, rounds := range []int{1, 2, 6} {
		s := playOut(t, opts(DeckStandard, TargetPrimes, false, rounds), 2, uint64(rounds))
		if got := len(s.Results()); got != rounds || !s.Status().Finished {
			t.Errorf("rounds=%d: played %d, finished %v", rounds, got, s.Status().Finished)
		}
	}
	for _, raw := range []string{`{"rounds":0}`, `{"rounds":-1}`, `{"rounds":101}`, `{"rounds":"4"}`, `{"rounds":2.5}`} {
		if _, _, err := Rules.Options(json.RawMessage(raw)); domain.ErrorKind(err) != domain.KindInvalid {
			t.Errorf("Options(%s) = %v, want invalid", raw, err)
		}
	}
}

// PR-3: every round collects all cards and shuffles the whole deck again.
func TestPR3_NewRoundReshufflesWholeDeck(t *testing.T) {
	s := crafted(t, primes, 1, [][]int{{1, 2}, {4}}, []int{13}, nil, fillDraw)
	next, out := apply(t, s, 1, PlayAction(4), domain.SeededRand(9, 1))
	if out.RoundEnded == nil || out.Dealt == nil || next.Round() != 2 {
		t.Fatalf("outcome %+v", out)
	}
	if next.Dealer() != 1 || next.Turn() != 0 || len(next.Hand(0)) != 7 || len(next.Hand(1)) != 7 || len(next.PrimedPile()) != 1 {
		t.Fatalf("round 2: dealer %d turn %d hands %v %v", next.Dealer(), next.Turn(), next.Hand(0), next.Hand(1))
	}
	if err := next.t.validate(); err != nil {
		t.Fatal(err)
	}
}

func TestPR4_PrimesTarget(t *testing.T) {
	s := crafted(t, primes, 1, [][]int{{1}, {4, 8, 9}}, []int{13}, nil, fillDraw)
	e := refused(t, s, 1, PlayAction(8), "not_prime")
	if e.Message != "13 + 8 = 21 is not prime: 21 = 3 × 7" || e.Kind != domain.KindIllegal {
		t.Fatalf("message %q", e.Message)
	}
	next, out := apply(t, s, 1, PlayAction(4), noRand{t})
	if next.Top() != 4 || out.Played.Total != 17 || out.Played.Equation != "13 + 4 = 17 is prime" {
		t.Fatalf("played %+v", out.Played)
	}
}

func TestPR4_CompositesTarget(t *testing.T) {
	s := crafted(t, composites, 1, [][]int{{1}, {4, 8}}, []int{5}, nil, fillDraw)
	e := refused(t, s, 1, PlayAction(8), "not_composite")
	if e.Message != "5 + 8 = 13 is not composite: 13 is prime" {
		t.Fatalf("message %q", e.Message)
	}
	_, out := apply(t, s, 1, PlayAction(4), noRand{t})
	if out.Played.Equation != "5 + 4 = 9 = 3 × 3" {
		t.Fatalf("equation %q", out.Played.Equation)
	}
	// PR-4: a composite is at least 4, so 1 + 1 = 2 and 1 + 2 = 3 miss.
	s = crafted(t, composites, 1, [][]int{{1}, {1, 2, 3}}, []int{1}, nil, fillDraw)
	refused(t, s, 1, PlayAction(1), "not_composite")
	refused(t, s, 1, PlayAction(2), "not_composite")
	apply(t, s, 1, PlayAction(3), noRand{t})
}

func TestPR5_DrawRefusedWhilePlayExists(t *testing.T) {
	for _, o := range []Options{primes, multi} {
		s := crafted(t, o, 1, [][]int{{1}, {4, 8, 9}}, []int{13}, nil, fillDraw)
		e := refused(t, s, 1, DrawAction(), "play_available")
		if strings.Contains(e.Message, "4") || strings.Contains(e.Message, "17") {
			t.Errorf("the refusal gives the play away: %q", e.Message)
		}
	}
}

// noPlayOn13 is a hand with no single card that makes a prime on 13 (13+8=21, 13+9=22), nor any pair
// (13+8+9=30).
var noPlayOn13 = []int{8, 9}

func TestPR5_DrawnCardPlayed(t *testing.T) {
	s := crafted(t, primes, 1, [][]int{{1}, noPlayOn13}, []int{13}, []int{4}, fillDraw)
	s, out := apply(t, s, 1, DrawAction(), noRand{t})
	if out.Drew == nil || out.Drew.Card != 4 || !out.Drew.CanPlay || out.Passed != nil {
		t.Fatalf("draw outcome %+v", out)
	}
	if st := s.Status(); st.Phase != PhaseDrawn || !slices.Equal(st.ToAct, []int{1}) || s.Drawn() != 4 {
		t.Fatalf("after the draw: %+v drawn %d", st, s.Drawn())
	}
	s, out = apply(t, s, 1, PlayAction(4), noRand{t})
	if out.Played == nil || s.Top() != 4 || s.Turn() != 0 || !slices.Equal(s.Hand(1), noPlayOn13) {
		t.Fatalf("after playing the drawn card: %+v, hand %v", out.Played, s.Hand(1))
	}
}

func TestPR5_DrawnCardKept(t *testing.T) {
	s := crafted(t, primes, 1, [][]int{{1}, noPlayOn13}, []int{13}, []int{4}, fillDraw)
	s, _ = apply(t, s, 1, DrawAction(), noRand{t})
	s, out := apply(t, s, 1, PassAction(), noRand{t})
	if out.Passed == nil || out.Passed.Reason != PassKept || s.Turn() != 0 || s.Status().Phase != PhasePlay {
		t.Fatalf("pass outcome %+v, turn %d", out.Passed, s.Turn())
	}
	if !slices.Equal(s.Hand(1), []int{4, 8, 9}) || s.Top() != 13 {
		t.Fatalf("hand %v, top %d", s.Hand(1), s.Top())
	}
}

func TestPR5_TurnEndsAtOnceWhenDrawnCardCannotPlay(t *testing.T) {
	s := crafted(t, primes, 1, [][]int{{1}, noPlayOn13}, []int{13}, []int{2}, fillDraw)
	s, out := apply(t, s, 1, DrawAction(), noRand{t})
	if out.Drew.Card != 2 || out.Drew.CanPlay || out.Passed == nil || out.Passed.Reason != PassUnplayable {
		t.Fatalf("outcome %+v %+v", out.Drew, out.Passed)
	}
	if s.Turn() != 0 || s.Status().Phase != PhasePlay || !slices.Equal(s.Hand(1), []int{2, 8, 9}) {
		t.Fatalf("turn %d, hand %v", s.Turn(), s.Hand(1))
	}
	refused(t, s, 1, PassAction(), "not_your_turn")
}

func TestPR5_AfterDrawPlayMustIncludeDrawnCard(t *testing.T) {
	// Multi-card: 13 + 4 = 17 with the drawn 4; 8 alone would not do and must be refused as not
	// including the drawn card, before its sum is judged.
	for _, o := range []Options{primes, multi} {
		s := crafted(t, o, 1, [][]int{{1}, noPlayOn13}, []int{13}, []int{4}, fillDraw)
		s, _ = apply(t, s, 1, DrawAction(), noRand{t})
		refused(t, s, 1, PlayAction(8), "must_play_drawn_card_or_pass")
		refused(t, s, 1, DrawAction(), "wrong_phase")
	}
}

func TestPR5_MultiCardWithDrawnCard(t *testing.T) {
	// Hand 8, 9 on 13: no play (21, 22, 30). Drawn 2: alone 15, but 2 + 8 = 23 with 13... 13+2+8 = 23.
	s := crafted(t, multi, 1, [][]int{{1}, noPlayOn13}, []int{13}, []int{2}, fillDraw)
	s, out := apply(t, s, 1, DrawAction(), noRand{t})
	if !out.Drew.CanPlay || s.Status().Phase != PhaseDrawn {
		t.Fatalf("a drawn 2 plays with the 8 in multi-card mode: %+v", out.Drew)
	}
	refused(t, s, 1, PlayAction(2), "not_prime")
	s, out = apply(t, s, 1, PlayAction(2, 8), noRand{t})
	if out.Played.Total != 23 || s.Top() != 8 {
		t.Fatalf("played %+v", out.Played)
	}
}

func TestPR5_MultiCardOrderGivenLastIsTop(t *testing.T) {
	// The seed's example: 9 + 13 + 14 + 17 = 53.
	s := crafted(t, multi, 1, [][]int{{1}, {13, 14, 17, 2}}, []int{9}, nil, fillDraw)
	s, out := apply(t, s, 1, PlayAction(17, 13, 14), noRand{t})
	if out.Played.Total != 53 || out.Played.Equation != "9 + 17 + 13 + 14 = 53 is prime" {
		t.Fatalf("played %+v", out.Played)
	}
	pile := s.PrimedPile()
	if !slices.Equal(pile[len(pile)-4:], []int{9, 17, 13, 14}) || s.Top() != 14 || !slices.Equal(s.Hand(1), []int{2}) {
		t.Fatalf("pile %v, hand %v", pile, s.Hand(1))
	}
}

func TestPR5_SingleCardModeTakesOneCard(t *testing.T) {
	s := crafted(t, primes, 1, [][]int{{1}, {13, 14, 17, 2}}, []int{9}, nil, fillDraw)
	refused(t, s, 1, PlayAction(13, 14, 17), "one_card_only")
}

func TestPR5_ErrorsThatTeach(t *testing.T) {
	s := crafted(t, multi, 1, [][]int{{1}, {4, 5, 8}}, []int{13}, nil, fillDraw)
	refused(t, s, 0, PlayAction(1), "not_your_turn")
	if e := refused(t, s, 1, PlayAction(6), "card_not_in_hand"); !strings.Contains(e.Message, "6") {
		t.Errorf("message %q", e.Message)
	}
	refused(t, s, 1, PlayAction(4, 4), "card_not_in_hand")
	refused(t, s, 1, PlayAction(99), "card_not_in_hand")
	if e := refused(t, s, 1, PlayAction(4, 8), "not_prime"); e.Message != "13 + 4 + 8 = 25 is not prime: 25 = 5 × 5" {
		t.Errorf("message %q", e.Message)
	}
	refused(t, s, 1, PassAction(), "wrong_phase")
	for raw, code := range map[string]string{
		`{"type":"play"}`:                   "no_cards",
		`{"type":"play","cards":[]}`:        "no_cards",
		`{"type":"draw","cards":[4]}`:       "unexpected_cards",
		`{"type":"jump"}`:                   "unknown_action",
		`{}`:                                "invalid_action",
		`{"type":"play","cards":[4],"x":1}`: "invalid_action",
		`[1]`:                               "invalid_action",
		`{"type":"draw"} {}`:                "invalid_action",
	} {
		e := refused(t, s, 1, json.RawMessage(raw), code)
		if e.Kind != domain.KindInvalid {
			t.Errorf("%s: kind %s", raw, e.Kind)
		}
	}
	e := refused(t, s, 0, PlayAction(1), "not_your_turn")
	if e.Kind != domain.KindNotYourTurn {
		t.Errorf("kind %s", e.Kind)
	}
}

func TestPR6_EmptyDrawPileReshuffledFromUnderTop(t *testing.T) {
	s := crafted(t, primes, 1, [][]int{{1}, noPlayOn13}, []int{13}, nil, fillPrimed)
	under := len(s.PrimedPile()) - 1
	s, out := apply(t, s, 1, DrawAction(), domain.SeededRand(3, 1))
	if out.Reshuffled == nil || out.Reshuffled.Cards != under || out.Drew == nil {
		t.Fatalf("outcome %+v", out)
	}
	if !slices.Equal(s.PrimedPile(), []int{13}) || len(s.DrawPile()) != under-1 {
		t.Fatalf("primed pile %v, draw pile %d cards", s.PrimedPile(), len(s.DrawPile()))
	}
	if err := s.t.validate(); err != nil {
		t.Fatal(err)
	}
}

// blockable is a table a full deck cannot reach: nothing to draw, and neither hand makes a prime on 1
// (1+3, 1+5, 1+7, 1+8, 1+9 are all composite).
func blockable(t *testing.T, rounds int) *State {
	o := opts(DeckPrimed, TargetPrimes, false, rounds)
	return crafted(t, o, 1, [][]int{{7, 9}, {3, 5, 8}}, []int{1}, nil, fillNone)
}

func TestPR6_NothingToDrawPasses(t *testing.T) {
	s, out := apply(t, blockable(t, 4), 1, DrawAction(), noRand{t})
	if out.Passed == nil || out.Passed.Reason != PassNothingLeft || out.Passed.InARow != 1 || out.Drew != nil || out.Reshuffled != nil {
		t.Fatalf("outcome %+v", out)
	}
	if s.Turn() != 0 || s.ViewFor(domain.Public).PassesInARow != 1 {
		t.Fatalf("turn %d", s.Turn())
	}
}

func TestPR6_BlockedRound(t *testing.T) {
	s, _ := apply(t, blockable(t, 4), 1, DrawAction(), noRand{t})
	s, out := apply(t, s, 0, DrawAction(), domain.SeededRand(1, 2))
	r := out.RoundEnded
	if out.Passed.InARow != 2 || r == nil || r.Ending != EndBlocked || r.WentOut != nil {
		t.Fatalf("outcome %+v", out)
	}
	if !slices.Equal(r.Scores, []int{16, 16}) || !reflect.DeepEqual(r.Hands, [][]int{{7, 9}, {3, 5, 8}}) {
		t.Fatalf("blocked round scores %v hands %v", r.Scores, r.Hands)
	}
	if out.Dealt == nil || s.Round() != 2 || s.Dealer() != 1 {
		t.Fatalf("next round not dealt: %+v", out.Dealt)
	}
}

func TestPR6_PlayInBetweenRestartsTheCount(t *testing.T) {
	o := opts(DeckPrimed, TargetPrimes, false, 4)
	s := crafted(t, o, 1, [][]int{{7, 9}, {3, 5}, {2, 8}}, []int{1}, nil, fillNone)
	s, _ = apply(t, s, 1, DrawAction(), noRand{t})
	s, _ = apply(t, s, 2, PlayAction(2), noRand{t}) // 1 + 2 = 3
	if s.t.Passes != 0 {
		t.Fatalf("a play left the pass count at %d", s.t.Passes)
	}
}

func TestPR6_DrawAndKeepIsNotAPass(t *testing.T) {
	s := crafted(t, primes, 1, [][]int{{1}, noPlayOn13}, []int{13}, []int{4}, fillDraw)
	tb := s.t.clone()
	tb.Passes = 1
	s = &State{t: tb}
	s, _ = apply(t, s, 1, DrawAction(), noRand{t})
	s, _ = apply(t, s, 1, PassAction(), noRand{t})
	if s.t.Passes != 0 {
		t.Fatalf("a draw-and-keep counted as a PR-6 pass: %d", s.t.Passes)
	}
}

// PR-6: with a whole deck a blocked round cannot happen. Nothing to draw means every card but the top
// is in a hand, and for every top some card value hits the target, so some seat must play.
func TestPR6_FullDeckNeverBlocks(t *testing.T) {
	for _, o := range allVariants(4) {
		for top := 1; top <= o.MaxCard(); top++ {
			found := false
			for c := 1; c <= o.MaxCard(); c++ {
				found = found || hits(o.Target, top+c)
			}
			if !found {
				t.Errorf("%s: no card hits on %d", variantName(o), top)
			}
		}
	}
}

func TestPR7_RoundEndsTheMomentAHandIsEmpty(t *testing.T) {
	s := crafted(t, multi, 1, [][]int{{1, 2, 3}, {4, 6}, {5, 17}}, []int{13}, nil, fillDraw)
	s, out := apply(t, s, 1, PlayAction(4, 6), domain.SeededRand(1, 1)) // 13 + 4 + 6 = 23
	r := out.RoundEnded
	if r == nil || r.Ending != EndWentOut || r.WentOut == nil || *r.WentOut != 1 {
		t.Fatalf("round end %+v", r)
	}
	if !slices.Equal(r.Scores, []int{6, 0, 22}) || !slices.Equal(r.Totals, []int{6, 0, 22}) {
		t.Fatalf("scores %v totals %v", r.Scores, r.Totals)
	}
	if !reflect.DeepEqual(r.Hands, [][]int{{1, 2, 3}, {}, {5, 17}}) {
		t.Fatalf("revealed hands %v", r.Hands)
	}
	if s.Round() != 2 || s.Turn() != 2 || out.Dealt.Dealer != 1 {
		t.Fatalf("round %d turn %d", s.Round(), s.Turn())
	}
}

func TestPR7_TiedWinners(t *testing.T) {
	s := crafted(t, opts(DeckPrimed, TargetPrimes, false, 1), 0, [][]int{{4}, {9, 9}, {5}}, []int{13}, nil, fillDraw)
	tb := s.t.clone()
	tb.Totals = []int{5, 1, 0} // as if from earlier rounds
	s = &State{t: tb}
	s, out := apply(t, s, 0, PlayAction(4), noRand{t})
	if out.GameEnded == nil || !slices.Equal(out.GameEnded.Totals, []int{5, 19, 5}) || !slices.Equal(out.GameEnded.Winners, []int{0, 2}) {
		t.Fatalf("game end %+v", out.GameEnded)
	}
	st := s.Status()
	if !st.Finished || st.Phase != PhaseFinished || len(st.ToAct) != 0 || !slices.Equal(st.Winners, []int{0, 2}) {
		t.Fatalf("status %+v", st)
	}
	if sc := s.Scores().(Scores); !sc.Finished || !slices.Equal(sc.Winners, []int{0, 2}) {
		t.Fatalf("scores %+v", sc)
	}
	refused(t, s, 0, DrawAction(), "game_over")
	if len(s.Legal(0)) != 0 {
		t.Fatal("legal actions after the end")
	}
}

func TestPR7_LowestTotalWinsAfterLastRound(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		s := playOut(t, opts(DeckStandard, TargetComposites, false, 3), 4, seed)
		totals := make([]int, 4)
		for _, r := range s.Results() {
			for seat, h := range r.Hands {
				if sum(h) != r.Scores[seat] {
					t.Fatalf("round %d seat %d: score %d for hand %v", r.Round, seat, r.Scores[seat], h)
				}
				totals[seat] += r.Scores[seat]
			}
			if !slices.Equal(totals, r.Totals) {
				t.Fatalf("round %d totals %v, want %v", r.Round, r.Totals, totals)
			}
		}
		if !slices.Equal(s.Status().Winners, lowest(totals)) {
			t.Fatalf("winners %v for totals %v", s.Status().Winners, totals)
		}
	}
}

func TestPR8_PlayerSeesOwnHandAndSizesOnly(t *testing.T) {
	s := start(t, primes, 3, 8)
	v := s.ViewFor(domain.Player(1))
	for seat, h := range v.Hands {
		if h.Size != 7 {
			t.Errorf("seat %d size %d", seat, h.Size)
		}
		if (seat == 1) != (h.Cards != nil) {
			t.Errorf("player 1 sees seat %d's cards: %v", seat, h.Cards)
		}
	}
	if v.DrawPile != nil || v.DrawPileSize != 68-22 || len(v.PrimedPile) != 1 {
		t.Errorf("draw pile %v size %d", v.DrawPile, v.DrawPileSize)
	}
	b, _ := json.Marshal(v)
	if strings.Contains(string(b), `"draw_pile":`) {
		t.Errorf("player view has the draw pile: %s", b)
	}
}

func TestPR8_PublicSeesNoHandFullSeesAll(t *testing.T) {
	s := start(t, primes, 2, 8)
	pub := s.ViewFor(domain.Public)
	for _, h := range pub.Hands {
		if h.Cards != nil {
			t.Errorf("public sees %v", h.Cards)
		}
	}
	full := s.ViewFor(domain.Full)
	for seat, h := range full.Hands {
		if !slices.Equal(h.Cards, s.Hand(seat)) {
			t.Errorf("full view of seat %d: %v", seat, h.Cards)
		}
	}
	if !slices.Equal(full.DrawPile, s.DrawPile()) {
		t.Error("full view lacks the draw pile")
	}
}

func TestPR8_DrawnCardOnlyForDrawer(t *testing.T) {
	s := crafted(t, primes, 1, [][]int{{1}, noPlayOn13}, []int{13}, []int{4}, fillDraw)
	s, out := apply(t, s, 1, DrawAction(), noRand{t})
	for _, tc := range []struct {
		v    domain.Viewer
		card int
	}{{domain.Player(1), 4}, {domain.Full, 4}, {domain.Player(0), 0}, {domain.Public, 0}} {
		if got := out.Redact(tc.v).(*Outcome).Drew.Card; got != tc.card {
			t.Errorf("%+v sees drawn card %d", tc.v, got)
		}
		if got := s.ViewFor(tc.v).DrawnCard; got != tc.card {
			t.Errorf("%+v view shows drawn card %d", tc.v, got)
		}
	}
	if out.Drew.Card != 4 {
		t.Error("Redact modified the stored outcome")
	}
	b, _ := json.Marshal(out.Redact(domain.Player(0)))
	if strings.Contains(string(b), `"card"`) {
		t.Errorf("redacted draw: %s", b)
	}
}

func TestPR8_DealtHandsOnlyForTheirOwner(t *testing.T) {
	_, out, err := Start(primes.Canonical(), 3, domain.SeededRand(2, 0))
	if err != nil {
		t.Fatal(err)
	}
	for seat := range 3 {
		d := out.Redact(domain.Player(seat)).(*Outcome).Dealt
		for other, h := range d.Hands {
			if (other == seat) != (h != nil) {
				t.Errorf("seat %d sees seat %d's dealt hand %v", seat, other, h)
			}
		}
	}
	for _, h := range out.Redact(domain.Public).(*Outcome).Dealt.Hands {
		if h != nil {
			t.Errorf("public sees a dealt hand %v", h)
		}
	}
	for _, h := range out.Redact(domain.Full).(*Outcome).Dealt.Hands {
		if len(h) != 7 {
			t.Errorf("full sees a dealt hand %v", h)
		}
	}
}

func TestPR8_HandsRevealedAtRoundEnd(t *testing.T) {
	s := crafted(t, primes, 1, [][]int{{1, 2}, {4}}, []int{13}, nil, fillDraw)
	s, out := apply(t, s, 1, PlayAction(4), domain.SeededRand(4, 1))
	red := out.Redact(domain.Public).(*Outcome)
	if !reflect.DeepEqual(red.RoundEnded.Hands, [][]int{{1, 2}, {}}) {
		t.Fatalf("public round end %+v", red.RoundEnded)
	}
	if sc := s.ViewFor(domain.Public).Scores; len(sc.Rounds) != 1 || !reflect.DeepEqual(sc.Rounds[0].Hands, [][]int{{1, 2}, {}}) {
		t.Fatalf("public scores %+v", sc)
	}
}
