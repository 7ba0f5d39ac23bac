package primeclimb

// keeperDepth is how many keepers in a row the expert looks through before the dice.
const keeperDepth = 2

// result is what one action does to the visible position, before the unknown card is drawn.
type result struct {
	after   State
	wins    bool
	bumped  []Bump // opponents' pawns sent to Start (PC-9)
	earners []int  // the mover's pawns that earn a draw (PC-10)
	drawer  int    // the pawn the card acts on, -1 when nothing is drawn
	ended   bool   // the turn is over (a move or a choice)
}

// simulate performs a on s without drawing a card: a move's steps and bump (PC-5, PC-9), a keeper
// (PC-12), or the answer to a pending Swap or Steal (PC-13). It fails for an action Apply would refuse,
// except that an unknown card is never drawn.
func simulate(s *State, a Action) (result, error) {
	n := s.clone()
	res := result{drawer: -1}
	if err := a.checkShape(); err != nil {
		return result{}, err
	}
	switch a.Type {
	case ActRoll:
		if n.Phase != PhaseRoll {
			return result{}, n.wrongPhase(ActRoll, "roll")
		}
	case ActKeeper:
		if err := n.keeper(a, &Outcome{}); err != nil {
			return result{}, err
		}
	case ActChoose:
		if err := n.chooseOnly(a); err != nil {
			return result{}, err
		}
		res.ended = true
	case ActMove:
		if n.Phase != PhaseMove {
			return result{}, n.wrongPhase(ActMove, "move")
		}
		for i, st := range a.Steps {
			if n.Winner != nil {
				break
			}
			if _, err := n.applyStep(st, i+1); err != nil {
				return result{}, err
			}
		}
		res.ended = true
		if n.Winner == nil {
			if err := n.checkAllUsed(); err != nil {
				return result{}, err
			}
			out := &Outcome{}
			n.bump(out)
			for _, b := range out.Bumps {
				if b.Seat != n.Turn.Seat {
					res.bumped = append(res.bumped, b)
				}
			}
			res.earners = drawEarners(n.mover().Pawns, n.Turn.StartPawns)
			if n.Options.PrimeCards && len(res.earners) > 0 && len(n.Deck)+len(n.Discard) > 0 {
				res.drawer = res.earners[0]
				if len(res.earners) == 2 {
					res.drawer = max(n.Turn.LastMoved, 0)
					if a.DrawPawn != nil {
						res.drawer = *a.DrawPawn
					}
				}
			}
		}
	}
	res.after = n
	res.wins = n.Winner != nil && *n.Winner == s.Turn.Seat
	return res, nil
}

// chooseOnly answers a pending Swap or Steal like choose, without passing the turn on.
func (s *State) chooseOnly(a Action) error {
	if s.Phase != PhaseResolve {
		return s.wrongPhase(ActChoose, "choose")
	}
	p := s.Turn.Pending
	for _, c := range p.Candidates {
		if c.TargetSeat != *a.TargetSeat || c.Card != a.Card || (c.Pawn == nil) != (a.Pawn == nil) || (c.Pawn != nil && *c.Pawn != *a.Pawn) {
			continue
		}
		d := newDraw(p.Pawn, s.mover().Pawns[p.Pawn])
		if p.Card == Swap {
			s.swap(p.Pawn, PawnRef{Seat: c.TargetSeat, Pawn: *c.Pawn}, d)
		} else {
			s.steal(c.TargetSeat, c.Card, d)
		}
		s.Discard = append(s.Discard, p.Card)
		s.Turn.Pending = nil
		return nil
	}
	return illegalWith(InvalidTargetFacts{Reason: TargetNotChoice, Card: p.Card, TargetSeat: *a.TargetSeat, Pawn: a.Pawn},
		"invalid_target", "%s cannot take that", p.Card.Title())
}

