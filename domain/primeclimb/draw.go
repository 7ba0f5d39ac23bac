package primeclimb

import (
	"fmt"
	"slices"
	"strings"

	"primegames/domain"
)

// drawEarners lists the mover's pawns that earn a draw: on a red square (a prime from 11 to 97) they
// did not stand on when the turn began (PC-10). Leaving a red square and coming back earns nothing.
func drawEarners(pawns, start [2]int) []int {
	var earners []int
	for i, at := range pawns {
		if isRed(at) && at != start[i] {
			earners = append(earners, i)
		}
	}
	return earners
}

// draw draws one Prime Card after the bump when the move earned it (PC-10, PC-11) and applies it.
func (s *State) draw(drawPawn *int, out *Outcome, r domain.Rand) {
	earners := drawEarners(s.mover().Pawns, s.Turn.StartPawns)
	out.PrimesLanded = earners
	if !s.Options.PrimeCards || len(earners) == 0 {
		return
	}
	pawn := earners[0]
	if len(earners) == 2 { // PC-13: the move names the pawn, by default the one that moved last
		pawn = max(s.Turn.LastMoved, 0)
		if drawPawn != nil {
			pawn = *drawPawn
		}
	}
	d := newDraw(pawn, s.mover().Pawns[pawn])
	out.Draw = d
	if len(s.Deck) == 0 {
		if len(s.Discard) == 0 {
			d.Effect = "the deck and the discard pile are empty: nothing to draw"
			return
		}
		s.Deck, s.Discard = s.Discard, []Card{}
		domain.Shuffle(r, s.Deck)
		d.Reshuffled = true
	}
	card := s.Deck[0]
	s.Deck = slices.Delete(s.Deck, 0, 1)
	d.Card = &card
	if card.IsKeeper() {
		d.Kind = "keeper"
		d.Effect = fmt.Sprintf("%s is kept face up; it can be played from your next turn", card.Title())
		s.mover().Keepers = append(s.mover().Keepers, HeldCard{Card: card, New: true})
		return
	}
	d.Kind = "action"
	s.actionCard(card, pawn, d)
	if !d.Pending {
		s.Discard = append(s.Discard, card)
	}
}

// actionCard applies an action card to the pawn that earned it (PC-13).
func (s *State) actionCard(card Card, pawn int, d *Draw) {
	seat := s.Turn.Seat
	x := s.mover().Pawns[pawn]
	switch card {
	case RollAgain:
		s.Turn.RollAgain = true
		d.Effect = "you take another full turn after this one"
	case PlusMinus50:
		if x > 50 {
			s.cardMove(pawn, x-50, d, fmt.Sprintf("%d − 50 = %d", x, x-50))
		} else {
			s.cardMove(pawn, x+50, d, fmt.Sprintf("%d + 50 = %d", x, x+50))
		}
	case DoubleOrBack10:
		if x < 50 {
			s.cardMove(pawn, 2*x, d, fmt.Sprintf("%d × 2 = %d", x, 2*x))
		} else {
			s.cardMove(pawn, x-10, d, fmt.Sprintf("%d − 10 = %d", x, x-10))
		}
	case AdvanceToNearestPawn:
		if to, ok := s.nearestPawn(PawnRef{seat, pawn}, x+1, 100); ok {
			s.cardMove(pawn, to, d, fmt.Sprintf("forward from %d to the nearest pawn, on %d", x, to))
		} else {
			d.Effect = fmt.Sprintf("no pawn stands between %d and 100: no effect", x+1)
		}
	case ReverseToNearestPawn:
		if to, ok := s.nearestPawn(PawnRef{seat, pawn}, x-1, 1); ok {
			s.cardMove(pawn, to, d, fmt.Sprintf("back from %d to the nearest pawn, on %d", x, to))
		} else {
			d.Effect = fmt.Sprintf("no pawn stands between 1 and %d: no effect", x-1)
		}
	case ReverseDigits:
		to := x%10*10 + x/10
		s.cardMove(pawn, to, d, fmt.Sprintf("%d reversed is %d", x, to))
	case GoTo64:
		s.cardMove(pawn, 64, d, fmt.Sprintf("from %d to 64", x))
	case Swap:
		s.chooseOrApply(card, pawn, s.swapCandidates(PawnRef{seat, pawn}), d)
	case Steal:
		s.chooseOrApply(card, pawn, s.stealCandidates(), d)
	}
}

