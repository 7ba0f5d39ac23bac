package primed

import "primegames/domain"

// View is the table as one viewer may see it (PR-8).
type View struct {
	// Game is the kind's name, so that a client tells the views of different kinds apart.
	Game    string  `json:"game"`
	Options Options `json:"options"`
	Seats   int     `json:"seats"`
	Round   int     `json:"round"`
	Dealer  int     `json:"dealer"`
	Starter int     `json:"starter"`
	Phase   string  `json:"phase"`
	// ToAct holds the seat to act, and nothing once the game is finished: a list, as in every kind's
	// view and in the game's turn.
	ToAct []int `json:"to_act"`
	Top   int   `json:"top"`
	// PrimedPile is the whole face-up pile, bottom first; the last card is the top.
	PrimedPile   []int `json:"primed_pile"`
	DrawPileSize int   `json:"draw_pile_size"`
	// DrawPile is the face-down pile, top first: full viewers only.
	DrawPile []int      `json:"draw_pile,omitempty"`
	Hands    []HandView `json:"hands"`
	// DrawnCard is the card drawn this turn in phase "drawn": for the drawing seat and full viewers.
	DrawnCard int `json:"drawn_card,omitempty"`
	// PassesInARow counts the seats in a row that passed with nothing to play or draw (PR-6).
	PassesInARow int    `json:"passes_in_a_row"`
	Scores       Scores `json:"scores"`
}

// HandView is one seat's hand: its size for everyone, its cards for the viewer allowed to see them
// (null otherwise).
type HandView struct {
	Seat  int   `json:"seat"`
	Size  int   `json:"size"`
	Cards []int `json:"cards"`
}

// View is the state as viewer may see it. A player sees their own hand, public viewers no hand, full
// viewers everything. Once the game is finished the last hands are public, as every round's are (PR-8).
func (s *State) View(viewer domain.Viewer) any { return s.ViewFor(viewer) }

// ViewFor is View with a concrete type.
func (s *State) ViewFor(viewer domain.Viewer) *View {
	t := &s.t
	v := &View{Game: Name, Options: t.Options, Seats: t.Seats, Round: t.Round, Dealer: t.Dealer, Starter: t.Starter, Phase: t.Phase,
		Top: t.top(), PrimedPile: cloneInts(t.PrimedPile), DrawPileSize: len(t.DrawPile),
		Hands: make([]HandView, t.Seats), PassesInARow: t.Passes, Scores: s.scores()}
	v.ToAct = s.Status().ToAct
	if viewer.Role == domain.RoleFull {
		v.DrawPile = cloneInts(t.DrawPile)
	}
	for seat, h := range t.Hands {
		v.Hands[seat] = HandView{Seat: seat, Size: len(h)}
		if canSee(viewer, seat) || t.Phase == PhaseFinished {
			v.Hands[seat].Cards = cloneInts(h)
		}
	}
	if t.Phase == PhaseDrawn && canSee(viewer, t.Turn) {
		v.DrawnCard = t.Drawn
	}
	return v
}

// Scores is the standing: every completed round with its scores and revealed hands, the running
// totals, and the winners once the game is finished (PR-7). It is public information.
type Scores struct {
	Rounds   []RoundResult `json:"rounds"`
	Totals   []int         `json:"totals"`
	Finished bool          `json:"finished"`
	Winners  []int         `json:"winners"`
}

// Scores is the public standing of every seat.
func (s *State) Scores() any { return s.scores() }

func (s *State) scores() Scores {
	return Scores{Rounds: append([]RoundResult{}, s.t.Results...), Totals: cloneInts(s.t.Totals),
		Finished: s.t.Phase == PhaseFinished, Winners: cloneInts(s.t.Winners)}
}
