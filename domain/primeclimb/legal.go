package primeclimb

import (
	"fmt"
	"slices"
	"strings"
)

// LegalAction is one thing a seat may do now. Action is accepted by Apply as it is.
//
// In the move phase the list holds every distinct way to spend the dice (distinct by where the mover's
// pawns end before and after the bump and by which uses stay unspent), each with one step list that
// reaches it, and, as separate "keeper" entries, every keeper the mover may play now. Keepers are not
// mixed into the dice enumeration: a keeper entry is a standalone keeper action, after which the
// remaining dice are listed again.
type LegalAction struct {
	Type        string  `json:"type"`
	Action      Action  `json:"action"`
	Description string  `json:"description"`
	Ends        *[2]int `json:"ends"`   // move: the mover's pawns after the move and the bump
	Unused      []int   `json:"unused"` // move: die uses left unspent (unusable under a Curse, or dropped by a win)
	Draws       bool    `json:"draws"`  // move: the move earns a Prime Card (PC-10)
	Wins        bool    `json:"wins"`   // the action brings the second pawn home (PC-14)
}

// LegalActions lists what seat may do now; empty when seat cannot act.
func (s State) LegalActions(seat int) any { return s.Legal(seat) }

// Legal is LegalActions with its concrete type.
func (s State) Legal(seat int) []LegalAction {
	out := []LegalAction{}
	if s.Phase == PhaseFinished || seat != s.Turn.Seat {
		return out
	}
	switch s.Phase {
	case PhaseRoll:
		out = append(out, LegalAction{Type: ActRoll, Action: Action{Type: ActRoll}, Description: "roll both dice", Unused: []int{}})
		out = append(out, s.KeeperOptions()...)
	case PhaseMove:
		out = append(out, s.MoveOptions()...)
		out = append(out, s.KeeperOptions()...)
	case PhaseResolve:
		out = append(out, s.ChoiceOptions()...)
	}
	return out
}

// ChoiceOptions lists the answers to a pending Swap or Steal.
func (s State) ChoiceOptions() []LegalAction {
	var out []LegalAction
	p := s.Turn.Pending
	for _, c := range p.Candidates {
		a := Action{Type: ActChoose, TargetSeat: ptr(c.TargetSeat), Card: c.Card}
		var text string
		if c.Pawn != nil {
			a.Pawn = ptr(*c.Pawn)
			text = fmt.Sprintf("swap pawn %d (on %d) with pawn %d of seat %d (on %d)", p.Pawn, s.mover().Pawns[p.Pawn],
				*c.Pawn, c.TargetSeat, s.Players[c.TargetSeat].Pawns[*c.Pawn])
		} else {
			text = fmt.Sprintf("steal %s from seat %d", c.Card.Title(), c.TargetSeat)
		}
		out = append(out, LegalAction{Type: ActChoose, Action: a, Description: text, Unused: []int{}})
	}
	return out
}

// KeeperOptions lists every keeper play open to the mover now: each playable card once per distinct
// target (PC-12).
func (s State) KeeperOptions() []LegalAction {
	var out []LegalAction
	if s.Phase != PhaseRoll && s.Phase != PhaseMove {
		return out
	}
	seat := s.Turn.Seat
	var seen []Card
	for _, h := range s.Players[seat].Keepers {
		if h.New || slices.Contains(seen, h.Card) {
			continue
		}
		seen = append(seen, h.Card)
		out = append(out, s.keeperTargets(h.Card)...)
	}
	return out
}

func (s *State) keeperTargets(card Card) []LegalAction {
	var out []LegalAction
	seat := s.Turn.Seat
	add := func(a Action, text string) {
		out = append(out, LegalAction{Type: ActKeeper, Action: a, Description: text, Unused: []int{}})
	}
	switch card {
	case SendToStart:
		for target, p := range s.Players {
			for pawn, at := range p.Pawns {
				if at != Start && at != Home {
					add(Action{Type: ActKeeper, Card: card, TargetSeat: ptr(target), Pawn: ptr(pawn)},
						fmt.Sprintf("Send to Start: pawn %d of seat %d, %d → 0", pawn, target, at))
				}
			}
		}
	case Curse:
		for target := range s.Players {
			if target != seat && !s.bothHome(target) {
				add(Action{Type: ActKeeper, Card: card, TargetSeat: ptr(target)},
					fmt.Sprintf("Curse seat %d: on their next turn their dice may only subtract or divide", target))
			}
		}
	default:
		n, _ := plusMinusValue(card)
		for pawn, at := range s.mover().Pawns {
			if at == Home {
				continue
			}
			for _, sign := range []string{"+", "-"} {
				to, ok := applyOp(at, signOp(sign), n)
				if !ok {
					continue
				}
				a := Action{Type: ActKeeper, Card: card, Pawn: ptr(pawn), Sign: sign}
				add(a, fmt.Sprintf("%s on pawn %d: %s", card.Title(), pawn, equation(at, signOp(sign), n, to)))
				if to == Home && s.mover().Pawns[1-pawn] == Home {
					out[len(out)-1].Wins = true
				}
			}
		}
	}
	return out
}

