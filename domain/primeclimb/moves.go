package primeclimb

import (
	"cmp"
	"math/bits"
	"slices"
	"strconv"
)

// The complete move generator. A move spends every die use left (PC-5, PC-6) and may play the mover's
// ± keepers anywhere in it: before, between or after the dice, several in one move (PC-4, PC-12). It
// is found pawn by pawn: the two pawns share only the dice and the cards, so a move is a split of the
// uses and keepers between the pawns and, for each pawn, an order of its own steps. For each pawn
// reach[uses][keepers] is the set of squares it can end on spending exactly those uses and keepers,
// every step on 0..101 and none after 101 (PC-5, PC-7). Moves are kept once per result: where the
// mover's pawns end after the bump (PC-9) and the uses left unspent; of the moves with one result the
// one with the fewest keepers is kept (a keeper kept is worth more than one played for nothing), and
// every win is one result (PC-6: a win drops the uses left).
//
// Send to Start and Curse are not mixed into moves: where they fall in a move never changes its result
// (a Curse acts on the next turn; an opponent's pawn sent to Start is bumped or not the same either
// way; an own pawn sent to Start ends on 0 whatever dice it took before, since 0 × n = 0). They are
// keeper actions of their own, after which the moves are generated again.
//
// Cost bound: at most maxMoveKeepers ± keepers (the highest the seat holds) and four die uses, so per
// pawn 2⁴ use sets × 2⁴ keeper sets of 102-square sets, each built from at most 8 smaller ones, and
// at most 3⁴ × 2⁴ splits of keepers and uses between the pawns, each a walk over ≤ 102 squares;
// results are at most 102 × 102. BenchmarkCompleteMovesWorst measures it (docs/performance.md).

// maxMoveKeepers is how many of the seat's ± keepers a generated move may play: the highest ones held.
// A seat holding more (rare: there are nine) can still play any of them, alone or in a move it sends;
// the judge tries each card left out played alone first, with the generated moves after it.
const maxMoveKeepers = 4

// squares is a set of squares 0..101.
type squares [2]uint64

func (q *squares) add(n int)              { q[n>>6] |= 1 << (n & 63) }
func (q squares) has(n int) bool          { return q[n>>6]&(1<<(n&63)) != 0 }
func (q squares) empty() bool             { return q[0]|q[1] == 0 }
func (q squares) minus(o squares) squares { return squares{q[0] &^ o[0], q[1] &^ o[1]} }
func (q *squares) union(o squares)        { q[0] |= o[0]; q[1] |= o[1] }

func (q squares) each(f func(n int)) {
	for w, word := range q {
		for ; word != 0; word &= word - 1 {
			f(w<<6 | bits.TrailingZeros64(word))
		}
	}
}

// moveStep is one die use or one ± keeper as the generator sees it.
type moveStep struct {
	n      int
	keeper bool
}

// movePlan is one complete move: for each pawn the uses (bits over the sorted uses) and keepers (bits
// over the generator's keepers) it spends and the square it reaches before the bump.
type movePlan struct {
	uses, keepers [2]uint8
	reach         [2]int
	end           [2]int // after the bump (PC-9)
	unused        []int
	last          int // the pawn that moves last, -1 when neither moves
	win           bool
	keepersPlayed int
}

// moveGen holds one generation: the position, the uses, the keepers and each pawn's reach table.
type moveGen struct {
	s       *State
	uses    []int // sorted
	keepers []int // the ± keepers' numbers, highest first
	ops     []string
	reach   [2][]squares // per pawn, indexed by reachAt: only the sets of the uses and keepers held
	pawns   [2]int       // what the written steps' Pawn fields point to, shared: steps are never written to
	text    []byte       // scratch for the descriptions spell writes
}

// reachAt is pawn's set of squares for the uses u and keepers k.
func (g *moveGen) reachAt(pawn int, u, k uint8) *squares {
	return &g.reach[pawn][int(u)<<len(g.keepers)|int(k)]
}

// completeMoves generates every distinct complete move of s (see above); withKeepers false leaves the
// keepers out (the dice-only moves legal-actions lists).
func completeMoves(s *State, withKeepers bool) (*moveGen, []movePlan) {
	g := &moveGen{s: s, uses: slices.Sorted(slices.Values(s.Turn.Uses)), ops: diceOps(s.Turn.Cursed), pawns: [2]int{0, 1}}
	if withKeepers {
		g.keepers = moveKeepers(s)
	}
	sets := 1 << (len(g.uses) + len(g.keepers))
	table := make([]squares, 2*sets)
	g.reach = [2][]squares{table[:sets:sets], table[sets:]}
	for pawn, at := range s.mover().Pawns {
		g.fillReach(pawn, at)
	}
	return g, g.plans()
}

