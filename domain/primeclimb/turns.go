package primeclimb

import (
	_ "embed"
	"encoding/binary"
	"math"
	"math/bits"
	"sync"
)

// squareSet is a set of squares 0..101, one bit each.
type squareSet [2]uint64

func (q *squareSet) add(n int)                  { q[n>>6] |= 1 << (n & 63) }
func (q squareSet) has(n int) bool              { return q[n>>6]&(1<<(n&63)) != 0 }
func (q squareSet) union(o squareSet) squareSet { return squareSet{q[0] | o[0], q[1] | o[1]} }

// each calls f for every square in the set, lowest first.
func (q squareSet) each(f func(n int)) {
	for w, word := range q {
		for word != 0 {
			b := bits.TrailingZeros64(word)
			f(w<<6 | b)
			word &= word - 1
		}
	}
}

// reach holds, for every square and die value, where one pawn can go with die uses (PC-5): uses[k][p][d]
// is every square a pawn on p reaches with exactly k uses of d, never stopping on 101 before the last
// use (a home pawn moves no more, PC-7); pair[p][d1][d2] is the same for one use of d1 and one of d2 in
// either order. cursed[p][d] is one use under a Curse (PC-12). attack[c][p][d1][d2] is every square a
// pawn on p can end on with some of a roll of d1 and d2, cursed (c = 1) or not: where it can bump.
type reach struct {
	uses   [5][Home + 1][11]squareSet
	pair   [Home + 1][11][11]squareSet
	cursed [Home + 1][11]squareSet
	attack [2][Home + 1][11][11]squareSet
}

var (
	reachOnce  sync.Once
	reachTable *reach
	turnsOnce  sync.Once
	turnsTable *[Home + 1][Home + 1]float32
)

func reachable() *reach {
	reachOnce.Do(func() { reachTable = buildReach() })
	return reachTable
}

func buildReach() *reach {
	r := &reach{}
	step := func(from squareSet, d int, ops []string) squareSet {
		var to squareSet
		from.each(func(p int) {
			if p == Home {
				return
			}
			for _, op := range ops {
				if n, ok := applyOp(p, op, d); ok {
					to.add(n)
				}
			}
		})
		return to
	}
	all := diceOps(false)
	for p := 0; p <= Home; p++ {
		for d := 1; d <= 10; d++ {
			var at squareSet
			at.add(p)
			r.uses[0][p][d] = at
			for k := 1; k <= 4; k++ {
				r.uses[k][p][d] = step(r.uses[k-1][p][d], d, all)
			}
			r.cursed[p][d] = step(at, d, diceOps(true))
		}
		for d1 := 1; d1 <= 10; d1++ {
			for d2 := 1; d2 <= 10; d2++ {
				r.pair[p][d1][d2] = step(r.uses[1][p][d1], d2, all).union(step(r.uses[1][p][d2], d1, all))
			}
		}
	}
	for p := 0; p < Home; p++ {
		for d1 := 1; d1 <= 10; d1++ {
			for d2 := 1; d2 <= 10; d2++ {
				can := r.uses[1][p][d1].union(r.uses[1][p][d2]).union(r.pair[p][d1][d2])
				if d1 == d2 {
					for k := 2; k <= 4; k++ {
						can = can.union(r.uses[k][p][d1])
					}
				}
				r.attack[0][p][d1][d2] = can
				r.attack[1][p][d1][d2] = r.cursed[p][d1].union(r.cursed[p][d2])
			}
		}
	}
	return r
}

// soloTurns is the expected number of turns a lone player with pawns on a and b needs to bring both
// home, playing each roll as well as possible, without cards and without opponents. It is the
// evaluation's measure of a seat's distance from winning: a pawn on 10 is nearer than one on 40, as
// 10 × 10 = 101 − 1 shows, and the last steps to exactly 101 cost what they cost (PC-5, PC-7).
func soloTurns(a, b int) float64 {
	turnsOnce.Do(func() { turnsTable = decodeTurns(soloTurnsFile) })
	return float64(turnsTable[a][b])
}

