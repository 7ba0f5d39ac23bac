package primeclimb

import (
	"encoding/json"
	"fmt"
)

// position is what the advisor knows when it decides: the game rebuilt from one seat's view, with the
// deck as cards of unknown kind (only its size is visible), and the seat's legal entries.
type position struct {
	s       State
	me      int
	entries []LegalAction
	listed  int // entries[:listed] are the seat's legal entries; the rest are moves with keepers
}

// readPosition decodes a seat's view and legal entries (domain.Advisor's inputs).
func readPosition(view json.RawMessage, legal []json.RawMessage) (position, error) {
	var v View
	if err := json.Unmarshal(view, &v); err != nil {
		return position{}, fmt.Errorf("prime climb view: %w", err)
	}
	if len(v.Players) < 1 || v.Seat < 0 || v.Seat >= len(v.Players) {
		return position{}, fmt.Errorf("prime climb view: seat %d of %d players", v.Seat, len(v.Players))
	}
	if len(legal) == 0 {
		return position{}, fmt.Errorf("prime climb advice: no legal action to choose from")
	}
	p := position{s: stateFromView(v), me: v.Seat, entries: make([]LegalAction, len(legal))}
	for i, raw := range legal {
		if err := json.Unmarshal(raw, &p.entries[i]); err != nil {
			return position{}, fmt.Errorf("prime climb legal action %d: %w", i, err)
		}
	}
	p.listed = len(p.entries)
	return p, nil
}

// addKeeperMoves adds the complete moves with keepers, which the legal entries leave out.
func (p *position) addKeeperMoves() {
	p.entries = append(p.entries[:p.listed], keeperMoves(&p.s)...)
}

// stateFromView rebuilds the state a view shows. The deck holds DeckSize blank cards: the advisor
// never draws from it, it only needs to know whether a draw is possible (PC-11).
func stateFromView(v View) State {
	s := State{Options: v.Options, Phase: v.Phase, Players: make([]Player, len(v.Players)), TurnNumber: v.TurnNumber,
		Deck: make([]Card, v.DeckSize), Discard: cloneCards(v.Discard), Winner: v.Winner}
	for i, p := range v.Players {
		s.Players[i] = Player{Pawns: p.Pawns, Keepers: p.Keepers, CursedNext: p.CursedNext}
	}
	s.Turn = Turn{Seat: v.Seat, Dice: cloneInts(v.Dice), Uses: cloneInts(v.Uses), Cursed: v.Cursed,
		StartPawns: v.StartPawns, Moved: v.Moved, LastMoved: -1, RollAgain: v.RollAgain, Pending: v.Pending}
	// The view does not say which pawn moved last; it matters only when both pawns could end on one
	// square (PC-9), and a keeper played before the dice is the one way a pawn has moved by now.
	for pawn, moved := range v.Moved {
		if moved {
			s.Turn.LastMoved = pawn
		}
	}
	return s.clone()
}

// cardCount is how many copies of one card kind a draw may bring.
type cardCount struct {
	card  Card
	count int
}

// unknownCards are the cards the seat cannot see, in FullDeck order: the full deck less the discard
// pile, every keeper in front of a player and a pending card (PC-11). When the deck is empty the next
// draw reshuffles the discard pile, so that pile is what a draw may bring.
func (s *State) unknownCards() []cardCount {
	counts := map[Card]int{}
	if len(s.Deck) == 0 {
		for _, c := range s.Discard {
			counts[c]++
		}
	} else {
		for _, c := range FullDeck() {
			counts[c]++
		}
		seen := []Card{}
		seen = append(seen, s.Discard...)
		for _, p := range s.Players {
			for _, h := range p.Keepers {
				seen = append(seen, h.Card)
			}
		}
		if s.Turn.Pending != nil {
			seen = append(seen, s.Turn.Pending.Card)
		}
		for _, c := range seen {
			if counts[c] > 0 {
				counts[c]--
			}
		}
	}
	var out []cardCount
	for _, c := range FullDeck() {
		if n := counts[c]; n > 0 {
			out = append(out, cardCount{card: c, count: n})
			delete(counts, c)
		}
	}
	return out
}
