package primed

import (
	"slices"
	"testing"

	"primegames/domain"
)

// Every variant plays whole games to the end, with the dealer rotating (PR-3).
func TestVariants_FullGames(t *testing.T) {
	for _, o := range allVariants(4) {
		t.Run(variantName(o), func(t *testing.T) {
			for seats := o.Seats().Min; seats <= o.Seats().Max; seats++ {
				s := playOut(t, o, seats, uint64(100+seats))
				if st := s.Status(); !st.Finished || len(st.Winners) == 0 || len(s.Results()) != 4 {
					t.Fatalf("%d seats: %+v", seats, st)
				}
			}
		})
	}
}

func TestVariant_CompositesMultiCard(t *testing.T) {
	// On 1: 1+2 = 3 and 1+6 = 7 are prime, but 1+2+6 = 9 = 3 × 3.
	o := opts(DeckPrimed, TargetComposites, true, 4)
	s := crafted(t, o, 1, [][]int{{1}, {2, 6, 17}}, []int{1}, nil, fillDraw)
	e := refused(t, s, 1, PlayAction(6), "not_composite")
	if e.Message != "1 + 6 = 7 is not composite: 7 is prime" {
		t.Fatalf("message %q", e.Message)
	}
	refused(t, s, 1, DrawAction(), "play_available")
	s, out := apply(t, s, 1, PlayAction(2, 6), noRand{t})
	if out.Played.Equation != "1 + 2 + 6 = 9 = 3 × 3" || s.Top() != 6 {
		t.Fatalf("played %+v", out.Played)
	}
}

func TestVariant_CompositesSingleCardMustDraw(t *testing.T) {
	// Without multi-card the same hand has no play, so the player draws.
	o := opts(DeckPrimed, TargetComposites, false, 4)
	s := crafted(t, o, 1, [][]int{{1}, {2, 6}}, []int{1}, []int{3}, fillDraw)
	if len(s.Legal(1)) != 1 || s.Legal(1)[0].Action.Type != ActionDraw {
		t.Fatalf("legal %+v", s.Legal(1))
	}
	s, out := apply(t, s, 1, DrawAction(), noRand{t})
	if out.Drew.Card != 3 || !out.Drew.CanPlay || s.Status().Phase != PhaseDrawn { // 1 + 3 = 4
		t.Fatalf("drew %+v", out.Drew)
	}
}

func TestVariant_StandardDeckComposites(t *testing.T) {
	o := opts(DeckStandard, TargetComposites, false, 4)
	// On 10: 10+1 = 11 and 10+3 = 13 are prime; the drawn 2 makes 12.
	s := crafted(t, o, 1, [][]int{{5}, {1, 3}}, []int{10}, []int{2}, fillDraw)
	refused(t, s, 1, PlayAction(11), "card_not_in_hand")
	refused(t, s, 1, PlayAction(3), "not_composite")
	s, _ = apply(t, s, 1, DrawAction(), noRand{t})
	s, out := apply(t, s, 1, PlayAction(2), noRand{t})
	if out.Played.Total != 12 || s.Turn() != 0 {
		t.Fatalf("played %+v", out.Played)
	}
}

func TestVariant_StandardDeckMultiCard(t *testing.T) {
	// Standard deck tops out at 10; multi-card reaches past 19: 10 + 9 + 10 = 29.
	o := opts(DeckStandard, TargetPrimes, true, 4)
	s := crafted(t, o, 1, [][]int{{5}, {9, 10, 4}}, []int{10}, nil, fillDraw)
	legal := s.Legal(1)
	if !slices.ContainsFunc(legal, func(e LegalAction) bool { return slices.Equal(e.Action.Cards, []int{9, 10}) && e.Total == 29 }) {
		t.Fatalf("legal %+v", legal)
	}
	for _, e := range legal {
		if _, _, err := s.Apply(1, e.Action.JSON(), firstRand{}); err != nil {
			t.Fatalf("%+v refused: %v", e, err)
		}
	}
	_, _, err := Start(o.Canonical(), 6, domain.SeededRand(1, 0))
	if domain.ErrorCode(err) != "invalid_seats" {
		t.Fatalf("six seats with the standard deck: %v", err)
	}
}