// chooseOrApply applies a Swap or Steal with one candidate, does nothing without one, and otherwise puts
// the game in the resolve phase (PC-13).
func (s *State) chooseOrApply(card Card, pawn int, candidates []Choice, d *Draw) {
	switch len(candidates) {
	case 0:
		if card == Swap {
			d.Effect = "no other pawn stands on 1 to 100: no effect"
		} else {
			d.Effect = "no other player holds a keeper: no effect"
		}
	case 1:
		c := candidates[0]
		if card == Swap {
			s.swap(pawn, PawnRef{Seat: c.TargetSeat, Pawn: *c.Pawn}, d)
		} else {
			s.steal(c.TargetSeat, c.Card, d)
		}
	default:
		d.Pending = true
		d.Effect = fmt.Sprintf("choose one of %d candidates", len(candidates))
		s.Turn.Pending = &Pending{Card: card, Pawn: pawn, Candidates: candidates}
		s.Phase = PhaseResolve
	}
}

// cardMove moves one of the mover's pawns by an action card and bumps whoever stands there. It never
// earns a draw (PC-10).
func (s *State) cardMove(pawn, to int, d *Draw, text string) {
	from := s.mover().Pawns[pawn]
	d.Effect = fmt.Sprintf("pawn %d: %s", pawn, text)
	d.Moves = append(d.Moves, Moved{Seat: s.Turn.Seat, Pawn: pawn, From: from, To: to})
	if to == from {
		return
	}
	s.bumpAllAt(to, PawnRef{s.Turn.Seat, pawn}, d)
	s.mover().Pawns[pawn] = to
}

// nearestPawn finds the nearest square from `from` towards `to` (inclusive, either direction) with a
// pawn other than self on it.
func (s *State) nearestPawn(self PawnRef, from, to int) (int, bool) {
	step := 1
	if to < from {
		step = -1
	}
	for n := from; n != to+step; n += step {
		for _, ref := range s.pawnsAt(n) {
			if ref != self {
				return n, true
			}
		}
	}
	return 0, false
}

// swapCandidates lists every other pawn on 1..100, any player's (PC-13).
func (s *State) swapCandidates(self PawnRef) []Choice {
	var out []Choice
	for seat, p := range s.Players {
		for i, at := range p.Pawns {
			if at != Start && at != Home && (PawnRef{seat, i}) != self {
				out = append(out, Choice{TargetSeat: seat, Pawn: ptr(i)})
			}
		}
	}
	return out
}

func (s *State) swap(pawn int, other PawnRef, d *Draw) {
	seat := s.Turn.Seat
	a, b := s.mover().Pawns[pawn], s.pos(other)
	s.mover().Pawns[pawn] = b
	s.Players[other.Seat].Pawns[other.Pawn] = a
	d.Moves = append(d.Moves, Moved{Seat: seat, Pawn: pawn, From: a, To: b}, Moved{Seat: other.Seat, Pawn: other.Pawn, From: b, To: a})
	d.Effect = fmt.Sprintf("pawn %d (on %d) trades places with pawn %d of seat %d (on %d)", pawn, a, other.Pawn, other.Seat, b)
}

// stealCandidates lists each kind of keeper each other player holds, once (PC-13).
func (s *State) stealCandidates() []Choice {
	var out []Choice
	for seat, p := range s.Players {
		if seat == s.Turn.Seat {
			continue
		}
		var seen []Card
		for _, h := range p.Keepers {
			if !slices.Contains(seen, h.Card) {
				seen = append(seen, h.Card)
				out = append(out, Choice{TargetSeat: seat, Card: h.Card})
			}
		}
	}
	return out
}

// steal moves a keeper to the mover, who may play it from their next turn (PC-12).
func (s *State) steal(from int, card Card, d *Draw) {
	victim := &s.Players[from]
	i := slices.IndexFunc(victim.Keepers, func(h HeldCard) bool { return h.Card == card })
	victim.Keepers = slices.Delete(victim.Keepers, i, i+1)
	s.mover().Keepers = append(s.mover().Keepers, HeldCard{Card: card, New: true})
	d.Stolen = &Stolen{FromSeat: from, Card: card}
	d.Effect = fmt.Sprintf("you take %s from seat %d", card.Title(), from)
}

func joinWords(parts []string) string {
	if len(parts) <= 1 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " or " + parts[len(parts)-1]
}
