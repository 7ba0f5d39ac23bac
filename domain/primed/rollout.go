package primed

import (
	"math/bits"
	"math/rand/v2"
	"slices"
)

// Rollouts estimate the hand total a seat ends the round with after an action: the cards it has not
// seen are dealt at random into the other hands (at their known sizes) and the draw pile, and the
// round is played out with every seat greedy: its highest playable card, or with multi_card the
// play that sheds the most points. Every action is tried on the same deals, with the same draws
// after it, so the differences between actions are measured with little noise.
const (
	rollouts = 64
	// rolloutTurns bounds one playout; a round of two greedy players takes a few dozen turns.
	rolloutTurns = 400
)

// world is one deal of the hidden cards consistent with a position.
type world struct {
	hands   []cardCounts
	held    []uint32 // bit c set: the hand holds a card of value c
	sizes   []int
	totals  []int
	draw    []int                // top last
	pile    []int                // the Primed pile, bottom first; the last card is the top
	hit     *[sumWords * 64]bool // hit[s]: the sum s meets the target (PR-4)
	fits    *[18]uint32          // bit c of fits[top]: a card c on top meets the target
	maxCard int
	multi   bool
	play    []int // scratch for the play being made
}

// deal fills w with one random deal of the position's hidden cards.
func (p *position) deal(w *world, rng *rand.Rand, pool []int) {
	rng.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	w.hands = w.hands[:0]
	w.held = w.held[:0]
	w.sizes = w.sizes[:0]
	w.totals = w.totals[:0]
	at := 0
	for seat := range p.seats {
		var h cardCounts
		total := 0
		if seat == p.seat {
			h = countCards(p.hand)
			total = sum(p.hand)
		} else {
			for _, c := range pool[at : at+p.sizes[seat]] {
				h[c]++
				total += c
			}
			at += p.sizes[seat]
		}
		w.hands = append(w.hands, h)
		w.held = append(w.held, h.held())
		w.sizes = append(w.sizes, h.size())
		w.totals = append(w.totals, total)
	}
	w.draw = append(w.draw[:0], pool[at:]...)
	w.pile = append(w.pile[:0], p.pile...)
	w.hit, w.fits, w.maxCard, w.multi = hitTables[p.opts.Target], fitTables[p.opts.Target], p.opts.MaxCard(), p.opts.MultiCard
}

// copyFrom makes w the same world as src, reusing w's memory.
func (w *world) copyFrom(src *world) {
	w.hands = append(w.hands[:0], src.hands...)
	w.held = append(w.held[:0], src.held...)
	w.sizes = append(w.sizes[:0], src.sizes...)
	w.totals = append(w.totals[:0], src.totals...)
	// Room for the whole deck, so that neither pile grows while the round is played out.
	if deck := 4 * src.maxCard; cap(w.pile) < deck {
		w.draw, w.pile = make([]int, 0, deck), make([]int, 0, deck)
	}
	w.draw = append(w.draw[:0], src.draw...)
	w.pile = append(w.pile[:0], src.pile...)
	w.hit, w.fits, w.maxCard, w.multi = src.hit, src.fits, src.maxCard, src.multi
}

// hitTables[target] tells for every sum a play can make whether it meets the target (PR-4).
var hitTables = func() map[string]*[sumWords * 64]bool {
	m := map[string]*[sumWords * 64]bool{}
	for _, target := range []string{TargetPrimes, TargetComposites} {
		var table [sumWords * 64]bool
		for s := range table {
			table[s] = hits(target, s)
		}
		m[target] = &table
	}
	return m
}()

// fitTables[target][top] has bit c set when a card c on top meets the target (PR-4).
var fitTables = func() map[string]*[18]uint32 {
	m := map[string]*[18]uint32{}
	for _, target := range []string{TargetPrimes, TargetComposites} {
		var table [18]uint32
		for top := range table {
			for c := 1; c < 18; c++ {
				if hits(target, top+c) {
					table[top] |= 1 << c
				}
			}
		}
		m[target] = &table
	}
	return m
}()

// held has bit c set for every value c the hand holds.
func (h *cardCounts) held() uint32 {
	var mask uint32
	for c, n := range h {
		if n > 0 {
			mask |= 1 << c
		}
	}
	return mask
}

// cards lists the cards counted, ascending.
func (h *cardCounts) cards() []int {
	var cards []int
	for v, n := range h {
		for range n {
			cards = append(cards, v)
		}
	}
	return cards
}

func (h *cardCounts) size() int {
	n := 0
	for _, k := range h {
		n += k
	}
	return n
}

func (w *world) top() int { return w.pile[len(w.pile)-1] }

func (w *world) hitAt(total int) bool { return total < len(w.hit) && w.hit[total] }

func (w *world) keep(seat, c int) {
	w.hands[seat][c]++
	w.held[seat] |= 1 << c
	w.sizes[seat]++
	w.totals[seat] += c
}

func (w *world) shedAll(seat int, cards []int) {
	for _, c := range cards {
		w.shed(seat, c)
	}
}

func (w *world) shed(seat, c int) {
	if w.hands[seat][c]--; w.hands[seat][c] == 0 {
		w.held[seat] &^= 1 << c
	}
	w.sizes[seat]--
	w.totals[seat] -= c
	w.pile = append(w.pile, c)
}

