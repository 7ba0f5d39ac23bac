package primed

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
)

// position is what one seat knows at its turn, read from its view (PR-8): its own hand, the pile,
// how many cards each other seat holds, and therefore which cards it has not seen. The expert's
// evaluation works on it alone; it never sees a State.
type position struct {
	opts    Options
	seat    int
	seats   int
	phase   string
	top     int
	drawn   int
	hand    []int // ascending
	pile    []int // the Primed pile, bottom first
	sizes   []int // cards held by each seat
	unseen  cardCounts
	nUnseen int
	// flex[c] is the share of the cards not seen that card c hits the target on: how likely c is to
	// fit a top to come.
	flex [18]float64
	// stuck[t] is the chance that every other seat in turn fails to answer top t, so the turn comes
	// back to this seat on the same top; outNext[t] the chance that the next seat goes out on t.
	stuck, outNext [18]float64
}

// readPosition decodes view, the acting seat's view as JSON, into the position it shows.
func readPosition(view json.RawMessage) (*position, error) {
	var v View
	if err := json.Unmarshal(view, &v); err != nil {
		return nil, fmt.Errorf("primed view: %w", err)
	}
	if len(v.ToAct) != 1 || v.ToAct[0] < 0 || v.ToAct[0] >= len(v.Hands) {
		return nil, fmt.Errorf("primed view: no seat to act")
	}
	seat := v.ToAct[0]
	if v.Hands[seat].Cards == nil {
		return nil, fmt.Errorf("primed view: the hand of seat %d, the seat to act, is not shown", seat)
	}
	p := &position{opts: v.Options, seat: seat, seats: len(v.Hands), phase: v.Phase, top: v.Top, drawn: v.DrawnCard,
		hand: slices.Sorted(slices.Values(v.Hands[seat].Cards)), sizes: make([]int, len(v.Hands)), pile: v.PrimedPile}
	for i, h := range v.Hands {
		p.sizes[i] = h.Size
	}
	p.unseen = countCards(v.Options.NewDeck())
	for _, seen := range [][]int{p.hand, v.PrimedPile} {
		for _, c := range seen {
			if c >= 1 && c < len(p.unseen) && p.unseen[c] > 0 {
				p.unseen[c]--
			}
		}
	}
	p.nUnseen = p.unseen.size()
	hidden := 0
	for i, n := range p.sizes {
		if i != seat {
			hidden += n
		}
	}
	if hidden+v.DrawPileSize != p.nUnseen {
		return nil, fmt.Errorf("primed view: %d cards are hidden in other hands and %d in the draw pile, but %d are not in sight", hidden, v.DrawPileSize, p.nUnseen)
	}
	p.measure()
	return p, nil
}

// measure fills flex, stuck and outNext from the cards not seen.
func (p *position) measure() {
	target, maxCard := p.opts.Target, p.opts.MaxCard()
	pool := p.unseen
	if p.nUnseen == 0 {
		pool = countCards(p.opts.NewDeck())
	}
	poolSize := 0
	for _, n := range pool {
		poolSize += n
	}
	for c := 1; c <= maxCard; c++ {
		fits := 0
		for v := 1; v <= maxCard; v++ {
			if hits(target, v+c) {
				fits += pool[v]
			}
		}
		p.flex[c] = float64(fits) / float64(poolSize)
	}
	var sampler *handSampler
	if p.opts.MultiCard {
		sampler = newHandSampler(p.unseen)
	}
	for t := 1; t <= maxCard; t++ {
		hitting := 0
		for v := 1; v <= maxCard; v++ {
			if hits(target, t+v) {
				hitting += p.unseen[v]
			}
		}
		drawMiss := 1.0
		if p.nUnseen > 0 {
			drawMiss = 1 - float64(hitting)/float64(p.nUnseen)
		}
		stuck := 1.0
		for k := 1; k < p.seats; k++ {
			other := (p.seat + k) % p.seats
			var noPlay, out float64
			if sampler != nil {
				noPlay, out = sampler.chances(p.sizes[other], t, target)
			} else {
				noPlay = noneHit(p.nUnseen, hitting, p.sizes[other])
				if p.sizes[other] == 1 {
					out = 1 - noPlay
				}
			}
			if k == 1 {
				p.outNext[t] = out
			}
			stuck *= noPlay * drawMiss
		}
		p.stuck[t] = stuck
	}
}

// noneHit is the chance that a hand of k cards dealt from n cards, of which hitting fit, holds none
// that fits (hypergeometric).
func noneHit(n, hitting, k int) float64 {
	chance := 1.0
	for i := range k {
		if n-i <= 0 {
			return chance
		}
		chance *= float64(n-hitting-i) / float64(n-i)
		if chance <= 0 {
			return 0
		}
	}
	return chance
}

// handSampler estimates, in multi-card games, the chances for a hand of the cards not seen: that it
// has no play on a top, and that it can be played out whole. It deals a fixed number of hands from a
// fixed seed, so the same position always gives the same estimate.
type handSampler struct {
	pool []int
	rng  *rand.Rand
}

// samples is how many hands the estimate deals; sampledUpTo is the largest hand it deals, since a
// larger hand of the multi-card game practically always has a play and cannot go out in one turn.
const (
	samples     = 48
	sampledUpTo = 6
)

func newHandSampler(unseen cardCounts) *handSampler {
	return &handSampler{pool: unseen.cards(), rng: rand.New(rand.NewPCG(13, 13))}
}

