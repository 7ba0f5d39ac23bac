package primeclimb

import (
	"encoding/json"
	"fmt"

	"primegames/domain"
)

// Apply performs one action (see Action for the shapes). Errors are *domain.Error.
func (s State) Apply(seat int, raw json.RawMessage, r domain.Rand) (domain.State, domain.Outcome, error) {
	if err := s.checkActor(seat); err != nil {
		return nil, nil, err
	}
	a, err := DecodeAction(raw)
	if err != nil {
		return nil, nil, err
	}
	next, out, err := s.Act(seat, a, r)
	if err != nil {
		return nil, nil, err
	}
	return next, out, nil
}

// Act is Apply for a decoded action.
func (s State) Act(seat int, a Action, r domain.Rand) (State, *Outcome, error) {
	if err := s.checkActor(seat); err != nil {
		return State{}, nil, err
	}
	if err := a.checkShape(); err != nil {
		return State{}, nil, err
	}
	n := s.clone()
	out := newOutcome(a.Type, ptr(seat))
	var err error
	switch a.Type {
	case ActRoll:
		err = n.roll(out, r)
	case ActKeeper:
		err = n.keeper(a, out)
	case ActMove:
		err = n.move(a, out, r)
	case ActChoose:
		err = n.choose(a, out)
	}
	if err != nil {
		return State{}, nil, err
	}
	return n, out, nil
}

func (s State) checkActor(seat int) error {
	if s.Phase == PhaseFinished {
		return domain.GameOver([]int{*s.Winner}, "the game is over: seat %d has won (PC-14)", *s.Winner)
	}
	if seat != s.Turn.Seat {
		return domain.NotYourTurnFor(seat, []int{s.Turn.Seat}, "it is seat %d's turn, not seat %d's", s.Turn.Seat, seat)
	}
	return nil
}

// wrongPhase refuses the action type tried (want says it in words) in the turn's current phase.
func (s *State) wrongPhase(tried, want string) error {
	facts := WrongPhaseFacts{Phase: s.Phase, Action: tried}
	switch s.Phase {
	case PhaseRoll:
		return illegalWith(facts, "wrong_phase", "you have not rolled yet: roll first, you cannot %s now", want)
	case PhaseMove:
		facts.Dice = cloneInts(s.Turn.Dice)
		return illegalWith(facts, "wrong_phase", "you have rolled %s already: send your move, you cannot %s now", joinInts(s.Turn.Dice), want)
	}
	facts.Card = s.Turn.Pending.Card
	return illegalWith(facts, "wrong_phase", "your %s card waits for your choice: send a choose action, you cannot %s now", s.Turn.Pending.Card.Title(), want)
}

// roll rolls both dice; doubles give four uses (PC-3).
func (s *State) roll(out *Outcome, r domain.Rand) error {
	if s.Phase != PhaseRoll {
		return s.wrongPhase(ActRoll, "roll")
	}
	d1, d2 := rollDie(r), rollDie(r)
	s.Turn.Dice = []int{d1, d2}
	s.Turn.Uses = []int{d1, d2}
	if d1 == d2 {
		s.Turn.Uses = []int{d1, d1, d1, d1}
	}
	s.Phase = PhaseMove
	out.Dice = cloneInts(s.Turn.Dice)
	out.Uses = cloneInts(s.Turn.Uses)
	return nil
}

// keeper plays one keeper on its own, before the roll or between the move's steps (PC-4). It is part of
// the turn's move: nobody is bumped until the move ends (PC-9).
func (s *State) keeper(a Action, out *Outcome) error {
	if s.Phase != PhaseRoll && s.Phase != PhaseMove {
		return s.wrongPhase(ActKeeper, "play a keeper")
	}
	done, err := s.applyStep(a.keeperStep(), 0)
	if err != nil {
		return err
	}
	out.Steps = append(out.Steps, done)
	out.Winner = s.Winner
	return nil
}