// bestPlay is the greedy play of seat on the top, the most points it can shed, in ascending order; nil when it has none. When must is not 0 the play includes that card, which the hand
// holds (PR-5).
func (w *world) bestPlay(seat, must int) []int {
	top := w.top()
	w.play = w.play[:0]
	if !w.multi {
		if must != 0 {
			if w.hitAt(top + must) {
				w.play = append(w.play, must)
				return w.play
			}
			return nil
		}
		if fits := w.held[seat] & w.fits[top]; fits != 0 {
			w.play = append(w.play, 31-bits.LeadingZeros32(fits))
			return w.play
		}
		return nil
	}
	h := w.hands[seat]
	if must != 0 {
		h[must]--
	}
	// reach[v] holds the sums made by cards of value at most v.
	var reach [18]sumSet
	reach[0] = singleton(0)
	total := 0
	for v := 1; v <= w.maxCard; v++ {
		reach[v] = reach[v-1]
		for range h[v] {
			reach[v] = orSets(reach[v], reach[v].shifted(v))
		}
		total += v * h[v]
	}
	pick := -1
	for s := total; s >= 0; s-- {
		if reach[w.maxCard].has(s) && (s > 0 || must != 0) && w.hitAt(top+must+s) {
			pick = s
			break
		}
	}
	if pick < 0 {
		return nil
	}
	for v := w.maxCard; v >= 1 && pick > 0; v-- {
		for k := 0; k <= h[v]; k++ {
			if pick-k*v >= 0 && reach[v-1].has(pick-k*v) {
				for range k {
					w.play = append(w.play, v)
				}
				pick -= k * v
				break
			}
		}
	}
	if must != 0 {
		w.play = append(w.play, must)
	}
	slices.Sort(w.play) // as LegalActions lists plays: the highest card becomes the top
	return w.play
}

// drawCard takes the top of the draw pile, refilling it from the Primed pile under its top when it is
// empty (PR-6); 0 when there is nothing to draw.
func (w *world) drawCard(rng *rand.Rand) int {
	if len(w.draw) == 0 && len(w.pile) > 1 {
		under := w.pile[:len(w.pile)-1]
		w.draw = append(w.draw[:0], under...)
		rng.Shuffle(len(w.draw), func(i, j int) { w.draw[i], w.draw[j] = w.draw[j], w.draw[i] })
		w.pile = append(w.pile[:0], w.pile[len(w.pile)-1])
	}
	if len(w.draw) == 0 {
		return 0
	}
	c := w.draw[len(w.draw)-1]
	w.draw = w.draw[:len(w.draw)-1]
	return c
}

// playOut plays the round on from seat's turn, every seat making its greedy play (bestPlay), also
// with a playable drawn card, and returns the hand total of me at the end (PR-5, PR-6, PR-7).
func (w *world) playOut(seat, me int, rng *rand.Rand) float64 {
	seats := len(w.hands)
	passes := 0
	for range rolloutTurns {
		if play := w.bestPlay(seat, 0); play != nil {
			w.shedAll(seat, play)
			passes = 0
			if w.sizes[seat] == 0 {
				return w.outcome(me)
			}
		} else if c := w.drawCard(rng); c == 0 {
			if passes++; passes >= seats {
				return w.outcome(me)
			}
		} else {
			passes = 0
			w.keep(seat, c)
			if play := w.bestPlay(seat, c); play != nil {
				w.shedAll(seat, play)
				if w.sizes[seat] == 0 {
					return w.outcome(me)
				}
			}
		}
		seat = (seat + 1) % seats
	}
	return w.outcome(me)
}

// outcome is what the round's end is worth to me: its hand total (PR-7). Counting the others' points
// against it too (their mean) was tried, from seed 5000: no clear gain in either mode.
func (w *world) outcome(me int) float64 { return float64(w.totals[me]) }

// rolloutValues is the mean hand total the seat ends the round with after each of actions.
func (p *position) rolloutValues(actions []Action) []float64 {
	values := make([]float64, len(actions))
	unseen := p.unseen.cards()
	pool := make([]int, len(unseen))
	deals := rand.New(rand.NewPCG(7, 7))
	src := rand.NewPCG(0, 0)
	rng := rand.New(src)
	var base, w world
	for range rollouts {
		seed := deals.Uint64()
		copy(pool, unseen)
		src.Seed(seed, 0)
		p.deal(&base, rng, pool)
		for i, a := range actions {
			w.copyFrom(&base)
			src.Seed(seed, 1) // the same draws after every action
			values[i] += w.after(p, a, rng)
		}
	}
	for i := range values {
		values[i] /= rollouts
	}
	return values
}

// after applies a, the seat's action, to the world and plays the round out.
func (w *world) after(p *position, a Action, rng *rand.Rand) float64 {
	me, next := p.seat, (p.seat+1)%p.seats
	switch a.Type {
	case ActionPlay:
		w.shedAll(me, a.Cards)
		if w.sizes[me] == 0 {
			return w.outcome(me)
		}
	case ActionDraw:
		if c := w.drawCard(rng); c != 0 {
			w.keep(me, c)
			if play := w.bestPlay(me, c); play != nil {
				w.shedAll(me, play)
				if w.sizes[me] == 0 {
					return w.outcome(me)
				}
			}
		}
	}
	return w.playOut(next, me, rng)
}
