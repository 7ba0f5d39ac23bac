package primed

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"primegames/domain"
)

// seatInputs is what an advisor is given for the seat to act: its view and legal entries as JSON.
func seatInputs(t testing.TB, s *State) (json.RawMessage, []json.RawMessage) {
	t.Helper()
	seat := s.Turn()
	view, err := json.Marshal(s.ViewFor(domain.Player(seat)))
	if err != nil {
		t.Fatal(err)
	}
	var legal []json.RawMessage
	for _, e := range s.Legal(seat) {
		raw, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		legal = append(legal, raw)
	}
	return view, legal
}

func judge(t *testing.T, s *State, played json.RawMessage) domain.Judgement {
	t.Helper()
	view, legal := seatInputs(t, s)
	j, err := Advisor.Review(view, legal, played)
	if err != nil {
		t.Fatal(err)
	}
	return j
}

func missedOf(j domain.Judgement, kind string) (domain.Missed, bool) {
	i := slices.IndexFunc(j.Missed, func(m domain.Missed) bool { return m.Kind == kind })
	if i < 0 {
		return domain.Missed{}, false
	}
	return j.Missed[i], true
}

func TestKindDeclaresTheAdvisor(t *testing.T) {
	if Kind.Advisor == nil || Kind.Advisor.Choose == nil || Kind.Advisor.Review == nil {
		t.Fatal("Primed declares no advisor")
	}
	if th := Kind.Advisor.Thresholds; !(0 < th[0] && th[0] < th[1] && th[1] < th[2]) {
		t.Fatalf("thresholds %v are not increasing", th)
	}
}

// PR-4, PR-5, PR-7: on 6 the hand 1, 5, 7, 11 has four plays (7, 11, 13 and 17 are prime); playing
// the 1 leaves 23 in the hand where the 11 would have left 13.
func TestReview_LowerTotalMissedPR5PR7(t *testing.T) {
	s := crafted(t, DefaultOptions(), 1, [][]int{{2, 3, 4, 8, 9, 10, 12}, {1, 5, 7, 11}}, []int{6}, nil, fillDraw)
	j := judge(t, s, PlayAction(1))
	m, ok := missedOf(j, MissedLowerTotal)
	if !ok {
		t.Fatalf("missed %+v: no lower_total", j.Missed)
	}
	if !bytes.Equal(m.Action, PlayAction(11)) || m.Detail != "playing 11 on 6 (6 + 11 = 17 is prime) would have left 13 in your hand instead of 23" {
		t.Fatalf("lower_total %s: %q", m.Action, m.Detail)
	}
	if j.Loss <= 0 {
		t.Fatalf("playing the 1 lost %v against the expert's %q", j.Loss, j.Best.Explanation)
	}
	if _, ok := missedOf(j, MissedLongerPlay); ok {
		t.Fatal("longer_play named in a single-card game")
	}
	// The play that sheds the most misses nothing lower.
	if _, ok := missedOf(judge(t, s, PlayAction(11)), MissedLowerTotal); ok {
		t.Fatal("lower_total named for the play that leaves the lowest total")
	}
}

// PR-5: passing with a playable drawn card keeps it, so the play it allowed was a lower total. On 6
// the hand 8 has no play; the 11 drawn makes 17.
func TestReview_PassAfterDrawMissesLowerTotalPR5(t *testing.T) {
	s := crafted(t, DefaultOptions(), 1, [][]int{{2, 3, 4, 8, 9, 10, 12}, {8}}, []int{6}, []int{11}, fillDraw)
	s, _ = apply(t, s, 1, DrawAction(), noRand{t})
	if s.Drawn() != 11 {
		t.Fatalf("drew %d, want the playable 11", s.Drawn())
	}
	j := judge(t, s, PassAction())
	if m, ok := missedOf(j, MissedLowerTotal); !ok || !bytes.Equal(m.Action, PlayAction(11)) {
		t.Fatalf("missed %+v", j.Missed)
	}
	if j.Loss <= 0 || !bytes.Equal(s.Legal(1)[j.Best.Index].Action.JSON(), PlayAction(11)) {
		t.Fatalf("pass judged %+v", j)
	}
}

