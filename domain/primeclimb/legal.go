package primeclimb

import (
	"fmt"
	"slices"
)

// LegalAction is one thing a seat may do now. Action is accepted by Apply as it is.
//
// In the move phase the list holds every distinct way to spend the dice (moves.go: distinct by where
// the mover's pawns end after the bump and which uses stay unspent), each with one step list that
// reaches it, and, as separate "keeper" entries, every keeper the mover may play now. Moves that also
// play ± keepers are legal but not listed, since there can be thousands; the advisor adds them
// (keeperMoves).
type LegalAction struct {
	Type        string  `json:"type"`
	Action      Action  `json:"action"`
	Description string  `json:"description"`
	Ends        *[2]int `json:"ends"`   // move: the mover's pawns after the move and the bump
	Unused      []int   `json:"unused"` // move: die uses left unspent (unusable under a Curse, or dropped by a win)
	Draws       bool    `json:"draws"`  // move: the move earns a Prime Card (PC-10)
	Wins        bool    `json:"wins"`   // the action brings the second pawn home (PC-14)

	gen *generated // a generated move, until spell writes its steps
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
		out = append(s.MoveOptions(), s.KeeperOptions()...) // MoveOptions's list is long: not copied
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
