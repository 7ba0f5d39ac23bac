package primed

import (
	"primegames/domain"
	"primegames/domain/numbers"
)

// The facts of Primed's refusals: the numbers behind each message, for programs. Their JSON shapes
// are declared in schemas.yaml (x-refusal-codes).

// SumFacts are the facts of not_prime and not_composite (PR-4): the top card, the cards played on
// it, the total they make and its prime factors.
type SumFacts struct {
	Top     int   `json:"top"`
	Cards   []int `json:"cards"`
	Total   int   `json:"total"`
	Factors []int `json:"factors"`
}

// CardsFacts are the facts of one_card_only: the cards sent together (PR-5).
type CardsFacts struct {
	Cards []int `json:"cards"`
}

// CardNotInHandFacts are the facts of card_not_in_hand: a card played more often than it is held.
type CardNotInHandFacts struct {
	Card   int `json:"card"`
	Played int `json:"played"`
	Held   int `json:"held"`
}

// DrawnCardFacts are the facts of must_play_drawn_card_or_pass (PR-5).
type DrawnCardFacts struct {
	Drawn int   `json:"drawn"`
	Cards []int `json:"cards"`
}

// PlayAvailableFacts are the facts of play_available: a draw refused while the hand has a play (PR-5).
type PlayAvailableFacts struct {
	Top    int    `json:"top"`
	Target string `json:"target"`
}

// WrongPhaseFacts are the facts of wrong_phase: what was tried, the turn's phase and the card drawn
// in it, if any (PR-5).
type WrongPhaseFacts struct {
	Phase  string `json:"phase"`
	Action string `json:"action"`
	Drawn  int    `json:"drawn,omitempty"`
}

func illegalWith(facts any, code, format string, args ...any) *domain.Error {
	return domain.Illegal(code, format, args...).WithFacts(facts)
}

func sumFacts(top int, cards []int, total int) SumFacts {
	factors := numbers.Factorize(total)
	if factors == nil {
		factors = []int{}
	}
	return SumFacts{Top: top, Cards: cloneInts(cards), Total: total, Factors: factors}
}