// moveKeepers are the ± keepers the mover may play in a move now (PC-12: not those got this turn),
// the highest first, at most maxMoveKeepers.
func moveKeepers(s *State) []int {
	out := playablePlusMinus(s)
	return out[:min(len(out), maxMoveKeepers)]
}

// inMoves reports whether card is a ± keeper the generated moves of s play (moveKeepers): then
// playing it alone before the dice is one of those moves.
func inMoves(s *State, card Card) bool {
	n, ok := plusMinusValue(card)
	return ok && slices.Contains(moveKeepers(s), n)
}

func playablePlusMinus(s *State) []int {
	var out []int
	for _, h := range s.mover().Keepers {
		if n, ok := plusMinusValue(h.Card); ok && !h.New && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	slices.SortFunc(out, func(a, b int) int { return b - a })
	return out
}

// fillReach builds pawn's reach table from square at, smaller sets first.
func (g *moveGen) fillReach(pawn, at int) {
	nu, nk := 1<<len(g.uses), 1<<len(g.keepers)
	g.reachAt(pawn, 0, 0).add(at)
	for u := range nu {
		for k := range nk {
			if u == 0 && k == 0 {
				continue
			}
			var q squares
			g.eachLast(uint8(u), uint8(k), func(st moveStep, pu, pk uint8) {
				g.reachAt(pawn, pu, pk).each(func(from int) {
					if from == Home { // PC-7: a home pawn never moves again
						return
					}
					for _, op := range g.stepOps(st) {
						if to, ok := applyOp(from, op, st.n); ok {
							q.add(to)
						}
					}
				})
			})
			*g.reachAt(pawn, uint8(u), uint8(k)) = q
		}
	}
}

// eachLast calls f for each step of the sets u and k that can come last, with the sets before it:
// the keepers first, so that a move written from it plays its keepers as late as it can. Equal die
// values give the same sets, so only the first of equal uses is tried.
func (g *moveGen) eachLast(u, k uint8, f func(st moveStep, pu, pk uint8)) {
	for i, n := range g.keepers {
		if k&(1<<i) != 0 {
			f(moveStep{n: n, keeper: true}, u, k&^(1<<i))
		}
	}
	for i := len(g.uses) - 1; i >= 0; i-- { // the highest last, so the small dice come first
		if n := g.uses[i]; u&(1<<i) != 0 && (i == 0 || g.uses[i-1] != n || u&(1<<(i-1)) == 0) {
			f(moveStep{n: n}, u&^(1<<i), k)
		}
	}
}

// stepOps are the operations a step may use: a keeper adds or subtracts, however cursed (PC-12).
func (g *moveGen) stepOps(st moveStep) []string {
	if st.keeper {
		return []string{OpAdd, OpSubtract}
	}
	return g.ops
}

// plans combines the pawns' reach tables into the distinct moves, fewest keepers first.
func (g *moveGen) plans() []movePlan {
	all := uint8(1<<len(g.uses) - 1)
	allK := uint8(1<<len(g.keepers) - 1)
	var out []movePlan
	// by the unused uses and pawn 0's square: pawn 1's squares already listed (seen, after the bump)
	// and already combined (done, before it)
	seen, done := make([][102]squares, 16), make([][102]squares, 16)
	won := false
	for played := 0; played <= len(g.keepers); played++ {
		for k0 := uint8(0); k0 <= allK; k0++ {
			for k1 := uint8(0); k1 <= allK; k1++ {
				if k0&k1 != 0 || bits.OnesCount8(k0)+bits.OnesCount8(k1) != played {
					continue
				}
				for u0 := uint8(0); u0 <= all; u0++ {
					for u1 := uint8(0); u1 <= all; u1++ {
						if u0&u1 != 0 || !g.canonical(u0, u1) {
							continue
						}
						spent := [2]uint8{u0, u1}
						keepers := [2]uint8{k0, k1}
						q0, q1 := *g.reachAt(0, u0, k0), *g.reachAt(1, u1, k1)
						if q0.empty() || q1.empty() {
							continue
						}
						um := all &^ (u0 | u1)
						unused := g.usesOf(um)
						if !won && q0.has(Home) && q1.has(Home) && g.steps(spent, keepers) > 0 {
							won = true // every win is one result: the first, with the fewest keepers
							// the uses it leaves are dropped by the win (PC-6), and listed as unused
							out = append(out, movePlan{uses: spent, keepers: keepers, reach: [2]int{Home, Home}, end: [2]int{Home, Home},
								unused: unused, last: -1, win: true, keepersPlayed: played})
						}
						lasts := g.lasts(spent, keepers)
						q0.each(func(a int) {
							fresh := q1.minus(done[um][a])
							done[um][a].union(q1)
							if q1.has(a) { // both on a: which one stays depends on the split (PC-9)
								fresh.add(a)
							}
							fresh.each(func(b int) {
								if (a == Home && b == Home) || !g.mayLeave(unused, [2]int{a, b}) {
									return
								}
								for _, last := range lasts {
									end := [2]int{a, b}
									if a == b && a != Start && a != Home && last >= 0 { // PC-9
										end[1-last] = Start
									}
									if seen[um][end[0]].has(end[1]) {
										continue
									}
									seen[um][end[0]].add(end[1])
									out = append(out, movePlan{uses: spent, keepers: keepers, reach: [2]int{a, b}, end: end,
										unused: unused, last: last, keepersPlayed: played})
								}
							})
						})
					}
				}
			}
		}
	}
	return out
}

// canonical is false for a split of the uses that an earlier split mirrors: equal die values are
// interchangeable, so of equal uses pawn 0 takes the first ones and the unused are the last.
func (g *moveGen) canonical(u0, u1 uint8) bool {
	for i := 1; i < len(g.uses); i++ {
		if g.uses[i] != g.uses[i-1] {
			continue
		}
		rank := func(j int) int {
			switch {
			case u0&(1<<j) != 0:
				return 0
			case u1&(1<<j) != 0:
				return 1
			}
			return 2
		}
		if rank(i-1) > rank(i) {
			return false
		}
	}
	return true
}

// steps counts the steps of a split.
func (g *moveGen) steps(uses, keepers [2]uint8) int {
	return bits.OnesCount8(uses[0]|uses[1]) + bits.OnesCount8(keepers[0]|keepers[1])
}

// lasts are the pawns that may move last in a split: either pawn that moves, or the one that moved
// before in the turn when neither moves now.
func (g *moveGen) lasts(uses, keepers [2]uint8) []int {
	m0, m1 := uses[0]|keepers[0] != 0, uses[1]|keepers[1] != 0
	switch {
	case m0 && m1:
		return []int{0, 1}
	case m0:
		return []int{0}
	case m1:
		return []int{1}
	}
	return []int{g.s.Turn.LastMoved}
}

func (g *moveGen) usesOf(u uint8) []int {
	out := []int{}
	for i, n := range g.uses {
		if u&(1<<i) != 0 {
			out = append(out, n)
		}
	}
	return out
}

// mayLeave reports whether the unused uses may stay unspent with the pawns on at: none of them can be
// applied to a pawn that is not home (PC-6).
func (g *moveGen) mayLeave(unused []int, at [2]int) bool {
	for _, n := range unused {
		for _, p := range at {
			if p == Home {
				continue
			}
			for _, op := range g.ops {
				if _, ok := applyOp(p, op, n); ok {
					return false
				}
			}
		}
	}
	return true
}

// stepsOf writes plan p as steps Apply accepts: the pawn that is not last first, each pawn's steps in
// an order that reaches its square.
func (g *moveGen) stepsOf(p movePlan) []Step {
	order := [2]int{0, 1}
	if p.last == 0 {
		order = [2]int{1, 0}
	}
	first, second := order[0], order[1]
	n0 := bits.OnesCount8(p.uses[first]) + bits.OnesCount8(p.keepers[first])
	out := make([]Step, n0+bits.OnesCount8(p.uses[second])+bits.OnesCount8(p.keepers[second]))
	g.pawnSteps(first, p.uses[first], p.keepers[first], p.reach[first], out[:n0])
	g.pawnSteps(second, p.uses[second], p.keepers[second], p.reach[second], out[n0:])
	return out
}

// pawnSteps writes into out, one step per use and keeper, steps taking pawn to square to with exactly
// the uses u and keepers k, going back from the last step through the reach table; it reports whether
// it found them.
func (g *moveGen) pawnSteps(pawn int, u, k uint8, to int, out []Step) bool {
	if u == 0 && k == 0 {
		return true
	}
	found := false
	g.eachLast(u, k, func(st moveStep, pu, pk uint8) {
		if found {
			return
		}
		g.reachAt(pawn, pu, pk).each(func(from int) {
			if found || from == Home {
				return
			}
			for _, op := range g.stepOps(st) {
				if at, ok := applyOp(from, op, st.n); ok && at == to && g.pawnSteps(pawn, pu, pk, from, out[:len(out)-1]) {
					out[len(out)-1] = g.step(pawn, st, op)
					found = true
					return
				}
			}
		})
	})
	return found
}

// step is a move's step of pawn: a die use, or a ± keeper whose op gives its sign.
func (g *moveGen) step(pawn int, st moveStep, op string) Step {
	if !st.keeper {
		return Step{Die: st.n, Pawn: &g.pawns[pawn], Op: op}
	}
	sign := "+"
	if op == OpSubtract {
		sign = "-"
	}
	return Step{Card: PlusMinus(st.n), Pawn: &g.pawns[pawn], Sign: sign}
}

// MoveOptions lists every distinct complete move that spends the dice, without keepers (legal-actions
// lists keepers as actions of their own; see completeMoves for what is distinct).
func (s State) MoveOptions() []LegalAction {
	if s.Phase != PhaseMove {
		return nil
	}
	g, plans := completeMoves(&s, false)
	out := g.entries(plans)
	for i := range out {
		out[i].spell()
	}
	// A move that leaves the pawns where they are (0 × 3 = 0 at the start) is listed last, so that a
	// client that takes the first move listed gets somewhere; the order is otherwise the search's.
	at := s.mover().Pawns
	stays := func(la LegalAction) int {
		if *la.Ends == at {
			return 1
		}
		return 0
	}
	slices.SortStableFunc(out, func(a, b LegalAction) int { return cmp.Compare(stays(a), stays(b)) })
	return out
}

// keeperMoves lists the complete moves that play at least one ± keeper: the results the dice alone do
// not reach. Their steps and descriptions are written only when asked (spell), since a position with
// keepers and doubles can have thousands.
func keeperMoves(s *State) []LegalAction {
	if s.Phase != PhaseMove {
		return nil
	}
	g, plans := completeMoves(s, true)
	plans = slices.DeleteFunc(plans, func(p movePlan) bool { return p.keepersPlayed == 0 })
	return g.entries(plans)
}

// generated is where a listed move came from, to write its steps when they are needed.
type generated struct {
	g    *moveGen
	plan movePlan
}

// entries turns plans into legal move entries, twice when both pawns earn the Prime Card (PC-13).
// They share the plans' memory: thousands of small allocations would cost more than the search.
func (g *moveGen) entries(plans []movePlan) []LegalAction {
	canDraw := g.s.Options.PrimeCards && len(g.s.Deck)+len(g.s.Discard) > 0
	out := make([]LegalAction, 0, len(plans)+len(plans)/8)
	gens := make([]generated, len(plans))
	for i := range plans {
		p := &plans[i]
		gens[i] = generated{g: g, plan: *p}
		var earners []int
		if !p.win && g.s.Options.PrimeCards {
			earners = drawEarners(p.end, g.s.Turn.StartPawns)
		}
		la := LegalAction{Type: ActMove, Action: Action{Type: ActMove}, Ends: &p.end, Unused: p.unused,
			Draws: len(earners) > 0, Wins: p.win, gen: &gens[i]}
		if len(earners) == 2 && canDraw {
			for _, pawn := range earners {
				v := la
				v.Action.DrawPawn = ptr(pawn)
				out = append(out, v)
			}
			continue
		}
		out = append(out, la)
	}
	return out
}

// spell writes a generated move's steps and description.
func (la *LegalAction) spell() {
	if la.gen == nil || la.Action.Steps != nil {
		return
	}
	g, p := la.gen.g, la.gen.plan
	la.Action.Steps = g.stepsOf(p)
	if la.Action.Steps == nil {
		la.Action.Steps = []Step{}
	}
	text := appendStepsText(g.text[:0], g.s, la.Action.Steps)
	end := *la.Ends
	switch {
	case la.Wins:
		text = append(text, " — you win!"...)
	case la.Action.DrawPawn != nil:
		text = appendPawnOn(append(text, "; pawn "...), *la.Action.DrawPawn, end)
		text = append(text, ") takes the Prime Card"...)
	case la.Draws:
		text = appendPawnOn(append(text, "; pawn "...), drawEarners(end, g.s.Turn.StartPawns)[0], end)
		text = append(text, ") draws a Prime Card"...)
	}
	la.Description = string(text)
	g.text = text
}

// appendPawnOn appends "1 (on 37" for pawn 1 ending on 37.
func appendPawnOn(b []byte, pawn int, end [2]int) []byte {
	b = append(strconv.AppendInt(b, int64(pawn), 10), " (on "...)
	return strconv.AppendInt(b, int64(end[pawn]), 10)
}

// played marks on n, the position after the move, the pawns that moved and the keepers played.
func (gen *generated) played(n *State) {
	p := gen.plan
	for pawn := range 2 {
		if p.uses[pawn]|p.keepers[pawn] != 0 {
			n.Turn.Moved[pawn] = true
		}
		for i, k := range gen.g.keepers {
			if p.keepers[pawn]&(1<<i) != 0 {
				n.discardKeeper(PlusMinus(k))
			}
		}
	}
	if p.last >= 0 {
		n.Turn.LastMoved = p.last
	}
}
