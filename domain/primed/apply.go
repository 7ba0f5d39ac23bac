package primed

import (
	"encoding/json"
	"fmt"

	"primegames/domain"
	"primegames/domain/numbers"
)

// Apply performs one action by seat (PR-5, PR-6) and returns the next state and what happened.
func (s *State) Apply(seat int, raw json.RawMessage, r domain.Rand) (domain.State, domain.Outcome, error) {
	next, out, err := s.apply(seat, raw, r)
	if err != nil {
		return nil, nil, err
	}
	return next, out, nil
}

func (s *State) apply(seat int, raw json.RawMessage, r domain.Rand) (*State, *Outcome, error) {
	if s.t.Phase == PhaseFinished {
		return nil, nil, domain.GameOver(cloneInts(s.t.Winners), "the game is over: all %d rounds have been played", s.t.Options.Rounds)
	}
	if seat < 0 || seat >= s.t.Seats {
		return nil, nil, domain.Invalid("invalid_seat", "seat %d is not in this game of %d players", seat, s.t.Seats)
	}
	if seat != s.t.Turn {
		return nil, nil, domain.NotYourTurnFor(seat, []int{s.t.Turn}, "it is seat %d's turn, not seat %d's", s.t.Turn, seat)
	}
	a, err := parseAction(raw)
	if err != nil {
		return nil, nil, err
	}
	t := s.t.clone()
	out := &Outcome{}
	switch a.Type {
	case ActionPlay:
		err = t.play(seat, a.Cards, r, out)
	case ActionDraw:
		err = t.draw(seat, r, out)
	case ActionPass:
		err = t.pass(seat)
		out.Passed = &Passed{Seat: seat, Reason: PassKept}
	}
	if err != nil {
		return nil, nil, err
	}
	return &State{t: t}, out, nil
}

// checkPlay says why cards are not a legal play for seat now, or nil when they are.
func (t *table) checkPlay(seat int, cards []int) error {
	if !t.Options.MultiCard && len(cards) > 1 {
		return illegalWith(CardsFacts{Cards: cloneInts(cards)}, "one_card_only", "play one card at a time: playing %d cards together needs the multi_card option", len(cards))
	}
	hand := countCards(t.Hands[seat])
	want := countCards(cards)
	for _, c := range cards {
		if c < 1 || c >= len(want) || hand[c] == 0 {
			held := 0
			if c >= 1 && c < len(hand) {
				held = hand[c]
			}
			return illegalWith(CardNotInHandFacts{Card: c, Played: countOf(cards, c), Held: held}, "card_not_in_hand", "you have no %d in your hand", c)
		}
		if want[c] > hand[c] {
			return illegalWith(CardNotInHandFacts{Card: c, Played: want[c], Held: hand[c]}, "card_not_in_hand", "you play %d cards of %d but hold only %d", want[c], c, hand[c])
		}
	}
	if t.Phase == PhaseDrawn && want[t.Drawn] == 0 {
		how := "play it or pass"
		if t.Options.MultiCard {
			how = "play it, alone or with cards from your hand, or pass"
		}
		return illegalWith(DrawnCardFacts{Drawn: t.Drawn, Cards: cloneInts(cards)}, "must_play_drawn_card_or_pass", "you drew a %d: %s", t.Drawn, how)
	}
	expr, total := sumExpression(t.top(), cards)
	if !hits(t.Options.Target, total) {
		code := "not_prime"
		if t.Options.Target == TargetComposites {
			code = "not_composite"
		}
		return illegalWith(sumFacts(t.top(), cards, total), code, "%s = %d is not %s: %s", expr, total, targetNoun(t.Options.Target), numbers.FactorString(total))
	}
	return nil
}

