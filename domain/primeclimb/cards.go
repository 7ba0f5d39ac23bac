package primeclimb

import (
	"fmt"
	"strconv"
	"strings"
)

// Card is the identifier of a Prime Card kind as the API spells it, e.g. "plus_minus_5" or "swap".
// Copies of one kind are interchangeable, so a held card is named by its kind alone.
type Card string

// Keeper cards (PC-12).
const (
	SendToStart Card = "send_to_start"
	Curse       Card = "curse"
)

// Action cards (PC-13).
const (
	RollAgain            Card = "roll_again"
	PlusMinus50          Card = "plus_minus_50"
	DoubleOrBack10       Card = "double_or_back_10"
	AdvanceToNearestPawn Card = "advance_to_nearest_pawn"
	ReverseToNearestPawn Card = "reverse_to_nearest_pawn"
	ReverseDigits        Card = "reverse_digits"
	Swap                 Card = "swap"
	GoTo64               Card = "go_to_64"
	Steal                Card = "steal"
)

// PlusMinus returns the keeper card "±n" for n in 1..9 (PC-12).
func PlusMinus(n int) Card { return Card("plus_minus_" + strconv.Itoa(n)) }

// plusMinusValue returns n for a "±n" keeper card (1..9) and false for any other card.
func plusMinusValue(c Card) (int, bool) {
	rest, ok := strings.CutPrefix(string(c), "plus_minus_")
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(rest)
	if err != nil || n < 1 || n > 9 || rest != strconv.Itoa(n) {
		return 0, false
	}
	return n, true
}

// IsKeeper reports whether c is one of the 13 keeper cards (PC-12).
func (c Card) IsKeeper() bool {
	_, pm := plusMinusValue(c)
	return pm || c == SendToStart || c == Curse
}

// IsAction reports whether c is one of the 11 action cards (PC-13).
func (c Card) IsAction() bool {
	switch c {
	case RollAgain, PlusMinus50, DoubleOrBack10, AdvanceToNearestPawn, ReverseToNearestPawn,
		ReverseDigits, Swap, GoTo64, Steal:
		return true
	}
	return false
}

// Valid reports whether c names a card of the deck.
func (c Card) Valid() bool { return c.IsKeeper() || c.IsAction() }

// Title is the card's name as printed, for messages.
func (c Card) Title() string {
	if n, ok := plusMinusValue(c); ok {
		return fmt.Sprintf("±%d", n)
	}
	switch c {
	case SendToStart:
		return "Send to Start"
	case Curse:
		return "Curse"
	case RollAgain:
		return "Roll Again"
	case PlusMinus50:
		return "±50"
	case DoubleOrBack10:
		return "Double or Back 10"
	case AdvanceToNearestPawn:
		return "Advance to Nearest Pawn"
	case ReverseToNearestPawn:
		return "Reverse to Nearest Pawn"
	case ReverseDigits:
		return "Reverse Digits"
	case Swap:
		return "Swap"
	case GoTo64:
		return "Go to 64"
	case Steal:
		return "Steal"
	}
	return string(c)
}

// FullDeck returns the 24 Prime Cards in a fixed order (PC-11..PC-13): 13 keepers, then 11 actions.
func FullDeck() []Card {
	deck := make([]Card, 0, 24)
	for n := 1; n <= 9; n++ {
		deck = append(deck, PlusMinus(n))
	}
	deck = append(deck, SendToStart, SendToStart, Curse, Curse)
	deck = append(deck, RollAgain, RollAgain, RollAgain, PlusMinus50, DoubleOrBack10,
		AdvanceToNearestPawn, ReverseToNearestPawn, ReverseDigits, Swap, GoTo64, Steal)
	return deck
}