// MoveOptions enumerates every distinct way to spend the die uses left (PC-5, PC-6).
func (s State) MoveOptions() []LegalAction {
	if s.Phase != PhaseMove {
		return nil
	}
	uses := slices.Clone(s.Turn.Uses)
	slices.Sort(uses)
	e := enumerator{
		s: &s, ops: diceOps(s.Turn.Cursed), seen: map[uint64]struct{}{}, ends: map[uint64]struct{}{},
		canDraw: s.Options.PrimeCards && len(s.Deck)+len(s.Discard) > 0,
	}
	var u dieUses
	for _, n := range uses {
		u = u.with(n)
	}
	e.visit(s.mover().Pawns, u, s.Turn.Moved, s.Turn.LastMoved)
	return e.out
}

// dieUses is a small sorted multiset of die values (at most four uses).
type dieUses struct {
	v [4]int8
	n int8
}

func (u dieUses) with(n int) dieUses { u.v[u.n] = int8(n); u.n++; return u }

func (u dieUses) without(i int) dieUses {
	copy(u.v[i:], u.v[i+1:u.n])
	u.n--
	u.v[u.n] = 0
	return u
}

func (u dieUses) key() uint64 {
	k := uint64(u.n)
	for i := range u.n {
		k = k<<4 | uint64(u.v[i])
	}
	return k
}

func (u dieUses) slice() []int {
	out := make([]int, u.n)
	for i := range u.n {
		out[i] = int(u.v[i])
	}
	return out
}

type enumerator struct {
	s       *State
	ops     []string
	seen    map[uint64]struct{} // positions already explored
	ends    map[uint64]struct{} // distinct outcomes already listed
	path    []pathStep
	canDraw bool
	out     []LegalAction
}

type pathStep struct {
	die, pawn int
	op        string
}

func (e *enumerator) visit(pos [2]int, uses dieUses, moved [2]bool, last int) {
	k := uint64(pos[0]) | uint64(pos[1])<<7 | uint64(last+1)<<14 | uses.key()<<16
	if moved[0] {
		k |= 1 << 40
	}
	if moved[1] {
		k |= 1 << 41
	}
	if _, ok := e.seen[k]; ok {
		return
	}
	e.seen[k] = struct{}{}
	if pos[0] == Home && pos[1] == Home { // PC-6: a win drops the remaining uses
		e.leaf(pos, uses, last)
		return
	}
	applied := false
	for i := range uses.n {
		n := int(uses.v[i])
		if i > 0 && uses.v[i-1] == uses.v[i] {
			continue
		}
		rest := uses.without(int(i))
		for pawn, from := range pos {
			if from == Home {
				continue
			}
			for _, op := range e.ops {
				to, ok := applyOp(from, op, n)
				if !ok {
					continue
				}
				applied = true
				next, nextMoved := pos, moved
				next[pawn], nextMoved[pawn] = to, true
				e.path = append(e.path, pathStep{die: n, pawn: pawn, op: op})
				e.visit(next, rest, nextMoved, pawn)
				e.path = e.path[:len(e.path)-1]
			}
		}
	}
	if !applied { // PC-6: nothing left can be applied (all used, or unusable under a Curse)
		e.leaf(pos, uses, last)
	}
}

func (e *enumerator) leaf(pos [2]int, uses dieUses, last int) {
	end := pos
	win := pos[0] == Home && pos[1] == Home
	if !win && end[0] == end[1] && end[0] != Start && end[0] != Home && last >= 0 { // PC-9
		end[1-last] = Start
	}
	k := uint64(pos[0]) | uint64(pos[1])<<7 | uint64(end[0])<<14 | uint64(end[1])<<21 | uses.key()<<28
	if _, ok := e.ends[k]; ok {
		return
	}
	e.ends[k] = struct{}{}
	var earners []int
	if !win && e.s.Options.PrimeCards {
		earners = drawEarners(end, e.s.Turn.StartPawns)
	}
	steps := make([]Step, len(e.path))
	texts := make([]string, len(e.path))
	walk := e.s.mover().Pawns
	for i, p := range e.path {
		steps[i] = Step{Die: p.die, Pawn: ptr(p.pawn), Op: p.op}
		to, _ := applyOp(walk[p.pawn], p.op, p.die)
		texts[i] = "pawn " + itoa(p.pawn) + ": " + equation(walk[p.pawn], p.op, p.die, to)
		walk[p.pawn] = to
	}
	text := strings.Join(texts, "; ")
	if text == "" {
		text = "no die can be used: end the move"
	}
	if win {
		text += "; both pawns home: you win"
	}
	la := LegalAction{Type: ActMove, Action: Action{Type: ActMove, Steps: steps}, Ends: &end,
		Unused: uses.slice(), Draws: len(earners) > 0, Wins: win}
	if len(earners) == 2 && e.canDraw {
		for _, pawn := range earners {
			v := la
			v.Action.DrawPawn = ptr(pawn)
			v.Description = fmt.Sprintf("%s; pawn %d (on %d) takes the Prime Card", text, pawn, end[pawn])
			e.out = append(e.out, v)
		}
		return
	}
	la.Description = text
	if len(earners) == 1 {
		la.Description += "; pawn " + itoa(earners[0]) + " (on " + itoa(end[earners[0]]) + ") draws a Prime Card"
	}
	e.out = append(e.out, la)
}