func TestVariant_StandardDeckPrimesMaxIs19(t *testing.T) {
	// With one card at a time the largest sum is 10 + 10 = 20, so 19 is the highest prime (seed text).
	o := opts(DeckStandard, TargetPrimes, false, 4)
	s := crafted(t, o, 1, [][]int{{5}, {9, 10}}, []int{10}, nil, fillDraw)
	legal := s.Legal(1)
	if len(legal) != 1 || legal[0].Total != 19 {
		t.Fatalf("legal %+v", legal)
	}
}

func TestVariant_PrimedDeckMultiCardLegalActionsAreAccepted(t *testing.T) {
	s := crafted(t, multi, 1, [][]int{{5}, {1, 1, 2, 3, 4, 6, 8, 12, 14, 16}}, []int{7}, nil, fillDraw)
	legal := s.Legal(1)
	longest := 0
	for _, e := range legal {
		if _, _, err := s.Apply(1, e.Action.JSON(), firstRand{}); err != nil {
			t.Fatalf("%+v refused: %v", e, err)
		}
		if e.Longest {
			longest++
			if len(e.Action.Cards) != 10 && len(e.Action.Cards) != 9 {
				t.Errorf("longest play %v", e.Action.Cards)
			}
		}
	}
	if longest != 1 {
		t.Fatalf("%d longest plays marked", longest)
	}
}

func TestOptionsValidation(t *testing.T) {
	canon, _, err := Rules.Options(nil)
	if err != nil || string(canon) != `{"deck":"primed","target":"primes","multi_card":false,"rounds":4}` {
		t.Fatalf("defaults: %s %v", canon, err)
	}
	canon, _, err = Rules.Options([]byte(`{"multi_card":true,"deck":"standard"}`))
	if err != nil || string(canon) != `{"deck":"standard","target":"primes","multi_card":true,"rounds":4}` {
		t.Fatalf("partial: %s %v", canon, err)
	}
	for _, raw := range []string{`{"deck":"tarot"}`, `{"target":"evens"}`, `{"colour":"red"}`, `{"multi_card":"yes"}`, `[]`, `{} {}`, `{"deck":1}`} {
		_, _, err := Rules.Options([]byte(raw))
		if domain.ErrorKind(err) != domain.KindInvalid || domain.ErrorCode(err) != "invalid_options" {
			t.Errorf("%s: %v", raw, err)
		}
	}
	if Rules.Name() != "primed" {
		t.Fatal(Rules.Name())
	}
}

func TestDecodeRejectsImpossibleSnapshots(t *testing.T) {
	s := start(t, primes, 2, 1)
	for name, mutate := range map[string]func(*table){
		"extra card":     func(t *table) { t.Hands[0] = append(t.Hands[0], 17) },
		"lost card":      func(t *table) { t.DrawPile = t.DrawPile[1:] },
		"turn":           func(t *table) { t.Turn = 5 },
		"phase":          func(t *table) { t.Phase = "dance" },
		"empty pile":     func(t *table) { t.DrawPile = append(t.DrawPile, t.PrimedPile...); t.PrimedPile = []int{} },
		"seats":          func(t *table) { t.Seats = 3 },
		"unsorted hands": func(t *table) { slices.Reverse(t.Hands[0]) },
	} {
		tb := s.t.clone()
		mutate(&tb)
		b, _ := (&State{t: tb}).MarshalJSON()
		if _, err := Rules.Decode(b); domain.ErrorKind(err) != domain.KindInvalid {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := Rules.Decode([]byte(`{"nope":1}`)); err == nil {
		t.Error("decoded junk")
	}
}
