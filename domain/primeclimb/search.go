package primeclimb

import (
	"cmp"
	"slices"
)

const (
	// keeperDepth is how many keepers in a row the expert looks through before the dice.
	keeperDepth = 1
	// exactAfterKeeper is how many of the moves after a keeper the expert judges exactly.
	exactAfterKeeper = 4
)

// result is what one action does to the visible position, before the unknown card is drawn.
type result struct {
	after  State
	wins   bool
	bumped []Bump // opponents' pawns sent to Start (PC-9)
	drawer int    // the pawn the card acts on, -1 when nothing is drawn (PC-10)
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
		if n.Winner == nil {
			if err := n.checkAllUsed(); err != nil {
				return result{}, err
			}
			res.bumpAndDraw(&n, a.DrawPawn)
		}
	}
	res.after = n
	res.wins = n.Winner != nil && *n.Winner == s.Turn.Seat
	return res, nil
}

// simulateListed is simulate for a move entry the engine listed (MoveOptions), which is legal and
// says where the mover's pawns end: only the bump of the opponents (PC-9) and the draw (PC-10) remain.
func simulateListed(s *State, la LegalAction) result {
	n := *s // the bump changes pawns only, so the players are all that must be copied
	n.Players = slices.Clone(s.Players)
	res := result{drawer: -1}
	if la.gen != nil && la.Action.Steps == nil {
		la.gen.played(&n)
	}
	for _, st := range la.Action.Steps {
		n.Turn.Moved[*st.Pawn] = true
		n.Turn.LastMoved = *st.Pawn
		if st.isCard() {
			n.discardKeeper(st.Card)
		}
	}
	n.mover().Pawns = *la.Ends
	if la.Wins {
		n.win(n.Turn.Seat)
		res.after, res.wins = n, true
		return res
	}
	res.bumpAndDraw(&n, la.Action.DrawPawn)
	res.after = n
	return res
}

// discardKeeper moves a ± keeper the mover played in a move from the hand to the discard pile (PC-11),
// as playKeeper does, on a copy of the hand and pile.
func (s *State) discardKeeper(card Card) {
	p := &s.Players[s.Turn.Seat]
	if i := s.playableCopy(s.Turn.Seat, card); i >= 0 {
		p.Keepers = slices.Delete(slices.Clone(p.Keepers), i, i+1)
		s.Discard = append(slices.Clone(s.Discard), card)
	}
}

// bumpAndDraw ends a move on n as the engine does up to the draw: the bump (PC-9), then which pawn, if
// any, the card acts on (PC-10, PC-13; drawPawn is the move's choice when both earned it).
func (res *result) bumpAndDraw(n *State, drawPawn *int) {
	out := &Outcome{}
	n.bump(out)
	for _, b := range out.Bumps {
		if b.Seat != n.Turn.Seat {
			res.bumped = append(res.bumped, b)
		}
	}
	earners := drawEarners(n.mover().Pawns, n.Turn.StartPawns)
	if n.Options.PrimeCards && len(earners) > 0 && len(n.Deck)+len(n.Discard) > 0 {
		res.drawer = earners[0]
		if len(earners) == 2 {
			res.drawer = max(n.Turn.LastMoved, 0)
			if drawPawn != nil {
				res.drawer = *drawPawn
			}
		}
	}
}

// chooseOnly answers a pending Swap or Steal like choose, without passing the turn on.
func (s *State) chooseOnly(a Action) error {
	if s.Phase != PhaseResolve {
		return s.wrongPhase(ActChoose, "choose")
	}
	_, err := s.resolvePending(a)
	return err
}

// expert evaluates one decision. It remembers what it has evaluated, since keepers played in another
// order, or moves spelled another way, reach the same positions, and the cards a draw may bring, which
// do not change during a turn (a played keeper goes from a hand to the discard pile, both visible).
type expert struct {
	me      int
	unknown []cardCount
	ends    map[string]float64 // the value of a position after a move, by positionKey
	follow  map[string]float64 // bestFollowing, by positionKey
}

func newExpert(s *State) *expert {
	return &expert{me: s.Turn.Seat, unknown: s.unknownCards(), ends: map[string]float64{}, follow: map[string]float64{}}
}

