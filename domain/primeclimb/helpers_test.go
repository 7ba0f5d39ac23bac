package primeclimb

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"primegames/domain"
)

// game builds a state directly: one seat per pawn pair, seat 0 to act in the roll phase, the deck in
// FullDeck order.
func game(pawns ...[2]int) State {
	s := State{Options: DefaultOptions(), Players: make([]Player, len(pawns)), Deck: FullDeck(), Discard: []Card{}}
	for i, p := range pawns {
		s.Players[i] = Player{Pawns: p, Keepers: []HeldCard{}}
	}
	s.startTurn(0)
	return s
}

// rolled puts s in the move phase with the given die uses (pass four equal values for doubles).
func (s State) rolled(uses ...int) State {
	s = s.clone()
	s.Phase = PhaseMove
	s.Turn.Dice = []int{uses[0], uses[1]}
	s.Turn.Uses = uses
	return s
}

// holding gives seat playable keepers.
func (s State) holding(seat int, cards ...Card) State {
	s = s.clone()
	for _, c := range cards {
		s.Players[seat].Keepers = append(s.Players[seat].Keepers, HeldCard{Card: c})
	}
	return s
}

// deck replaces the deck; the first card is drawn first.
func (s State) deck(cards ...Card) State {
	s = s.clone()
	s.Deck = append([]Card{}, cards...)
	return s
}

func (s State) cursed() State {
	s = s.clone()
	s.Turn.Cursed = true
	return s
}

// apply performs action for seat, feeding exactly the given random values, and fails the test on error.
func apply(t *testing.T, s State, seat int, action string, random ...int) (State, *Outcome) {
	t.Helper()
	tape := domain.NewTape(random)
	next, out, err := s.Apply(seat, json.RawMessage(action), tape)
	if err != nil {
		t.Fatalf("%s refused: %v", action, err)
	}
	if tape.Remaining() != 0 {
		t.Fatalf("%s used %d of %d random values", action, len(random)-tape.Remaining(), len(random))
	}
	return next.(State), out.(*Outcome)
}

// refuse expects action to be refused with code and returns the error for message checks.
func refuse(t *testing.T, s State, seat int, action, code string, inMessage ...string) *domain.Error {
	t.Helper()
	_, _, err := s.Apply(seat, json.RawMessage(action), domain.NewTape(nil))
	var de *domain.Error
	if !errors.As(err, &de) {
		t.Fatalf("%s: want error %s, got %v", action, code, err)
	}
	if de.Code != code {
		t.Fatalf("%s: want code %s, got %s (%s)", action, code, de.Code, de.Message)
	}
	for _, part := range inMessage {
		if !strings.Contains(de.Message, part) {
			t.Errorf("%s: message %q does not mention %q", action, de.Message, part)
		}
	}
	return de
}

func wantPawns(t *testing.T, s State, seat int, want [2]int) {
	t.Helper()
	if got := s.Players[seat].Pawns; got != want {
		t.Fatalf("seat %d pawns %v, want %v", seat, got, want)
	}
}

// shuffleZeros is a valid tape for a Fisher–Yates shuffle of n cards.
func shuffleZeros(n int) []int { return make([]int, max(n-1, 0)) }

// fixed is a tape of exactly these values.
func fixed(values ...int) *domain.Tape { return domain.NewTape(values) }
