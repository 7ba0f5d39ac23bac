package primeclimb

import (
	"fmt"
	"slices"
	"strings"
)

// applyStep performs one step of the mover's move (PC-5) on s, which the caller owns. step is its
// 1-based number in the move, or 0 for a keeper played on its own.
func (s *State) applyStep(st Step, step int) (StepDone, error) {
	if st.isCard() {
		return s.playKeeper(st, step)
	}
	return s.useDie(st, step)
}

// stepPrefix begins a refusal's message with the step it concerns, when it is part of a move.
func stepPrefix(step int) string {
	if step == 0 {
		return ""
	}
	return stepLabel(step - 1)
}

func (s *State) useDie(st Step, step int) (StepDone, error) {
	label := stepPrefix(step)
	seat, pawn := s.Turn.Seat, *st.Pawn
	idx := slices.Index(s.Turn.Uses, st.Die)
	if idx < 0 {
		facts := DieFacts{Step: step, Die: st.Die, DiceLeft: cloneInts(s.Turn.Uses)}
		if len(s.Turn.Uses) == 0 {
			return StepDone{}, illegalWith(facts, "die_not_available", "%syou have used all your dice already", label)
		}
		return StepDone{}, illegalWith(facts, "die_not_available", "%syou have no %d to use: your dice left are %s", label, st.Die, joinInts(s.Turn.Uses))
	}
	from := s.Players[seat].Pawns[pawn]
	if from == Home {
		return StepDone{}, illegalWith(PawnFacts{Step: step, Pawn: pawn}, "pawn_home", "%spawn %d is home on 101 and never moves again (PC-7)", label, pawn)
	}
	if s.Turn.Cursed && st.Op != OpSubtract && st.Op != OpDivide {
		return StepDone{}, illegalWith(CursedFacts{Step: step, Op: st.Op, Die: st.Die},
			"cursed", "%syou are under a Curse this turn: your dice may only subtract or divide, not %s", label, st.Op)
	}
	to, ok := applyOp(from, st.Op, st.Die)
	if !ok {
		reason, result := stepReason(from, st.Op, st.Die)
		facts := IllegalStepFacts{Reason: reason, Step: step, Pawn: ptr(pawn), From: ptr(from), Op: st.Op, Die: st.Die, Amount: st.Die, Result: result}
		return StepDone{}, illegalWith(facts, "illegal_step", "%spawn %d is on %d: %s", label, pawn, from, whyNot(from, st.Op, st.Die))
	}
	s.Turn.Uses = slices.Delete(s.Turn.Uses, idx, idx+1)
	s.movePawn(pawn, to)
	return StepDone{Die: st.Die, Op: st.Op, Seat: seat, Pawn: ptr(pawn), From: ptr(from), To: ptr(to),
		Equation: equation(from, st.Op, st.Die, to), Home: to == Home}, nil
}

// movePawn puts one of the mover's pawns on a square as part of the move (PC-9 counts it as moved).
func (s *State) movePawn(pawn, to int) {
	s.mover().Pawns[pawn] = to
	s.Turn.Moved[pawn] = true
	s.Turn.LastMoved = pawn
	if s.bothHome(s.Turn.Seat) {
		s.win(s.Turn.Seat)
	}
}

// playKeeper plays a keeper held by the mover (PC-12), before the roll or inside the move.
func (s *State) playKeeper(st Step, step int) (StepDone, error) {
	label := stepPrefix(step)
	seat := s.Turn.Seat
	cardFacts := CardFacts{Step: step, Card: st.Card}
	if !st.Card.IsKeeper() {
		return StepDone{}, illegalWith(cardFacts, "not_a_keeper", "%s%s is an action card: it acts at once when drawn and is never held", label, st.Card.Title())
	}
	idx := s.playableCopy(seat, st.Card)
	if idx < 0 {
		if slices.ContainsFunc(s.Players[seat].Keepers, func(h HeldCard) bool { return h.Card == st.Card }) {
			return StepDone{}, illegalWith(cardFacts, "card_drawn_this_turn", "%syou got %s on this turn: it can be played from your next turn on (PC-12)", label, st.Card.Title())
		}
		return StepDone{}, illegalWith(cardFacts, "card_not_held", "%syou do not hold a %s card", label, st.Card.Title())
	}
	var done StepDone
	var err error
	switch st.Card {
	case SendToStart:
		done, err = s.sendToStart(*st.TargetSeat, *st.Pawn, step)
	case Curse:
		done, err = s.curse(*st.TargetSeat, step)
	default:
		done, err = s.plusMinus(st, step)
	}
	if err != nil {
		return StepDone{}, err
	}
	p := s.mover()
	p.Keepers = slices.Delete(p.Keepers, idx, idx+1)
	s.Discard = append(s.Discard, st.Card)
	done.Card = st.Card
	return done, nil
}

