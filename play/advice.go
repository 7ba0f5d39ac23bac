package play

import (
	"encoding/json"
	"fmt"
	"reflect"

	"primegames/domain"
)

// advisorOf is the kind's judgement of play; a kind without one offers no hints and no review,
// refused with code.
func (s *Service) advisorOf(g *Game, code, offer string) (*domain.Advisor, error) {
	return advisorIn(s.kinds, g, code, offer)
}

// advisorIn is advisorOf in the catalogue kinds.
func advisorIn(kinds *domain.Catalogue, g *Game, code, offer string) (*domain.Advisor, error) {
	kind, ok := kinds.Lookup(g.Kind)
	if !ok || kind.Advisor == nil {
		return nil, domain.Errorf(domain.KindNotFound, code, "The game %s offers no %s: its kind (%s) has no judge of play.", g.ID, offer, g.Kind)
	}
	return kind.Advisor, nil
}

// seatSight is all an Advisor or a computer player may go by in a state: what seat sees of it and
// seat's legal actions, as JSON. Nothing hidden from the seat reaches the judgement.
func seatSight(state domain.State, seat int) (view json.RawMessage, legal []json.RawMessage, err error) {
	if view, err = json.Marshal(state.View(domain.Player(seat))); err != nil {
		return nil, nil, fmt.Errorf("encoding the view of seat %d: %w", seat, err)
	}
	if legal, err = entriesOf(state.LegalActions(seat)); err != nil {
		return nil, nil, fmt.Errorf("the legal actions of seat %d: %w", seat, err)
	}
	return view, legal, nil
}

// entriesOf encodes each entry of a list of legal actions. A list the engine gives as a slice is
// encoded entry by entry, which saves parsing the whole list again (a Prime Climb roll can allow
// hundreds of moves, and a review does this before every action).
func entriesOf(list any) ([]json.RawMessage, error) {
	if v := reflect.ValueOf(list); v.Kind() == reflect.Slice {
		entries := make([]json.RawMessage, v.Len())
		for i := range entries {
			var err error
			if entries[i], err = json.Marshal(v.Index(i).Interface()); err != nil {
				return nil, err
			}
		}
		return entries, nil
	}
	encoded, err := json.Marshal(list)
	if err != nil {
		return nil, err
	}
	var entries []json.RawMessage
	if err := json.Unmarshal(encoded, &entries); err != nil {
		return nil, fmt.Errorf("not a list: %w", err)
	}
	return entries, nil
}

// chosenAction is the action, ready to post, of the entry of legal a computer player chose.
func chosenAction(legal []json.RawMessage, index int) (json.RawMessage, error) {
	return domain.Advice{Index: index}.ActionIn(legal)
}
