package primeclimb

import "slices"

// Phase is where a turn stands (PC-4). Bump and draw happen inside the move action, so they are never
// a phase of their own that waits for a player.
type Phase string

const (
	PhaseRoll     Phase = "roll"     // the player may play keepers, then rolls
	PhaseMove     Phase = "move"     // the player may play keepers, then sends the whole move
	PhaseResolve  Phase = "resolve"  // a drawn Swap or Steal waits for the player's choice (PC-13)
	PhaseFinished Phase = "finished" // somebody won (PC-14)
)

// State is one moment of a game. It is a value: Apply returns a new State and never changes its
// receiver. Every field is exported so that json.Marshal gives the full snapshot Rules.Decode reads.
type State struct {
	Options    Options  `json:"options"`
	Phase      Phase    `json:"phase"`
	Players    []Player `json:"players"`
	Turn       Turn     `json:"turn"`
	TurnNumber int      `json:"turn_number"` // 1 for the first turn; a Roll Again turn counts as a new turn
	Deck       []Card   `json:"deck"`        // next card first; hidden from all but domain.Full
	Discard    []Card   `json:"discard"`     // oldest first
	Winner     *int     `json:"winner"`
}

// Player is one seat: its two pawns, its face-up keepers and a Curse waiting for its next turn.
type Player struct {
	Pawns      [2]int     `json:"pawns"`
	Keepers    []HeldCard `json:"keepers"`
	CursedNext bool       `json:"cursed_next"` // PC-12: the seat's next turn is cursed
}

// HeldCard is a keeper in front of its owner. New marks a card the owner got on their current or last
// turn; it becomes playable when the owner's next turn starts (PC-12).
type HeldCard struct {
	Card Card `json:"card"`
	New  bool `json:"new"`
}

// Turn is the bookkeeping of the turn in progress.
type Turn struct {
	Seat       int      `json:"seat"`
	Dice       []int    `json:"dice"`        // the two dice rolled; empty before the roll
	Uses       []int    `json:"uses"`        // die uses left to spend (PC-3, PC-6)
	Cursed     bool     `json:"cursed"`      // PC-12: dice may only subtract or divide this turn
	StartPawns [2]int   `json:"start_pawns"` // the mover's pawns when the turn began, before any keeper (PC-10)
	Moved      [2]bool  `json:"moved"`       // which of the mover's pawns moved this turn, keepers included (PC-9)
	LastMoved  int      `json:"last_moved"`  // the mover's pawn that moved last, -1 for none
	RollAgain  bool     `json:"roll_again"`  // PC-13: the same seat plays again when this turn ends
	Pending    *Pending `json:"pending"`     // the card waiting for a choice in the resolve phase
}

// Pending is a drawn Swap or Steal with more than one candidate (PC-13).
type Pending struct {
	Card       Card     `json:"card"`
	Pawn       int      `json:"pawn"` // the mover's pawn that earned the draw
	Candidates []Choice `json:"candidates"`
}

// Choice is one answer to a pending card: a pawn for Swap, a keeper for Steal.
type Choice struct {
	TargetSeat int  `json:"target_seat"`
	Pawn       *int `json:"pawn,omitempty"` // Swap
	Card       Card `json:"card,omitempty"` // Steal
}

func (s State) clone() State {
	c := s
	c.Players = make([]Player, len(s.Players))
	for i, p := range s.Players {
		p.Keepers = slices.Clone(p.Keepers)
		if p.Keepers == nil {
			p.Keepers = []HeldCard{}
		}
		c.Players[i] = p
	}
	c.Turn.Dice = cloneInts(s.Turn.Dice)
	c.Turn.Uses = cloneInts(s.Turn.Uses)
	if s.Turn.Pending != nil {
		p := *s.Turn.Pending
		p.Candidates = slices.Clone(p.Candidates)
		c.Turn.Pending = &p
	}
	c.Deck = cloneCards(s.Deck)
	c.Discard = cloneCards(s.Discard)
	if s.Winner != nil {
		w := *s.Winner
		c.Winner = &w
	}
	return c
}

func cloneInts(v []int) []int {
	if v == nil {
		return []int{}
	}
	return slices.Clone(v)
}

func cloneCards(v []Card) []Card {
	if v == nil {
		return []Card{}
	}
	return slices.Clone(v)
}

func (s *State) mover() *Player { return &s.Players[s.Turn.Seat] }

// pawnsAt lists every pawn (seat, pawn) standing on square n, in seat order.
func (s *State) pawnsAt(n int) []PawnRef {
	var refs []PawnRef
	for seat, p := range s.Players {
		for i, pos := range p.Pawns {
			if pos == n {
				refs = append(refs, PawnRef{Seat: seat, Pawn: i})
			}
		}
	}
	return refs
}

// PawnRef names one pawn: seat and pawn index, both 0-based as everywhere in the API.
type PawnRef struct {
	Seat int `json:"seat"`
	Pawn int `json:"pawn"`
}

func (s *State) pos(r PawnRef) int { return s.Players[r.Seat].Pawns[r.Pawn] }

func (s *State) bothHome(seat int) bool {
	p := s.Players[seat].Pawns
	return p[0] == Home && p[1] == Home
}

func ptr[T any](v T) *T { return &v }