// move performs the whole move, then bump (PC-9), draw (PC-10) and the end of the turn.
func (s *State) move(a Action, out *Outcome, r domain.Rand) error {
	if s.Phase != PhaseMove {
		return s.wrongPhase(ActMove, "move")
	}
	for i, st := range a.Steps {
		if s.Winner != nil {
			return illegalWith(IllegalStepFacts{Reason: ReasonAfterWin, Step: i + 1, WonAt: i},
				"illegal_step", "step %d: you already won at step %d, so nothing may follow it", i+1, i)
		}
		done, err := s.applyStep(st, i+1)
		if err != nil {
			return err
		}
		out.Steps = append(out.Steps, done)
	}
	out.Unused = cloneInts(s.Turn.Uses)
	if s.Winner != nil { // PC-6: the remaining uses are dropped
		s.Turn.Uses = []int{}
		out.Winner = s.Winner
		return nil
	}
	if err := s.checkAllUsed(); err != nil {
		return err
	}
	s.bump(out)
	s.draw(a.DrawPawn, out, r)
	if s.Phase != PhaseResolve {
		s.endTurn(out)
	}
	return nil
}

// checkAllUsed refuses a move that leaves a die use with a legal application (PC-6).
func (s *State) checkAllUsed() error {
	for _, n := range s.Turn.Uses {
		if pawn, op, ok := s.dieApplication(n); ok {
			from := s.mover().Pawns[pawn]
			to, _ := applyOp(from, op, n)
			facts := DiceUnusedFacts{Die: n, Unused: cloneInts(s.Turn.Uses), Pawn: pawn, From: from, Op: op, Result: to}
			return illegalWith(facts, "dice_unused", "you must use every die: your %d can still be used, for example pawn %d on %d: %s",
				n, pawn, from, equation(from, op, n, to))
		}
	}
	return nil
}

// dieApplication finds a legal use of a die value on one of the mover's pawns.
func (s *State) dieApplication(n int) (pawn int, op string, ok bool) {
	for pawn, from := range s.mover().Pawns {
		if from == Home {
			continue
		}
		for _, op := range diceOps(s.Turn.Cursed) {
			if _, ok := applyOp(from, op, n); ok {
				return pawn, op, true
			}
		}
	}
	return 0, "", false
}

// choose answers a pending Swap or Steal (PC-13) and ends the turn.
func (s *State) choose(a Action, out *Outcome) error {
	if s.Phase != PhaseResolve {
		return s.wrongPhase(ActChoose, "choose")
	}
	d, err := s.resolvePending(a)
	if err != nil {
		return err
	}
	out.Draw = d
	s.endTurn(out)
	return nil
}

// resolvePending applies the answer a to the pending Swap or Steal (PC-13); the turn is not passed on.
func (s *State) resolvePending(a Action) (*Draw, error) {
	p := s.Turn.Pending
	want := Choice{TargetSeat: *a.TargetSeat, Pawn: a.Pawn, Card: a.Card}
	found := false
	for _, c := range p.Candidates {
		if c.TargetSeat == want.TargetSeat && c.Card == want.Card && (c.Pawn == nil) == (want.Pawn == nil) && (c.Pawn == nil || *c.Pawn == *want.Pawn) {
			found = true
		}
	}
	if !found {
		facts := InvalidTargetFacts{Reason: TargetNotChoice, Card: p.Card, TargetSeat: want.TargetSeat, Pawn: want.Pawn, Choices: p.Candidates}
		return nil, illegalWith(facts, "invalid_target", "%s cannot take that: choose one of %s", p.Card.Title(), describeChoices(s, p))
	}
	d := newDraw(p.Pawn, s.mover().Pawns[p.Pawn])
	d.Card, d.Kind = ptr(p.Card), "action"
	if p.Card == Swap {
		s.swap(p.Pawn, PawnRef{Seat: want.TargetSeat, Pawn: *want.Pawn}, d)
	} else {
		s.steal(want.TargetSeat, want.Card, d)
	}
	s.Discard = append(s.Discard, p.Card)
	s.Turn.Pending = nil
	return d, nil
}

func describeChoices(s *State, p *Pending) string {
	parts := make([]string, len(p.Candidates))
	for i, c := range p.Candidates {
		if c.Pawn != nil {
			parts[i] = fmt.Sprintf("pawn %d of seat %d (on %d)", *c.Pawn, c.TargetSeat, s.Players[c.TargetSeat].Pawns[*c.Pawn])
		} else {
			parts[i] = fmt.Sprintf("%s from seat %d", c.Card.Title(), c.TargetSeat)
		}
	}
	return joinWords(parts)
}

// endTurn passes the turn on: to the same seat after Roll Again (PC-13), else to the next seat.
func (s *State) endTurn(out *Outcome) {
	next := s.Turn.Seat
	if !s.Turn.RollAgain {
		next = (next + 1) % len(s.Players)
	}
	s.startTurn(next)
	out.NextSeat = ptr(next)
	out.NextCursed = s.Turn.Cursed
}
