package primeclimb

import (
	"slices"

	"primegames/domain"
)

// View is the game as a viewer sees it. Only the deck order is hidden; domain.Full also gets Deck.
type View struct {
	Game       string       `json:"game"`
	Options    Options      `json:"options"`
	Phase      Phase        `json:"phase"`
	Seat       int          `json:"seat"` // whose turn it is (the winner once finished)
	ToAct      []int        `json:"to_act"`
	TurnNumber int          `json:"turn_number"`
	Dice       []int        `json:"dice"`
	Uses       []int        `json:"uses"`
	Cursed     bool         `json:"cursed"` // the current turn is under a Curse
	RollAgain  bool         `json:"roll_again"`
	StartPawns [2]int       `json:"start_pawns"`
	Moved      [2]bool      `json:"moved"`
	Pending    *Pending     `json:"pending"`
	Players    []PlayerView `json:"players"`
	DeckSize   int          `json:"deck_size"`
	Deck       []Card       `json:"deck,omitempty"` // domain.Full only: the next card first
	Discard    []Card       `json:"discard"`
	Winner     *int         `json:"winner"`
}

// PlayerView is one seat in a View.
type PlayerView struct {
	Seat       int        `json:"seat"`
	Pawns      [2]int     `json:"pawns"`
	Keepers    []HeldCard `json:"keepers"`
	CursedNext bool       `json:"cursed_next"`
}

// View returns the public game, plus the deck order for domain.Full.
func (s State) View(viewer domain.Viewer) any { return s.ViewFor(viewer) }

// ViewFor is View with its concrete type.
func (s State) ViewFor(viewer domain.Viewer) View {
	v := View{Game: Name, Options: s.Options, Phase: s.Phase, Seat: s.Turn.Seat, ToAct: s.Status().ToAct,
		TurnNumber: s.TurnNumber, Dice: cloneInts(s.Turn.Dice), Uses: cloneInts(s.Turn.Uses), Cursed: s.Turn.Cursed,
		RollAgain: s.Turn.RollAgain, StartPawns: s.Turn.StartPawns, Moved: s.Turn.Moved, Pending: s.Turn.Pending,
		Players: make([]PlayerView, len(s.Players)), DeckSize: len(s.Deck), Discard: cloneCards(s.Discard), Winner: s.Winner}
	for i, p := range s.Players {
		keepers := slices.Clone(p.Keepers)
		if keepers == nil {
			keepers = []HeldCard{}
		}
		v.Players[i] = PlayerView{Seat: i, Pawns: p.Pawns, Keepers: keepers, CursedNext: p.CursedNext}
	}
	if viewer.Role == domain.RoleFull {
		v.Deck = cloneCards(s.Deck)
	}
	return v
}

// Score is one seat's standing.
type Score struct {
	Seat     int    `json:"seat"`
	Pawns    [2]int `json:"pawns"`
	Home     int    `json:"home"`     // pawns on 101
	Progress int    `json:"progress"` // sum of both positions, 0..202
	Cards    int    `json:"cards"`    // keepers held
	Winner   bool   `json:"winner"`
}

// Scores lists every seat's positions, cards held and whether it won.
func (s State) Scores() any { return s.ScoreList() }

// ScoreList is Scores with its concrete type.
func (s State) ScoreList() []Score {
	out := make([]Score, len(s.Players))
	for i, p := range s.Players {
		sc := Score{Seat: i, Pawns: p.Pawns, Progress: p.Pawns[0] + p.Pawns[1], Cards: len(p.Keepers),
			Winner: s.Winner != nil && *s.Winner == i}
		for _, at := range p.Pawns {
			if at == Home {
				sc.Home++
			}
		}
		out[i] = sc
	}
	return out
}

// Status says whose turn it is and who won.
func (s State) Status() domain.Status {
	if s.Phase == PhaseFinished {
		return domain.Status{Phase: string(s.Phase), ToAct: []int{}, Finished: true, Winners: []int{*s.Winner}}
	}
	return domain.Status{Phase: string(s.Phase), ToAct: []int{s.Turn.Seat}, Winners: []int{}}
}