// PR-5 (multi-card): on 9 with 3, 5, 8 and 14, playing 14 alone (23) leaves a longer play unmade that
// the expert values above it.
func TestReview_LongerPlayMissedMultiCardPR5(t *testing.T) {
	o := opts(DeckPrimed, TargetPrimes, true, 4)
	s := crafted(t, o, 1, [][]int{{1, 2, 4, 6, 7, 10, 12}, {3, 5, 8, 14}}, []int{9}, nil, fillDraw)
	j := judge(t, s, PlayAction(14))
	m, ok := missedOf(j, MissedLongerPlay)
	if !ok {
		t.Fatalf("missed %+v: no longer_play", j.Missed)
	}
	var a Action
	if err := json.Unmarshal(m.Action, &a); err != nil || len(a.Cards) < 2 {
		t.Fatalf("longer_play action %s", m.Action)
	}
	if !strings.Contains(m.Detail, "would have shed more cards than your 1") {
		t.Fatalf("detail %q", m.Detail)
	}
	if _, _, err := s.Apply(1, m.Action, noRand{t}); err != nil {
		t.Fatalf("the missed play %s is not legal: %v", m.Action, err)
	}
}

// PR-7 (multi-card): 9 + 3 + 5 + 14 = 31 empties the hand; playing 14 alone misses going out.
func TestReview_GoOutMissedPR7(t *testing.T) {
	o := opts(DeckPrimed, TargetPrimes, true, 4)
	s := crafted(t, o, 1, [][]int{{1, 2, 4, 6, 7, 10, 12}, {3, 5, 14}}, []int{9}, nil, fillDraw)
	j := judge(t, s, PlayAction(14))
	m, ok := missedOf(j, MissedGoOut)
	if !ok || !bytes.Equal(m.Action, PlayAction(3, 5, 14)) {
		t.Fatalf("missed %+v", j.Missed)
	}
	if _, ok := missedOf(j, MissedLowerTotal); ok {
		t.Fatal("going out is named twice, also as lower_total")
	}
	if want := "play 3, 5 and 14 on 9: 31 is prime and your hand is empty, which ends the round"; j.Best.Explanation != want {
		t.Fatalf("best %q, want %q", j.Best.Explanation, want)
	}
	if j.Loss <= Thresholds[0] {
		t.Fatalf("missing the way out lost only %v, judged %q", j.Loss, Advisor.Label(j.Loss))
	}
}

func TestReview_BestActionLosesNothing(t *testing.T) {
	for _, o := range []Options{DefaultOptions(), opts(DeckStandard, TargetComposites, true, 4)} {
		s := start(t, o, 2, 5)
		view, legal := seatInputs(t, s)
		advice, err := Advisor.Choose(view, legal, domain.LevelExpert, firstRand{})
		if err != nil {
			t.Fatal(err)
		}
		chosen, err := advice.ActionIn(legal)
		if err != nil {
			t.Fatal(err)
		}
		j := judge(t, s, chosen)
		if j.Loss != 0 || j.Best.Index != advice.Index || !bytes.Equal(j.Best.Action, advice.Action) {
			t.Fatalf("%s: the expert's own choice judged %+v", variantName(o), j)
		}
		if Advisor.Label(j.Loss) != "best" {
			t.Fatalf("label %q", Advisor.Label(j.Loss))
		}
	}
}

func TestReview_RefusesAPlayNotInTheHand(t *testing.T) {
	s := crafted(t, DefaultOptions(), 1, [][]int{{2, 3, 4, 8, 9, 10, 12}, {1, 5, 7, 11}}, []int{6}, nil, fillDraw)
	view, legal := seatInputs(t, s)
	if _, err := Advisor.Review(view, legal, PlayAction(13)); err == nil {
		t.Fatal("a play of a card not held was judged")
	}
}