// playableCopy finds a copy of card in seat's hand that was not got on this turn, or -1.
func (s *State) playableCopy(seat int, card Card) int {
	return slices.IndexFunc(s.Players[seat].Keepers, func(h HeldCard) bool { return h.Card == card && !h.New })
}

func (s *State) plusMinus(st Step, step int) (StepDone, error) {
	label := stepPrefix(step)
	n, _ := plusMinusValue(st.Card)
	pawn := *st.Pawn
	from := s.mover().Pawns[pawn]
	if from == Home {
		return StepDone{}, illegalWith(PawnFacts{Step: step, Pawn: pawn}, "pawn_home", "%spawn %d is home on 101 and never moves again (PC-7)", label, pawn)
	}
	op := signOp(st.Sign)
	to, ok := applyOp(from, op, n)
	if !ok {
		reason, result := stepReason(from, op, n)
		facts := IllegalStepFacts{Reason: reason, Step: step, Pawn: ptr(pawn), From: ptr(from), Op: op, Card: st.Card, Amount: n, Result: result}
		return StepDone{}, illegalWith(facts, "illegal_step", "%s%s on pawn %d: pawn %d is on %d: %s", label, st.Card.Title(), pawn, pawn, from, whyNot(from, op, n))
	}
	s.movePawn(pawn, to)
	return StepDone{Sign: st.Sign, Seat: s.Turn.Seat, Pawn: ptr(pawn), From: ptr(from), To: ptr(to),
		Equation: equation(from, op, n, to), Home: to == Home}, nil
}

// sendToStart sends any pawn on 1..100 to 0 (PC-12); home pawns and pawns on Start are not targets.
func (s *State) sendToStart(target, pawn int, step int) (StepDone, error) {
	label := stepPrefix(step)
	refuse := func(reason string) InvalidTargetFacts {
		return InvalidTargetFacts{Reason: reason, Step: step, Card: SendToStart, TargetSeat: target, Pawn: ptr(pawn)}
	}
	if target < 0 || target >= len(s.Players) {
		return StepDone{}, illegalWith(refuse(TargetNoSuchSeat), "invalid_target", "%sthere is no seat %d: seats are 0 to %d", label, target, len(s.Players)-1)
	}
	from := s.Players[target].Pawns[pawn]
	switch from {
	case Start:
		return StepDone{}, illegalWith(refuse(TargetOnStart), "invalid_target", "%spawn %d of seat %d is on Start already", label, pawn, target)
	case Home:
		return StepDone{}, illegalWith(refuse(TargetHome), "invalid_target", "%spawn %d of seat %d is home on 101: home pawns are never sent back (PC-7)", label, pawn, target)
	}
	if target == s.Turn.Seat {
		s.movePawn(pawn, Start)
	} else {
		s.Players[target].Pawns[pawn] = Start
	}
	return StepDone{Seat: target, Pawn: ptr(pawn), From: ptr(from), To: ptr(Start), TargetSeat: ptr(target),
		Equation: fmt.Sprintf("pawn %d of seat %d: %d → 0 (Start)", pawn, target, from)}, nil
}

// curse marks an opponent's next turn (PC-12). A second Curse before that turn adds nothing.
func (s *State) curse(target int, step int) (StepDone, error) {
	label := stepPrefix(step)
	refuse := func(reason string) InvalidTargetFacts {
		return InvalidTargetFacts{Reason: reason, Step: step, Card: Curse, TargetSeat: target}
	}
	switch {
	case target < 0 || target >= len(s.Players):
		return StepDone{}, illegalWith(refuse(TargetNoSuchSeat), "invalid_target", "%sthere is no seat %d: seats are 0 to %d", label, target, len(s.Players)-1)
	case target == s.Turn.Seat:
		return StepDone{}, illegalWith(refuse(TargetSelf), "invalid_target", "%sa Curse is played on an opponent, not on yourself", label)
	case s.bothHome(target):
		return StepDone{}, illegalWith(refuse(TargetNoPawns), "invalid_target", "%sseat %d has no pawn left on the board", label, target)
	}
	text := fmt.Sprintf("seat %d may only subtract or divide with the dice on their next turn", target)
	if s.Players[target].CursedNext {
		text = fmt.Sprintf("seat %d was cursed already: two Curses do not stack", target)
	}
	s.Players[target].CursedNext = true
	return StepDone{Seat: target, TargetSeat: ptr(target), Equation: text}, nil
}

func (s *State) win(seat int) {
	s.Winner = ptr(seat)
	s.Phase = PhaseFinished
}

func joinInts(v []int) string {
	parts := make([]string, len(v))
	for i, n := range v {
		parts[i] = itoa(n)
	}
	return strings.Join(parts, ", ")
}