// positionKey names what the evaluation of s depends on, with extra (the drawer, the depth).
func positionKey(s *State, extra int) string {
	b := make([]byte, 0, 64)
	for _, p := range s.Players {
		b = append(b, byte(p.Pawns[0]), byte(p.Pawns[1]))
		if p.CursedNext {
			b = append(b, 'c')
		}
		for _, h := range p.Keepers {
			b = append(b, h.Card...)
			b = append(b, ',')
		}
		b = append(b, '|')
	}
	for _, n := range s.Turn.Uses {
		b = append(b, byte(n))
	}
	b = append(b, '|', byte(s.Turn.LastMoved+1), byte(extra+1), byte(len(s.Deck)), byte(len(s.Discard)))
	if s.Turn.Moved[0] {
		b = append(b, 'm')
	}
	if s.Turn.Moved[1] {
		b = append(b, 'n')
	}
	if s.Turn.RollAgain {
		b = append(b, 'r')
	}
	if s.Phase == PhaseMove {
		b = append(b, 'M')
	}
	return string(b)
}

// value is the expert's evaluation of playing a on s, for the seat to act: a win, the position after
// a move with the unknown card's expectation, or, after a keeper, the best that can follow it.
func (e *expert) value(s *State, a Action, depth int) (float64, result, error) {
	res, err := simulate(s, a)
	if err != nil {
		return 0, result{}, err
	}
	if a.Type == ActKeeper && !res.wins {
		return e.bestFollowing(&res.after, depth+1), res, nil
	}
	return e.valueOf(res), res, nil
}

// valueOf is the evaluation of a result that ends the turn or wins, a draw counted at its expectation.
func (e *expert) valueOf(res result) float64 {
	if res.wins {
		return winValue
	}
	key := positionKey(&res.after, res.drawer)
	if v, ok := e.ends[key]; ok {
		return v
	}
	v := score(&res.after, e.me)
	if res.drawer >= 0 {
		v = e.expectedDraw(&res.after, res.drawer, v)
	}
	e.ends[key] = v
	return v
}

// bestFollowing is the best value among the actions open after a keeper: the roll, or the moves (with
// keepers too) and, within keeperDepth, further keepers.
func (e *expert) bestFollowing(s *State, depth int) float64 {
	key := positionKey(s, depth)
	if v, ok := e.follow[key]; ok {
		return v
	}
	var options []LegalAction
	best := -2 * winValue
	if s.Phase == PhaseMove { // the moves, with keepers too: a Send to Start may open a win with them
		options = append(s.MoveOptions(), keeperMoves(s)...)
	} else {
		best = score(s, e.me) // the roll
	}
	if depth < keeperDepth {
		options = append(options, s.KeeperOptions()...)
	}
	// Every move is judged roughly first (a draw as its mean worth in hand), and only the most
	// promising ones exactly: this keeps a turn with doubles and keepers within the time budget.
	type candidate struct {
		listed int
		rough  float64
	}
	var moves []candidate
	var listed []LegalAction
	for _, la := range options {
		if la.Action.Type == ActKeeper {
			if v, _, err := e.value(s, la.Action, depth); err == nil {
				best = max(best, v)
			}
			continue
		}
		if la.Wins {
			e.follow[key] = winValue
			return winValue
		}
		moves = append(moves, candidate{len(listed), e.rough(s, la)})
		listed = append(listed, la)
	}
	slices.SortStableFunc(moves, func(a, b candidate) int { return cmp.Compare(b.rough, a.rough) })
	for _, m := range moves[:min(len(moves), exactAfterKeeper)] {
		best = max(best, e.valueOf(simulateListed(s, listed[m.listed])))
	}
	e.follow[key] = best
	return best
}

// roughDraw is what a draw is worth counting only the cards that do not move a pawn.
func (e *expert) roughDraw() float64 {
	total, count := 0.0, 0
	for _, cc := range e.unknown {
		switch {
		case cc.card.IsKeeper():
			total += float64(cc.count) * keeperValue(cc.card)
		case cc.card == RollAgain:
			total += float64(cc.count) * rollAgainValue
		}
		count += cc.count
	}
	if count == 0 {
		return 0
	}
	return total / float64(count)
}

// expectedDraw is the mean evaluation over the cards the seat cannot see, each applied as the draw
// would apply it to pawn drawer (PC-10..PC-13); kept is the evaluation of s itself.
func (e *expert) expectedDraw(s *State, drawer int, kept float64) float64 {
	if len(e.unknown) == 0 {
		return kept
	}
	total, count := 0.0, 0
	for _, cc := range e.unknown {
		var v float64
		switch {
		case cc.card.IsKeeper(): // held face up: the seat's distance shrinks by its worth
			v = kept + keeperValue(cc.card)
		case cc.card == RollAgain:
			v = kept + rollAgainValue
		default:
			v = cardOutcome(s, e.me, drawer, cc.card)
		}
		total += float64(cc.count) * v
		count += cc.count
	}
	return total / float64(count)
}

