package primed

import (
	"math/rand/v2"
)

// Rollouts estimate, in single-card games, the hand total a seat ends the round with after an
// action: the cards it has not seen are dealt at random into the other hands (at their known sizes)
// and the draw pile, and the round is played out with every seat playing its highest playable card.
// Every action is tried on the same deals, so their difference is measured with little noise.
const (
	rollouts = 96
	// rolloutTurns bounds one playout; a round of two greedy players takes a few dozen turns.
	rolloutTurns = 400
)

// world is one deal of the hidden cards consistent with a position.
type world struct {
	hands   []cardCounts
	sizes   []int
	totals  []int
	draw    []int // top first
	pile    []int // the Primed pile, bottom first; the last card is the top
	target  string
	maxCard int
}

// deal fills w with one random deal of the position's hidden cards.
func (p *position) deal(w *world, rng *rand.Rand, pool []int) {
	rng.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	w.hands = w.hands[:0]
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
		w.sizes = append(w.sizes, h.size())
		w.totals = append(w.totals, total)
	}
	w.draw = append(w.draw[:0], pool[at:]...)
	w.pile = append(w.pile[:0], p.pile...)
	w.target, w.maxCard = p.opts.Target, p.opts.MaxCard()
}

func (h *cardCounts) size() int {
	n := 0
	for _, k := range h {
		n += k
	}
	return n
}

func (w *world) top() int { return w.pile[len(w.pile)-1] }

func (w *world) shed(seat, c int) {
	w.hands[seat][c]--
	w.sizes[seat]--
	w.totals[seat] -= c
	w.pile = append(w.pile, c)
}

// highest is seat's highest card that hits the target on the top, or 0.
func (w *world) highest(seat int) int {
	top := w.top()
	for c := w.maxCard; c >= 1; c-- {
		if w.hands[seat][c] > 0 && hits(w.target, top+c) {
			return c
		}
	}
	return 0
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
	c := w.draw[0]
	w.draw = w.draw[1:]
	return c
}

// playOut plays the round on from seat's turn, every seat playing its highest playable card and
// playing a playable drawn card, and returns the hand total of me at the end (PR-5, PR-6, PR-7).
func (w *world) playOut(seat, me int, rng *rand.Rand) int {
	seats := len(w.hands)
	passes := 0
	for range rolloutTurns {
		if c := w.highest(seat); c != 0 {
			w.shed(seat, c)
			passes = 0
			if w.sizes[seat] == 0 {
				return w.totals[me]
			}
		} else if c := w.drawCard(rng); c == 0 {
			if passes++; passes >= seats {
				return w.totals[me]
			}
		} else {
			passes = 0
			if hits(w.target, w.top()+c) {
				w.pile = append(w.pile, c)
			} else {
				w.hands[seat][c]++
				w.sizes[seat]++
				w.totals[seat] += c
			}
		}
		seat = (seat + 1) % seats
	}
	return w.totals[me]
}

// rolloutValues is the mean hand total the seat ends the round with after each of actions.
func (p *position) rolloutValues(actions []Action) []float64 {
	values := make([]float64, len(actions))
	var unseen []int
	for v, n := range p.unseen {
		for range n {
			unseen = append(unseen, v)
		}
	}
	pool := make([]int, len(unseen))
	deals := rand.New(rand.NewPCG(7, 7))
	var w world
	for range rollouts {
		seed := deals.Uint64()
		for i, a := range actions {
			rng := rand.New(rand.NewPCG(seed, 1))
			copy(pool, unseen)
			p.deal(&w, rng, pool)
			values[i] += float64(w.after(p, a, rng))
		}
	}
	for i := range values {
		values[i] /= rollouts
	}
	return values
}

// after applies a, the seat's action, to the world and plays the round out.
func (w *world) after(p *position, a Action, rng *rand.Rand) int {
	me, next := p.seat, (p.seat+1)%p.seats
	switch a.Type {
	case ActionPlay:
		for _, c := range a.Cards {
			w.shed(me, c)
		}
		if w.sizes[me] == 0 {
			return 0
		}
	case ActionDraw:
		if c := w.drawCard(rng); c != 0 {
			if hits(w.target, w.top()+c) {
				w.pile = append(w.pile, c)
			} else {
				w.hands[me][c]++
				w.sizes[me]++
				w.totals[me] += c
			}
		}
	}
	return w.playOut(next, me, rng)
}