// value is the expert's evaluation of playing a on s, for the seat to act: a win, the position after
// a move with the unknown card's expectation, or, after a keeper, the best that can follow it.
func value(s *State, a Action, depth int) (float64, result, error) {
	me := s.Turn.Seat
	res, err := simulate(s, a)
	if err != nil {
		return 0, result{}, err
	}
	switch {
	case res.wins:
		return winValue, res, nil
	case a.Type == ActKeeper:
		return bestFollowing(&res.after, depth+1), res, nil
	case res.drawer >= 0:
		return expectedDraw(&res.after, me, res.drawer), res, nil
	}
	return score(&res.after, me), res, nil
}

// bestFollowing is the best value among the actions open after a keeper: the roll, or the moves and,
// within keeperDepth, further keepers.
func bestFollowing(s *State, depth int) float64 {
	me := s.Turn.Seat
	var options []LegalAction
	if s.Phase == PhaseMove {
		options = s.MoveOptions()
	} else {
		options = []LegalAction{{Action: Action{Type: ActRoll}}}
	}
	if depth < keeperDepth {
		options = append(options, s.KeeperOptions()...)
	}
	best := -2 * winValue
	for _, la := range options {
		if la.Type == ActRoll || la.Action.Type == ActRoll {
			best = max(best, score(s, me))
			continue
		}
		if v, _, err := value(s, la.Action, depth); err == nil {
			best = max(best, v)
		}
	}
	return best
}

// expectedDraw is the mean evaluation over the cards the seat cannot see, each applied as the draw
// would apply it to pawn drawer (PC-10..PC-13).
func expectedDraw(s *State, me, drawer int) float64 {
	cards := s.unknownCards()
	if len(cards) == 0 {
		return score(s, me)
	}
	total, count := 0.0, 0
	for _, cc := range cards {
		total += float64(cc.count) * cardOutcome(s, me, drawer, cc.card)
		count += cc.count
	}
	return total / float64(count)
}

// cardOutcome is the evaluation after card is drawn for pawn drawer; a Swap or Steal with a choice
// takes the best choice.
func cardOutcome(s *State, me, drawer int, card Card) float64 {
	n := s.clone()
	if len(n.Deck) > 0 {
		n.Deck = n.Deck[1:]
	}
	if card.IsKeeper() {
		n.mover().Keepers = append(n.mover().Keepers, HeldCard{Card: card, New: true})
		return score(&n, me)
	}
	n.actionCard(card, drawer, newDraw(drawer, n.mover().Pawns[drawer]))
	if n.Turn.Pending == nil {
		return score(&n, me)
	}
	best := -2 * winValue
	for _, c := range n.Turn.Pending.Candidates {
		m := n.clone()
		if err := m.chooseOnly(Action{Type: ActChoose, TargetSeat: ptr(c.TargetSeat), Pawn: c.Pawn, Card: c.Card}); err == nil {
			best = max(best, score(&m, me))
		}
	}
	return best
}

// expertPick is the index of the entry with the highest value, the first of equals, and the values.
func expertPick(s *State, entries []LegalAction) (int, []float64) {
	values := make([]float64, len(entries))
	pick := 0
	for i, la := range entries {
		v, _, err := value(s, la.Action, 0)
		if err != nil {
			v = -3 * winValue
		}
		values[i] = v
		if v > values[pick] {
			pick = i
		}
	}
	return pick, values
}

// greedyPick takes a win, else the entry that leaves the mover's own pawns furthest along (the sum of
// both positions), ties at random: the simple measure of domain.LevelGreedy.
func greedyPick(s *State, entries []LegalAction, pickTie func(scores []int) int) int {
	scores := make([]int, len(entries))
	for i, la := range entries {
		res, err := simulate(s, la.Action)
		switch {
		case err != nil:
			scores[i] = -1
		case res.wins:
			scores[i] = 1000
		default:
			p := res.after.Players[s.Turn.Seat].Pawns
			scores[i] = p[0] + p[1]
		}
	}
	return pickTie(scores)
}
