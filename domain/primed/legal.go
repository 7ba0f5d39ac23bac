package primed

import "slices"

// MaxListedCards bounds the plays LegalActions lists in multi-card mode: every legal play of up to
// this many cards, plus one play that uses as many cards as possible. Listing every play of a large
// hand would be exponential. A multi-card play is listed once, in ascending order; Apply accepts the
// same cards in any order, and the last card becomes the top.
const MaxListedCards = 3

// LegalAction is one entry of LegalActions.
type LegalAction struct {
	// Action is accepted by Apply as it is.
	Action Action `json:"action"`
	// Total is top + the played cards, for a play.
	Total int `json:"total,omitempty"`
	// Longest marks, in multi-card mode, a play that uses as many cards as any legal play.
	Longest bool `json:"longest,omitempty"`
}

// LegalActions lists what seat may do now; it is empty when seat cannot act. In play phase: every
// legal play, or a draw when there is none (PR-5; a draw with nothing to draw passes, PR-6). After a
// draw: the plays that include the drawn card, and a pass. In multi-card mode a play entry is listed
// exactly when a play exists, because the longest play is always among them.
func (s *State) LegalActions(seat int) any { return s.Legal(seat) }

// Legal is LegalActions with a concrete type.
func (s *State) Legal(seat int) []LegalAction {
	t := &s.t
	entries := []LegalAction{}
	if t.Phase == PhaseFinished || seat != t.Turn {
		return entries
	}
	hand, top, target := t.Hands[seat], t.top(), t.Options.Target
	maxCards := 1
	if t.Options.MultiCard {
		maxCards = MaxListedCards
	}
	for _, play := range Plays(hand, top, target, t.Drawn, maxCards) {
		entries = append(entries, LegalAction{Action: Action{Type: ActionPlay, Cards: play}, Total: top + sum(play)})
	}
	// A hand may have no play of up to MaxListedCards cards but a longer one.
	if longest := LongestPlay(hand, top, target, t.Drawn); t.Options.MultiCard && longest != nil {
		i := slices.IndexFunc(entries, func(e LegalAction) bool { return slices.Equal(e.Action.Cards, longest) })
		if i < 0 {
			entries = append(entries, LegalAction{Action: Action{Type: ActionPlay, Cards: longest}, Total: top + sum(longest)})
			i = len(entries) - 1
		}
		entries[i].Longest = true
	}
	switch {
	case t.Phase == PhaseDrawn:
		entries = append(entries, LegalAction{Action: Action{Type: ActionPass}})
	case len(entries) == 0:
		entries = append(entries, LegalAction{Action: Action{Type: ActionDraw}})
	}
	return entries
}
