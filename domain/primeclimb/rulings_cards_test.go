package primeclimb

import (
	"encoding/json"
	"testing"
)

// moveTo is a move that brings seat 0's pawn 0 from x−3 to x with a 1 and a 2.
const moveTo = `{"type":"move","steps":[{"die":1,"pawn":0,"op":"add"},{"die":2,"pawn":0,"op":"add"}]}`

// drawAt sets seat 0's pawn 0 three short of x with dice 1 and 2 and card on top of the deck.
func drawAt(x int, card Card, others ...[2]int) State {
	pawns := append([][2]int{{x - 3, 0}}, others...)
	if len(others) == 0 {
		pawns = append(pawns, [2]int{0, 0})
	}
	return game(pawns...).deck(card, PlusMinus(9)).rolled(1, 2)
}

func TestPC10_DrawOnNewRedSquare(t *testing.T) {
	next, out := apply(t, drawAt(13, PlusMinus(1)), 0, moveTo)
	if out.Draw == nil || *out.Draw.Card != PlusMinus(1) || out.Draw.Kind != "keeper" || out.Draw.Pawn != 0 || out.Draw.Square != 13 {
		t.Fatalf("draw %+v", out.Draw)
	}
	if k := next.Players[0].Keepers; len(k) != 1 || !k[0].New || len(next.Deck) != 1 {
		t.Fatalf("keepers %+v deck %v", k, next.Deck)
	}
}

func TestPC10_LandOnRedAndLeaveNoDraw(t *testing.T) {
	s := game([2]int{10, 0}, [2]int{0, 0}).rolled(3, 2)
	_, out := apply(t, s, 0, `{"type":"move","steps":[{"die":3,"pawn":0,"op":"add"},{"die":2,"pawn":0,"op":"multiply"}]}`)
	if out.Draw != nil {
		t.Fatalf("13 then 26 drew %+v", out.Draw)
	}
}

func TestPC10_LeaveRedAndComeBackNoDraw(t *testing.T) {
	s := game([2]int{13, 0}, [2]int{0, 0}).rolled(2, 2, 2, 2)
	next, out := apply(t, s, 0, `{"type":"move","steps":[{"die":2,"pawn":0,"op":"add"},{"die":2,"pawn":0,"op":"subtract"},{"die":2,"pawn":1,"op":"multiply"},{"die":2,"pawn":1,"op":"divide"}]}`)
	if out.Draw != nil || len(next.Deck) != 24 {
		t.Fatalf("back on 13 drew %+v", out.Draw)
	}
}

func TestPC10_HomeNeverDraws(t *testing.T) {
	s := game([2]int{94, 0}, [2]int{0, 0}).rolled(7, 1)
	_, out := apply(t, s, 0, `{"type":"move","steps":[{"die":7,"pawn":0,"op":"add"},{"die":1,"pawn":1,"op":"multiply"}]}`)
	if out.Draw != nil {
		t.Fatalf("101 drew %+v", out.Draw)
	}
}

func TestPC10_OneCardWhenBothPawnsEarnIt(t *testing.T) {
	s := game([2]int{10, 20}, [2]int{0, 0}).deck(GoTo64, PlusMinus(1)).rolled(3, 1)
	steps := `"steps":[{"die":3,"pawn":0,"op":"add"},{"die":1,"pawn":1,"op":"subtract"}]`
	next, out := apply(t, s, 0, `{"type":"move",`+steps+`}`)
	if out.Draw.Pawn != 1 || len(next.Deck) != 1 { // default: the pawn that moved last
		t.Fatalf("draw %+v", out.Draw)
	}
	wantPawns(t, next, 0, [2]int{13, 64})
	next, out = apply(t, s, 0, `{"type":"move",`+steps+`,"draw_pawn":0}`)
	wantPawns(t, next, 0, [2]int{64, 19})
	if out.Draw.Pawn != 0 {
		t.Fatalf("draw %+v", out.Draw)
	}
	var variants int
	for _, la := range s.MoveOptions() {
		if la.Ends != nil && *la.Ends == [2]int{13, 19} {
			variants++
		}
	}
	if variants != 2 {
		t.Fatalf("want both draw_pawn choices listed, got %d", variants)
	}
}

