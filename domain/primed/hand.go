package primed

import "slices"

// Cards are identified by their value: copies of a value are indistinguishable, so a hand is kept
// sorted and handled as a multiset.

// cardCounts counts the cards of each value 0..17.
type cardCounts [18]int

func countCards(cards []int) cardCounts {
	var c cardCounts
	for _, v := range cards {
		if v >= 0 && v < len(c) {
			c[v]++
		}
	}
	return c
}

func sum(cards []int) int {
	total := 0
	for _, c := range cards {
		total += c
	}
	return total
}

// cloneInts copies s, never returning nil, so that a state survives a JSON round trip unchanged.
func cloneInts(s []int) []int {
	out := make([]int, len(s))
	copy(out, s)
	return out
}

// withoutCards returns hand less one copy of each of cards, which the caller has checked it holds.
func withoutCards(hand, cards []int) []int {
	remove := countCards(cards)
	out := make([]int, 0, len(hand))
	for _, v := range hand {
		if remove[v] > 0 {
			remove[v]--
			continue
		}
		out = append(out, v)
	}
	return out
}

// withCard returns hand with c added, kept sorted.
func withCard(hand []int, c int) []int {
	out := make([]int, 0, len(hand)+1)
	out = append(out, hand...)
	i, _ := slices.BinarySearch(out, c)
	return slices.Insert(out, i, c)
}