// soloTurnsFile is buildTurns' result, 102 × 102 little-endian float32 by row. Solving takes seconds,
// so it is solved once and kept here; `go test ./domain/primeclimb -run TestSoloTurnsTable
// -update-turns` writes it again, and TestSoloTurnsTable checks that it solves the equation.
//
//go:embed solo_turns.bin
var soloTurnsFile []byte

func decodeTurns(raw []byte) *[Home + 1][Home + 1]float32 {
	t := new([Home + 1][Home + 1]float32)
	for a := range t {
		for b := range t[a] {
			t[a][b] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*(a*(Home+1)+b):]))
		}
	}
	return t
}

func encodeTurns(t *[Home + 1][Home + 1]float32) []byte {
	raw := make([]byte, 0, 4*(Home+1)*(Home+1))
	for a := range t {
		for b := range t[a] {
			raw = binary.LittleEndian.AppendUint32(raw, math.Float32bits(t[a][b]))
		}
	}
	return raw
}

// buildTurns solves soloTurns by value iteration over every pair of squares: T(a, b) = 1 + the mean
// over the 100 rolls of the best end the roll reaches, 0 for a roll that wins.
func buildTurns(r *reach) *[Home + 1][Home + 1]float32 {
	t := new([Home + 1][Home + 1]float32)
	for a := range t {
		for b := range t[a] {
			t[a][b] = 8
		}
	}
	t[Home][Home] = 0
	for sweep := 0; sweep < 200; sweep++ {
		worst := float32(0)
		for sum := 2 * Home; sum >= 0; sum-- {
			for a := max(0, sum-Home); a <= sum/2; a++ {
				b := sum - a
				if a == Home && b == Home {
					continue
				}
				total := float32(0)
				for d1 := 1; d1 <= 10; d1++ {
					for d2 := d1; d2 <= 10; d2++ {
						weight := float32(2)
						if d1 == d2 {
							weight = 1
						}
						total += weight * r.bestEnd(t, a, b, d1, d2)
					}
				}
				v := 1 + total/100
				if diff := v - t[a][b]; diff > worst || -diff > worst {
					worst = max(diff, -diff)
				}
				t[a][b], t[b][a] = v, v
			}
		}
		if worst < 1e-5 {
			break
		}
	}
	return t
}

// bestEnd is the lowest T among the ends a roll of d1 and d2 reaches from pawns a and b (a ≤ b), 0
// when the roll can win.
func (r *reach) bestEnd(t *[Home + 1][Home + 1]float32, a, b, d1, d2 int) float32 {
	best := float32(1e9)
	consider := func(xs, ys squareSet) {
		xs.each(func(x int) {
			ys.each(func(y int) {
				v := t[x][y]
				if x == y && x != Start && x != Home { // PC-9: one of the two goes back to 0
					v = t[x][Start]
				}
				best = min(best, v)
			})
		})
	}
	if b == Home {
		a, b = b, a
	}
	if d1 == d2 {
		if a == Home {
			for k := 1; k <= 4; k++ {
				if r.uses[k][b][d1].has(Home) {
					return 0
				}
			}
			consider(r.uses[0][a][d1], r.uses[4][b][d1])
			return best
		}
		for j := 1; j <= 3; j++ {
			for k := 1; j+k <= 4; k++ {
				if r.uses[j][a][d1].has(Home) && r.uses[k][b][d1].has(Home) {
					return 0
				}
			}
		}
		for k := 0; k <= 4; k++ {
			consider(r.uses[k][a][d1], r.uses[4-k][b][d1])
		}
		return best
	}
	one := func(p, d int) squareSet { return r.uses[1][p][d] }
	if a == Home {
		if one(b, d1).has(Home) || one(b, d2).has(Home) || r.pair[b][d1][d2].has(Home) {
			return 0
		}
		consider(r.uses[0][a][d1], r.pair[b][d1][d2])
		return best
	}
	if (one(a, d1).has(Home) && one(b, d2).has(Home)) || (one(a, d2).has(Home) && one(b, d1).has(Home)) {
		return 0
	}
	consider(r.pair[a][d1][d2], r.uses[0][b][d1])
	consider(r.uses[0][a][d1], r.pair[b][d1][d2])
	consider(one(a, d1), one(b, d2))
	consider(one(a, d2), one(b, d1))
	return best
}