// play puts cards on the Primed pile in the order given; the last is the new top (PR-5). The round
// ends the moment the hand is empty (PR-7).
func (t *table) play(seat int, cards []int, r domain.Rand, out *Outcome) error {
	if err := t.checkPlay(seat, cards); err != nil {
		return err
	}
	out.Played = &Played{Seat: seat, Cards: cloneInts(cards), On: t.top(), Total: t.top() + sum(cards), Equation: equation(t.top(), cards)}
	t.Hands[seat] = withoutCards(t.Hands[seat], cards)
	t.PrimedPile = append(t.PrimedPile, cards...)
	t.Passes = 0
	t.Drawn = 0
	if len(t.Hands[seat]) == 0 {
		t.endRound(seat, r, out)
		return nil
	}
	t.endTurn(seat)
	return nil
}

// draw takes the top card of the draw pile; only a player with no legal play may draw (PR-5). An
// empty draw pile is refilled from the Primed pile under its top (PR-6); when even that is empty the
// draw becomes a pass, and when every seat in turn has passed so the round is blocked.
func (t *table) draw(seat int, r domain.Rand, out *Outcome) error {
	if t.Phase == PhaseDrawn {
		return illegalWith(WrongPhaseFacts{Phase: t.Phase, Action: ActionDraw, Drawn: t.Drawn}, "wrong_phase", "you already drew a %d this turn: play it or pass", t.Drawn)
	}
	if HasPlay(t.Hands[seat], t.top(), t.Options.Target, t.Options.MultiCard, 0) {
		cards := "a card"
		if t.Options.MultiCard {
			cards = "cards"
		}
		return illegalWith(PlayAvailableFacts{Top: t.top(), Target: t.Options.Target}, "play_available", "you can make a %s on %d with %s from your hand, so you may not draw: look again",
			targetNoun(t.Options.Target), t.top(), cards)
	}
	if len(t.DrawPile) == 0 && len(t.PrimedPile) > 1 { // PR-6
		under := cloneInts(t.PrimedPile[:len(t.PrimedPile)-1])
		domain.Shuffle(r, under)
		t.DrawPile = under
		t.PrimedPile = []int{t.top()}
		out.Reshuffled = &Reshuffled{Seat: seat, Cards: len(under)}
	}
	if len(t.DrawPile) == 0 { // PR-6: nothing to play and nothing to draw
		t.Passes++
		out.Passed = &Passed{Seat: seat, Reason: PassNothingLeft, InARow: t.Passes}
		if t.Passes >= t.Seats {
			t.endRound(-1, r, out)
			return nil
		}
		t.endTurn(seat)
		return nil
	}
	card := t.DrawPile[0]
	t.DrawPile = t.DrawPile[1:]
	t.Hands[seat] = withCard(t.Hands[seat], card)
	t.Passes = 0 // PR-6: a player who draws has not passed "this way"
	canPlay := HasPlay(t.Hands[seat], t.top(), t.Options.Target, t.Options.MultiCard, card)
	out.Drew = &Drew{Seat: seat, Card: card, CanPlay: canPlay}
	if canPlay {
		t.Phase = PhaseDrawn
		t.Drawn = card
		return nil
	}
	out.Passed = &Passed{Seat: seat, Reason: PassUnplayable}
	t.endTurn(seat)
	return nil
}

// pass keeps a playable drawn card and ends the turn (PR-5).
func (t *table) pass(seat int) error {
	if t.Phase != PhaseDrawn {
		return illegalWith(WrongPhaseFacts{Phase: t.Phase, Action: ActionPass}, "wrong_phase", "you may pass only after drawing a card that could be played; now %s", t.playOrDrawHint())
	}
	t.endTurn(seat)
	return nil
}

func (t *table) playOrDrawHint() string {
	cards := "a card"
	if t.Options.MultiCard {
		cards = "cards"
	}
	return fmt.Sprintf("play %s that make a %s with %d, or draw if you cannot", cards, targetNoun(t.Options.Target), t.top())
}

func (t *table) endTurn(seat int) {
	t.Phase = PhasePlay
	t.Drawn = 0
	t.Turn = t.next(seat)
}

// countOf is how many times card occurs in cards.
func countOf(cards []int, card int) int {
	n := 0
	for _, c := range cards {
		if c == card {
			n++
		}
	}
	return n
}