// PR-4: the explanation is one sentence with the sum and the hand left.
func TestChoose_ExplainsTheSum(t *testing.T) {
	s := crafted(t, DefaultOptions(), 1, [][]int{{2, 3, 4, 8, 9, 10, 12}, {7, 13, 11}}, []int{6}, nil, fillDraw)
	view, legal := seatInputs(t, s)
	advice, err := Advisor.Choose(view, legal, domain.LevelGreedy, firstRand{})
	if err != nil {
		t.Fatal(err)
	}
	if want := "play 13 on 6: 19 is prime and your hand drops to 18"; !strings.HasPrefix(advice.Explanation, want) {
		t.Fatalf("explanation %q, want it to begin %q", advice.Explanation, want)
	}
	o := opts(DeckPrimed, TargetComposites, false, 4)
	s = crafted(t, o, 1, [][]int{{2, 3, 4, 8, 9, 10, 12}, {3, 17}}, []int{6}, nil, fillDraw)
	view, legal = seatInputs(t, s)
	if advice, _ = Advisor.Choose(view, legal, domain.LevelGreedy, firstRand{}); !strings.HasPrefix(advice.Explanation, "play 3 on 6: 9 = 3 × 3 is composite and your hand drops to 17") {
		t.Fatalf("explanation %q", advice.Explanation)
	}
}

// PR-8: two tables that differ only in the other hand and the order of the draw pile show the seat
// the same view, so the expert chooses the same; it is given nothing else.
func TestChoose_DependsOnlyOnTheViewPR8(t *testing.T) {
	for _, o := range []Options{DefaultOptions(), opts(DeckPrimed, TargetPrimes, true, 4)} {
		own := []int{2, 5, 9, 11, 14}
		a := crafted(t, o, 1, [][]int{{1, 3, 4, 6, 7, 8, 10}, own}, []int{12}, []int{13, 15, 16, 17}, fillDraw)
		b := crafted(t, o, 1, [][]int{{13, 15, 16, 17, 1, 1, 1}, own}, []int{12}, []int{4, 6, 7, 8, 3, 10}, fillDraw)
		viewA, legalA := seatInputs(t, a)
		viewB, legalB := seatInputs(t, b)
		if !bytes.Equal(viewA, viewB) {
			t.Fatalf("the views differ:\n%s\n%s", viewA, viewB)
		}
		choiceA, err := Advisor.Choose(viewA, legalA, domain.LevelExpert, firstRand{})
		if err != nil {
			t.Fatal(err)
		}
		choiceB, _ := Advisor.Choose(viewB, legalB, domain.LevelExpert, firstRand{})
		if !reflect.DeepEqual(choiceA, choiceB) {
			t.Fatalf("%s: %+v and %+v", variantName(o), choiceA, choiceB)
		}
	}
}

func TestChoose_ExpertGoesOutPR7(t *testing.T) {
	s := crafted(t, DefaultOptions(), 1, [][]int{{2, 3, 4, 8, 9, 10, 12}, {1}}, []int{6}, nil, fillDraw)
	view, legal := seatInputs(t, s)
	advice, err := Advisor.Choose(view, legal, domain.LevelExpert, firstRand{})
	if err != nil || !strings.HasSuffix(advice.Explanation, "your hand is empty, which ends the round") {
		t.Fatalf("%+v %v", advice, err)
	}
}

