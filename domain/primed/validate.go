package primed

import (
	"errors"
	"fmt"
	"slices"
)

// validate checks that a decoded snapshot is a table the rules can reach, so that no later method
// can index out of range: every card of the deck is in exactly one place, seats and phases agree.
func (t *table) validate() error {
	if err := t.Options.validate(); err != nil {
		return err
	}
	if sr := t.Options.Seats(); t.Seats < sr.Min || t.Seats > sr.Max {
		return fmt.Errorf("%d seats", t.Seats)
	}
	if t.Round < 1 || t.Round > t.Options.Rounds {
		return fmt.Errorf("round %d of %d", t.Round, t.Options.Rounds)
	}
	if len(t.Hands) != t.Seats || len(t.Totals) != t.Seats {
		return errors.New("hands or totals do not match the seats")
	}
	if !validSeat(t.Dealer, t.Seats) || t.Starter != t.next(t.Dealer) {
		return errors.New("dealer and starter do not match")
	}
	if t.DrawPile == nil || t.PrimedPile == nil || t.Results == nil || t.Winners == nil || len(t.PrimedPile) == 0 {
		return errors.New("missing piles")
	}
	var all []int
	for _, h := range t.Hands {
		if h == nil || !slices.IsSorted(h) {
			return errors.New("a hand is missing or not in order")
		}
		all = append(all, h...)
	}
	all = append(all, t.DrawPile...)
	all = append(all, t.PrimedPile...)
	slices.Sort(all)
	if !slices.Equal(all, t.Options.NewDeck()) {
		return errors.New("the cards are not exactly one deck")
	}
	if len(t.Results) != t.Round-boolInt(t.Phase != PhaseFinished) {
		return errors.New("round results do not match the round")
	}
	switch t.Phase {
	case PhasePlay:
		if !validSeat(t.Turn, t.Seats) || t.Drawn != 0 || len(t.Winners) != 0 {
			return errors.New("bad turn")
		}
	case PhaseDrawn:
		if !validSeat(t.Turn, t.Seats) || !slices.Contains(t.Hands[t.Turn], t.Drawn) || len(t.Winners) != 0 {
			return errors.New("bad drawn card")
		}
	case PhaseFinished:
		if t.Turn != -1 || len(t.Winners) == 0 || t.Drawn != 0 {
			return errors.New("bad finish")
		}
	default:
		return fmt.Errorf("unknown phase %q", t.Phase)
	}
	if t.Passes < 0 || t.Passes >= t.Seats {
		return errors.New("bad pass count")
	}
	for _, res := range t.Results {
		if len(res.Hands) != t.Seats || len(res.Scores) != t.Seats || len(res.Totals) != t.Seats {
			return errors.New("a round result does not match the seats")
		}
	}
	return nil
}

func validSeat(seat, seats int) bool { return seat >= 0 && seat < seats }

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
