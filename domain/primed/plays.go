package primed

import (
	"cmp"
	"slices"
)

// HasPlay reports whether hand holds a legal play on top (PR-5). When must is not 0 the play has to
// include a card of that value (the card just drawn); hand then includes that card. In multi-card mode
// this is a subset-sum test over a bitset of reachable sums, so it costs one pass per card however
// large the hand.
func HasPlay(hand []int, top int, target string, multi bool, must int) bool {
	if !multi {
		if must != 0 {
			return hits(target, top+must)
		}
		for _, c := range hand {
			if hits(target, top+c) {
				return true
			}
		}
		return false
	}
	wanted := targetSums[target][top]
	if must == 0 {
		return subsetSums(hand).intersects(wanted)
	}
	rest := withoutCards(hand, []int{must})
	return subsetSums(rest).shifted(must).intersects(wanted)
}

// Plays lists the legal plays of at most maxCards cards (PR-5), each as a multiset in ascending order
// and each once, shortest first. When must is not 0 every play includes a card of that value.
func Plays(hand []int, top int, target string, must, maxCards int) [][]int {
	counts := countCards(hand)
	prefix := []int{}
	if must != 0 {
		counts[must]--
		prefix = []int{must}
		maxCards--
	}
	var plays [][]int
	var walk func(from, left int, cur []int)
	walk = func(from, left int, cur []int) {
		if len(prefix)+len(cur) > 0 && hits(target, top+sum(prefix)+sum(cur)) {
			play := append(cloneInts(prefix), cur...)
			slices.Sort(play)
			plays = append(plays, play)
		}
		if left == 0 {
			return
		}
		for v := from; v < len(counts); v++ {
			if counts[v] == 0 {
				continue
			}
			counts[v]--
			walk(v, left-1, append(cur, v))
			counts[v]++
		}
	}
	walk(1, maxCards, nil)
	slices.SortFunc(plays, func(a, b []int) int {
		return cmp.Or(cmp.Compare(len(a), len(b)), slices.Compare(a, b))
	})
	return plays
}

// LongestPlay returns a legal play using as many cards as possible, in ascending order, or nil when
// there is none. When must is not 0 the play includes a card of that value. It is a bounded knapsack
// over card values: best[s] is the most cards that add up to s.
func LongestPlay(hand []int, top int, target string, must int) []int {
	counts := countCards(hand)
	if must != 0 {
		counts[must]--
	}
	maxSum := 0
	for v, n := range counts {
		maxSum += v * n
	}
	best := make([]int, maxSum+1)
	next := make([]int, maxSum+1)
	for s := range best {
		best[s] = -1
	}
	best[0] = 0
	var choice [len(counts)][]uint8
	flat := make([]uint8, len(counts)*(maxSum+1))
	for v := 1; v < len(counts); v++ {
		if counts[v] == 0 {
			continue
		}
		choice[v] = flat[v*(maxSum+1) : (v+1)*(maxSum+1)]
		for s := range next {
			next[s] = -1
			for k := 0; k <= counts[v] && k*v <= s; k++ {
				if b := best[s-k*v]; b >= 0 && b+k > next[s] {
					next[s] = b + k
					choice[v][s] = uint8(k)
				}
			}
		}
		best, next = next, best
	}
	pick := -1
	for s, n := range best {
		if n < 0 || (must == 0 && s == 0) || !hits(target, top+must+s) {
			continue
		}
		if pick < 0 || n > best[pick] {
			pick = s
		}
	}
	if pick < 0 {
		return nil
	}
	var play []int
	if must != 0 {
		play = append(play, must)
	}
	for v, s := len(counts)-1, pick; v >= 1; v-- {
		if choice[v] == nil {
			continue
		}
		k := int(choice[v][s])
		for range k {
			play = append(play, v)
		}
		s -= k * v
	}
	slices.Sort(play)
	return play
}