func TestPC10_ActionCardMovesNeverDraw(t *testing.T) {
	next, out := apply(t, drawAt(13, ReverseDigits), 0, moveTo) // 13 → 31, red, but no second card
	wantPawns(t, next, 0, [2]int{31, 0})
	if len(next.Deck) != 1 || out.Draw.Effect != "pawn 0: 13 reversed is 31" {
		t.Fatalf("deck %v draw %+v", next.Deck, out.Draw)
	}
}

func TestPC10_KeeperLandingCounts(t *testing.T) {
	s := game([2]int{10, 0}, [2]int{0, 0}).holding(0, PlusMinus(3)).deck(PlusMinus(1))
	s, _ = apply(t, s, 0, `{"type":"keeper","card":"plus_minus_3","pawn":0,"sign":"+"}`)
	s = s.rolled(1, 2)
	_, out := apply(t, s, 0, `{"type":"move","steps":[{"die":1,"pawn":1,"op":"add"},{"die":2,"pawn":1,"op":"multiply"}]}`)
	if out.Draw == nil || out.Draw.Pawn != 0 {
		t.Fatalf("the keeper's red landing did not draw: %+v", out.Draw)
	}
}

func TestPC11_DeckHas13KeepersAnd11Actions(t *testing.T) {
	count := map[Card]int{}
	keepers, actions := 0, 0
	for _, c := range FullDeck() {
		count[c]++
		if c.IsKeeper() {
			keepers++
		}
		if c.IsAction() {
			actions++
		}
	}
	if keepers != 13 || actions != 11 || len(FullDeck()) != 24 {
		t.Fatalf("keepers %d actions %d", keepers, actions)
	}
	for n := 1; n <= 9; n++ {
		if count[PlusMinus(n)] != 1 {
			t.Errorf("±%d ×%d", n, count[PlusMinus(n)])
		}
	}
	for c, want := range map[Card]int{SendToStart: 2, Curse: 2, RollAgain: 3, PlusMinus50: 1, DoubleOrBack10: 1,
		AdvanceToNearestPawn: 1, ReverseToNearestPawn: 1, ReverseDigits: 1, Swap: 1, GoTo64: 1, Steal: 1} {
		if count[c] != want {
			t.Errorf("%s ×%d, want %d", c, count[c], want)
		}
	}
}

func TestPC11_EmptyDeckReshufflesTheDiscardPile(t *testing.T) {
	s := drawAt(13, GoTo64).deck()
	s.Discard = []Card{GoTo64, PlusMinus(2)}
	next, out := apply(t, s, 0, moveTo, 1) // the shuffle draws one value; IntN(2) = 1 keeps the order
	if !out.Draw.Reshuffled || *out.Draw.Card != GoTo64 || len(next.Deck) != 1 || len(next.Discard) != 1 {
		t.Fatalf("draw %+v deck %v discard %v", out.Draw, next.Deck, next.Discard)
	}
	// Deck and discard pile both empty: nothing is drawn, no random value is used.
	s.Discard = []Card{}
	_, out = apply(t, s, 0, moveTo)
	if out.Draw.Card != nil || out.Draw.Kind != "none" {
		t.Fatalf("draw %+v", out.Draw)
	}
}

func TestPC11_NoCardsOption(t *testing.T) {
	st, _, err := Rules.Start(json.RawMessage(`{"prime_cards":false}`), 2, fixed(0, 0, 1, 1))
	if err != nil {
		t.Fatal(err)
	}
	s := st.(State)
	if len(s.Deck) != 0 {
		t.Fatalf("deck %v", s.Deck)
	}
	s.Players[s.Turn.Seat].Pawns = [2]int{10, 0}
	s.Turn.StartPawns = [2]int{10, 0}
	s = s.rolled(1, 2)
	_, out := apply(t, s, s.Turn.Seat, moveTo)
	if out.Draw != nil {
		t.Fatalf("no-cards game drew %+v", out.Draw)
	}
}