func TestChoose_RejectsBadInput(t *testing.T) {
	s := start(t, DefaultOptions(), 2, 1)
	view, legal := seatInputs(t, s)
	if _, err := Advisor.Choose(view, legal, "clever", firstRand{}); err == nil {
		t.Fatal("an unknown level was accepted")
	}
	if _, err := Advisor.Choose(view, nil, domain.LevelExpert, firstRand{}); err == nil {
		t.Fatal("no legal actions was accepted")
	}
	public, _ := json.Marshal(s.ViewFor(domain.Viewer{Role: domain.RolePublic}))
	if _, err := Advisor.Choose(public, legal, domain.LevelExpert, firstRand{}); err == nil {
		t.Fatal("a view without the hand was accepted")
	}
	// PR-2: the cards out of sight are the deck less the hand and the pile; a view that counts
	// others is not of this game.
	v := s.ViewFor(domain.Player(s.Turn()))
	v.DrawPileSize += 5
	tampered, _ := json.Marshal(v)
	if _, err := Advisor.Review(tampered, legal, s.Legal(s.Turn())[0].Action.JSON()); err == nil {
		t.Fatal("a view with more cards than the deck was accepted")
	}
}

// PR-5 (multi-card): LegalActions lists plays of up to MaxListedCards cards and the longest, but any
// legal play may be posted; a review judges one that is not listed too.
func TestReview_UnlistedMultiCardPlayPR5(t *testing.T) {
	o := opts(DeckPrimed, TargetPrimes, true, 4)
	hand := []int{1, 2, 3, 4, 6, 8, 10, 12}
	s := crafted(t, o, 1, [][]int{{5, 7, 9, 11, 13, 14, 15}, hand}, []int{9}, nil, fillDraw)
	listed := s.Legal(1)
	var unlisted []int
	for _, play := range Plays(hand, 9, TargetPrimes, 0, len(hand)) {
		if len(play) > MaxListedCards && !slices.ContainsFunc(listed, func(e LegalAction) bool { return slices.Equal(e.Action.Cards, play) }) {
			unlisted = play
			break
		}
	}
	if unlisted == nil {
		t.Fatal("the hand has no unlisted play: choose another")
	}
	j := judge(t, s, PlayAction(unlisted...))
	if j.Loss < 0 {
		t.Fatalf("loss %v", j.Loss)
	}
	if _, ok := missedOf(j, MissedLongerPlay); ok != (len(LongestPlay(hand, 9, TargetPrimes, 0)) > len(unlisted)) {
		t.Fatalf("played %v, longest %v, missed %+v", unlisted, LongestPlay(hand, 9, TargetPrimes, 0), j.Missed)
	}
}

// The expert's own choice misses nothing, and a lower_total (or go_out, longer_play) is named only for
// a play the expert values above the action played: over the decisions of expert-against-greedy
// games, single and multi-card, every entry judged names only plays that lose less than it did.
func TestReview_ExpertChoiceMissesNothing(t *testing.T) {
	for _, multi := range []bool{false, true} {
		o := opts(DeckPrimed, TargetPrimes, multi, 1)
		s, _, err := Start(o.Canonical(), 2, domain.SeededRand(7, 0))
		if err != nil {
			t.Fatal(err)
		}
		for step := int64(1); !s.Status().Finished && step < 40; step++ {
			seat := s.Turn()
			view, legal := seatInputs(t, s)
			advice, err := Advisor.Choose(view, legal, domain.LevelExpert, domain.SeededRand(7, step))
			if err != nil {
				t.Fatal(err)
			}
			chosen, err := advice.ActionIn(legal)
			if err != nil {
				t.Fatal(err)
			}
			if j := judge(t, s, chosen); len(j.Missed) != 0 || j.Loss != 0 {
				t.Fatalf("multi %v step %d: the expert's own %s loses %.2f and misses %+v", multi, step, chosen, j.Loss, j.Missed)
			}
			for _, e := range s.Legal(seat) {
				j := judge(t, s, e.Action.JSON())
				for _, m := range j.Missed {
					if other := judge(t, s, m.Action); other.Loss >= j.Loss {
						t.Fatalf("multi %v step %d: %s names %s %s, which loses %.2f, not less than its %.2f",
							multi, step, e.Action.JSON(), m.Kind, m.Action, other.Loss, j.Loss)
					}
				}
			}
			next, _, err := s.Apply(seat, chosen, domain.SeededRand(7, step))
			if err != nil {
				t.Fatal(err)
			}
			s = next.(*State)
		}
	}
}