// cardOutcome is the evaluation after action card is drawn for pawn drawer; a Swap or Steal with a
// choice takes the best choice.
func cardOutcome(s *State, me, drawer int, card Card) float64 {
	n := *s // the cards below move pawns only, so the players are all that must be copied
	n.Players = slices.Clone(s.Players)
	if card == Steal {
		n = s.clone()
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

// unjudged is the value of an entry expertPick does not judge: below any other.
const unjudged = -3 * winValue

// exactKeeperMoves is how many of the moves with keepers the expert judges exactly, the best by a
// quick estimate; a position with keepers and doubles can have thousands (moves.go).
const exactKeeperMoves = 8

// keepUntilRolled: before the roll the expert plays a keeper only to win at once. Any keeper does the
// same after the roll (PC-4, PC-12: before the dice, inside the move), when the dice are known.
const keepUntilRolled = true

// expertPick is the index of the entry with the highest value, the first of equals, and the values.
// In the move phase a ± keeper played on its own is not judged: every keeper followed by the dice is a
// complete move of entries, worth at least as much (a result reached with fewer keepers is worth more),
// unless the card is one the generated moves leave out (a seat holding more than maxMoveKeepers).
// Before the roll only a keeper that wins is judged (keepUntilRolled).
// Entries from listed on are moves with keepers: a win is judged at once, the others by a quick
// estimate (rough), and the exactKeeperMoves best of those exactly; exact[i] says which were.
func expertPick(s *State, entries []LegalAction, listed int) (pick int, values []float64, exact []bool) {
	e := newExpert(s)
	values, exact = make([]float64, len(entries)), make([]bool, len(entries))
	var screened []int
	for i, la := range entries {
		v := unjudged // also an entry that does not apply here: never chosen
		_, plusMinus := plusMinusValue(la.Action.Card)
		switch {
		case la.Action.Type == ActKeeper && plusMinus && s.Phase == PhaseMove && inMoves(s, la.Action.Card):
		case la.Action.Type == ActKeeper && s.Phase == PhaseRoll && !la.Wins && keepUntilRolled:
		case i >= listed && !la.Wins:
			v = e.rough(s, la)
			screened = append(screened, i)
		case la.Action.Type == ActMove && la.Ends != nil:
			v, exact[i] = e.valueOf(simulateListed(s, la)), true
		default:
			if value, _, err := e.value(s, la.Action, 0); err == nil {
				v, exact[i] = value, true
			}
		}
		values[i] = v
	}
	for _, i := range bestOf(screened, values, exactKeeperMoves) {
		values[i], exact[i] = e.valueOf(simulateListed(s, entries[i])), true
	}
	pick = -1
	for i := range entries {
		if exact[i] && (pick < 0 || values[i] > values[pick]) {
			pick = i
		}
	}
	return max(pick, 0), values, exact
}

// bestOf are the n indexes with the highest values, the first of equals first.
func bestOf(indexes []int, values []float64, n int) []int {
	top := make([]int, 0, n+1)
	for _, i := range indexes {
		at := len(top)
		for at > 0 && values[top[at-1]] < values[i] {
			at--
		}
		if at < n {
			top = slices.Insert(top, at, i)[:min(len(top)+1, n)]
		}
	}
	return top
}

// rough is a quick estimate of a generated move: the position's score with the mover's pawns where
// the move leaves them, less the keepers it plays, and a draw at its mean worth in hand. A move that
// bumps an opponent is scored on the position after the bump.
func (e *expert) rough(s *State, la LegalAction) float64 {
	ends := *la.Ends
	mover := &s.Players[s.Turn.Seat]
	bumps := false
	for seat, p := range s.Players {
		for _, at := range ends {
			if seat != s.Turn.Seat && at != Start && at != Home && (p.Pawns[0] == at || p.Pawns[1] == at) {
				bumps = true
			}
		}
	}
	var v float64
	if bumps {
		res := simulateListed(s, la)
		v = score(&res.after, e.me)
	} else {
		// score reads the pawns only, so they are put there for the moment instead of copying s
		before := mover.Pawns
		mover.Pawns = ends
		v = score(s, e.me)
		mover.Pawns = before
		for i, n := range la.gen.g.keepers {
			if (la.gen.plan.keepers[0]|la.gen.plan.keepers[1])&(1<<i) != 0 {
				v -= keeperValue(PlusMinus(n))
			}
		}
	}
	if la.Draws {
		v += e.roughDraw()
	}
	return v
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