func (s *handSampler) chances(k, top int, target string) (noPlay, out float64) {
	if k > sampledUpTo || k > len(s.pool) || k == 0 {
		return 0, 0
	}
	wanted := targetSums[target][top]
	none, whole := 0, 0
	hand := make([]int, k)
	for range samples {
		// A partial Fisher–Yates shuffle deals k distinct cards.
		for i := range k {
			j := i + s.rng.IntN(len(s.pool)-i)
			s.pool[i], s.pool[j] = s.pool[j], s.pool[i]
			hand[i] = s.pool[i]
		}
		if !subsetSums(hand).intersects(wanted) {
			none++
		} else if hits(target, top+sum(hand)) {
			whole++
		}
	}
	return float64(none) / samples, float64(whole) / samples
}

// Weights of the quick estimate (position.value), set by hand. The expert uses the estimate only to
// shortlist multi-card plays for rollouts, and to say in an explanation that a top is hard to answer.
const (
	// keepDiscount is how much of a card's points a perfectly flexible card is expected to shed
	// later in the round.
	keepDiscount = 0.6
	// againWeight scales the points the seat sheds when the turn comes back to it on its own top.
	againWeight = 1.0
)

// value is the expected hand total at the end of the round if the seat ends its turn holding hand
// with top on the pile: lower is better. If the next seat goes out on top, the seat scores its hand
// as it is (PR-7); otherwise each card is expected to be shed by how many tops it fits, and when no
// other seat can answer top the seat plays on it again at once.
func (p *position) value(hand []int, top int) float64 {
	if len(hand) == 0 {
		return 0
	}
	total, kept := 0.0, 0.0
	for _, c := range hand {
		total += float64(c)
		kept += float64(c) * (1 - keepDiscount*p.flex[c])
	}
	again := 0.0
	if top >= 1 && top < len(p.stuck) && p.stuck[top] > 0 {
		again = againWeight * p.stuck[top] * float64(p.bestShed(hand, top))
	}
	out := 0.0
	if top >= 1 && top < len(p.outNext) {
		out = p.outNext[top]
	}
	return out*total + (1-out)*(kept-again)
}

// bestShed is the most points hand can put on top in one legal play (PR-5).
func (p *position) bestShed(hand []int, top int) int {
	if !p.opts.MultiCard {
		for i := len(hand) - 1; i >= 0; i-- {
			if hits(p.opts.Target, top+hand[i]) {
				return hand[i]
			}
		}
		return 0
	}
	reach := subsetSums(hand) // the sums hand can make, 0 included
	wanted := targetSums[p.opts.Target][top]
	for i := sumWords - 1; i >= 0; i-- {
		if both := reach[i] & wanted[i]; both != 0 {
			return i*64 + 63 - bits.LeadingZeros64(both)
		}
	}
	return 0
}

// valueOf values the hand and top an action leaves: a play sheds its cards and its last card becomes
// the top (PR-5); a pass or a draw keeps the top. A draw is valued by the hand it starts from plus the
// average card not seen.
func (p *position) valueOf(a Action) float64 {
	switch a.Type {
	case ActionPlay:
		return p.value(withoutCards(p.hand, a.Cards), a.Cards[len(a.Cards)-1])
	case ActionDraw:
		extra := 0.0
		if p.nUnseen > 0 {
			for v, n := range p.unseen {
				extra += float64(v * n)
			}
			extra /= float64(p.nUnseen)
		}
		return p.value(p.hand, p.top) + extra
	default:
		return p.value(p.hand, p.top)
	}
}

// valuesOf is the expected hand total at the end of the round after each of actions, measured by
// rollouts; actions[:listed] are the legal entries and the rest other plays and orders the expert
// weighs. With multi_card a hand may have hundreds of plays: only the shortlisted ones, those that
// position.value ranks best, and the action at index always (-1 for none) are rolled out; the others
// get +Inf, so they are never chosen.
func (p *position) valuesOf(actions []Action, listed, always int) []float64 {
	if len(actions) == 1 {
		return []float64{p.valueOf(actions[0])}
	}
	if !p.opts.MultiCard {
		return p.rolloutValues(actions)
	}
	short := p.shortlist(actions, listed)
	if always >= 0 && !slices.Contains(short, always) {
		short = append(short, always)
	}
	tried := make([]Action, len(short))
	for k, i := range short {
		tried[k] = actions[i]
	}
	measured := p.rolloutValues(tried)
	values := make([]float64, len(actions))
	for i := range values {
		values[i] = math.Inf(1)
	}
	for k, i := range short {
		values[i] = measured[k]
	}
	return values
}

// shortlisted is how many multi-card plays each ranking puts on the shortlist.
const shortlisted = 4

// shortlist is the indexes of the actions worth rolling out: the best by position.value, those
// that shed the most points, and the one that sheds the most cards.
func (p *position) shortlist(actions []Action, listed int) []int {
	byValue := make([]int, len(actions))
	quick := make([]float64, len(actions))
	for i, a := range actions {
		byValue[i], quick[i] = i, p.valueOf(a)
	}
	byPoints := slices.Clone(byValue[:listed])
	slices.SortStableFunc(byValue, func(a, b int) int { return cmp.Compare(quick[a], quick[b]) })
	slices.SortStableFunc(byPoints, func(a, b int) int { return cmp.Compare(sum(actions[b].Cards), sum(actions[a].Cards)) })
	short := slices.Clone(byValue[:min(shortlisted, len(byValue))])
	longest := slices.MaxFunc(byPoints, func(a, b int) int { return cmp.Compare(len(actions[a].Cards), len(actions[b].Cards)) })
	for _, i := range append(byPoints[:min(shortlisted, len(byPoints))], longest) {
		if !slices.Contains(short, i) {
			short = append(short, i)
		}
	}
	return short
}
