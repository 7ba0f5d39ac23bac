package play

import (
	"bytes"
	"encoding/json"
	"slices"
	"testing"

	"primegames/domain"
	"primegames/domain/games"
)

// A computer player decides from its own seat's view: botAction hands players.Decide only the
// seat's view and legal actions as JSON. Two Primed states that differ only in cards the seat
// cannot see (another hand, the order of the draw pile) give every level the same choice.
func TestBotDecidesFromItsSeatsViewAlone(t *testing.T) {
	t.Parallel()
	kind, _ := games.All().Lookup("primed")
	compared := 0
	for seed := range uint64(20) {
		state, _, err := kind.Rules.Start(nil, 3, domain.SeededRand(seed, 0))
		if err != nil {
			t.Fatal(err)
		}
		seat := state.Status().ToAct[0]
		hidden := withHiddenCardsSwapped(t, kind.Rules, state, (seat+1)%3)
		if hidden == nil {
			continue
		}
		if viewJSON(t, state, domain.Full) == viewJSON(t, hidden, domain.Full) {
			t.Fatal("the states should differ in the hidden cards")
		}
		if viewJSON(t, state, domain.Player(seat)) != viewJSON(t, hidden, domain.Player(seat)) {
			t.Fatalf("seed %d: seat %d's view differs between the states", seed, seat)
		}
		for _, level := range domain.Levels {
			r1, r2 := domain.SeededRand(seed^botStream, 1), domain.SeededRand(seed^botStream, 1)
			a1, err1 := botAction(kind, state, seat, level, r1)
			a2, err2 := botAction(kind, hidden, seat, level, r2)
			if err1 != nil || err2 != nil {
				t.Fatalf("seed %d %s: %v, %v", seed, level, err1, err2)
			}
			if !bytes.Equal(a1, a2) {
				t.Errorf("seed %d: the %s bot chose %s, and %s when only hidden cards changed", seed, level, a1, a2)
			}
			compared++
		}
	}
	if compared == 0 {
		t.Fatal("no state had hidden cards to swap")
	}
}

// withHiddenCardsSwapped is state with one card of other's hand exchanged for a different card of
// the draw pile; nil when there is none to exchange.
func withHiddenCardsSwapped(t *testing.T, rules domain.Rules, state domain.State, other int) domain.State {
	t.Helper()
	snapshot, err := json.Marshal(state)
	if err != nil {
		t.Fatal(err)
	}
	var fields map[string]json.RawMessage
	var hands [][]int
	var pile []int
	if json.Unmarshal(snapshot, &fields) != nil || json.Unmarshal(fields["hands"], &hands) != nil || json.Unmarshal(fields["draw_pile"], &pile) != nil {
		t.Fatalf("unexpected snapshot: %s", snapshot)
	}
	for i, card := range hands[other] {
		for j, drawn := range pile {
			if drawn != card {
				hands[other][i], pile[j] = drawn, card
				slices.Sort(hands[other])
				fields["hands"], _ = json.Marshal(hands)
				fields["draw_pile"], _ = json.Marshal(pile)
				changed, _ := json.Marshal(fields)
				next, err := rules.Decode(changed)
				if err != nil {
					t.Fatal(err)
				}
				return next
			}
		}
	}
	return nil
}

func viewJSON(t *testing.T, state domain.State, viewer domain.Viewer) string {
	t.Helper()
	b, err := json.Marshal(state.View(viewer))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
