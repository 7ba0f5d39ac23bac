package primed

import "primegames/domain"

// Phases of a game.
const (
	// PhasePlay: the seat to act plays, or draws when it has no legal play (PR-5).
	PhasePlay = "play"
	// PhaseDrawn: the seat to act drew a card that can hit the target; it plays it or passes (PR-5).
	PhaseDrawn = "drawn"
	// PhaseFinished: the last round is over (PR-7).
	PhaseFinished = "finished"
)

// State is one moment of a Primed game. Its methods never modify it: Apply works on a copy.
type State struct{ t table }

// table is everything on the table, and the JSON snapshot of a State.
type table struct {
	Options Options `json:"options"`
	Seats   int     `json:"seats"`
	Round   int     `json:"round"`   // 1-based number of the round being played (or the last one)
	Dealer  int     `json:"dealer"`  // PR-3
	Starter int     `json:"starter"` // the seat after the dealer; next round's dealer (PR-3)
	Turn    int     `json:"turn"`    // the seat to act; -1 once finished
	Phase   string  `json:"phase"`
	Drawn   int     `json:"drawn"`  // in PhaseDrawn, the card just drawn; otherwise 0
	Passes  int     `json:"passes"` // PR-6: seats in a row that passed with nothing to play or draw
	Hands   [][]int `json:"hands"`  // per seat, ascending
	// DrawPile lists the face-down cards, top first.
	DrawPile []int `json:"draw_pile"`
	// PrimedPile lists the face-up cards, bottom first: the last one is the top card.
	PrimedPile []int         `json:"primed_pile"`
	Results    []RoundResult `json:"results"` // the completed rounds (PR-7)
	Totals     []int         `json:"totals"`
	Winners    []int         `json:"winners"` // empty until finished
}

func (t *table) clone() table {
	c := *t
	// One backing array for every hand; each hand's capacity ends where the next begins, so an
	// append never writes into a neighbour.
	n := 0
	for _, h := range t.Hands {
		n += len(h)
	}
	buf := make([]int, 0, n)
	c.Hands = make([][]int, len(t.Hands))
	for i, h := range t.Hands {
		at := len(buf)
		buf = append(buf, h...)
		c.Hands[i] = buf[at:len(buf):len(buf)]
	}
	c.DrawPile = cloneInts(t.DrawPile)
	c.PrimedPile = cloneInts(t.PrimedPile)
	c.Results = append(make([]RoundResult, 0, len(t.Results)+1), t.Results...)
	c.Totals = cloneInts(t.Totals)
	c.Winners = cloneInts(t.Winners)
	return c
}

func (t *table) top() int { return t.PrimedPile[len(t.PrimedPile)-1] }

func (t *table) next(seat int) int { return (seat + 1) % t.Seats }

// MarshalJSON encodes the full snapshot, hidden cards included; Rules.Decode restores it.
func (s *State) MarshalJSON() ([]byte, error) { return s.AppendSnapshot(nil), nil }

// Status says whose turn it is and whether the game is over.
func (s *State) Status() domain.Status {
	st := domain.Status{Phase: s.t.Phase, ToAct: []int{}, Finished: s.t.Phase == PhaseFinished, Winners: cloneInts(s.t.Winners)}
	if !st.Finished {
		st.ToAct = []int{s.t.Turn}
	}
	return st
}

// Options are the game's options.
func (s *State) Options() Options { return s.t.Options }

// Seats is the number of players.
func (s *State) Seats() int { return s.t.Seats }

// Round is the 1-based number of the round being played, or of the last one once finished.
func (s *State) Round() int { return s.t.Round }

// Dealer is the dealer of the current round.
func (s *State) Dealer() int { return s.t.Dealer }

// Turn is the seat to act, or -1 once the game is finished.
func (s *State) Turn() int { return s.t.Turn }

// Hand is a copy of seat's hand, ascending.
func (s *State) Hand(seat int) []int { return cloneInts(s.t.Hands[seat]) }

// Top is the top card of the Primed pile.
func (s *State) Top() int { return s.t.top() }

// PrimedPile is a copy of the Primed pile, bottom first.
func (s *State) PrimedPile() []int { return cloneInts(s.t.PrimedPile) }

// DrawPile is a copy of the draw pile, top first.
func (s *State) DrawPile() []int { return cloneInts(s.t.DrawPile) }

// Drawn is the card drawn this turn while the phase is PhaseDrawn, else 0.
func (s *State) Drawn() int { return s.t.Drawn }

// Results are the completed rounds.
func (s *State) Results() []RoundResult { return append([]RoundResult(nil), s.t.Results...) }

// CanPlay reports whether the seat to act has a legal play now (in PhaseDrawn: one with the drawn card).
func (s *State) CanPlay() bool {
	if s.t.Phase == PhaseFinished {
		return false
	}
	return HasPlay(s.t.Hands[s.t.Turn], s.t.top(), s.t.Options.Target, s.t.Options.MultiCard, s.t.Drawn)
}
