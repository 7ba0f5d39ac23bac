package primed

// sumWords is the size of a sumSet. The largest sum any play can reach is the whole Primed deck,
// 4 × (1 + … + 17) = 612, so 640 bits are enough for every hand, however large.
const sumWords = 10

// sumSet is a bitset of sums: bit s is set when s can be reached. Adding a card that may be used or
// left out shifts the set by the card's value and ORs it in, so the sums reachable by subsets of a
// hand cost one pass per card instead of one per subset.
type sumSet [sumWords]uint64

func singleton(s int) sumSet {
	var set sumSet
	set.add(s)
	return set
}

func (s *sumSet) add(n int) { s[n/64] |= 1 << uint(n%64) }

// shifted returns the set with every sum increased by k.
func (s sumSet) shifted(k int) sumSet {
	var out sumSet
	w, b := k/64, uint(k%64)
	for i := sumWords - 1; i >= w; i-- {
		v := s[i-w] << b
		if b != 0 && i-w-1 >= 0 {
			v |= s[i-w-1] >> (64 - b)
		}
		out[i] = v
	}
	return out
}

func (s sumSet) intersects(t sumSet) bool {
	for i := range s {
		if s[i]&t[i] != 0 {
			return true
		}
	}
	return false
}

// subsetSums is the set of sums of sub-multisets of cards, the empty one (0) included. Only the words
// that can hold a sum reached so far are touched.
func subsetSums(cards []int) sumSet {
	set := singleton(0)
	reach := 0
	for _, c := range cards {
		reach = min(reach+c, sumWords*64-1)
		w, b := c/64, uint(c%64)
		for i := reach / 64; i >= w; i-- {
			v := set[i-w] << b
			if b != 0 && i > w {
				v |= set[i-w-1] >> (64 - b)
			}
			set[i] |= v
		}
	}
	return set
}

// targetSums[target][top] holds the positive sums s such that top + s meets the target (PR-4).
var targetSums = func() map[string][]sumSet {
	m := map[string][]sumSet{}
	for _, target := range []string{TargetPrimes, TargetComposites} {
		tops := make([]sumSet, 18)
		for top := range tops {
			for s := 1; s < sumWords*64; s++ {
				if hits(target, top+s) {
					tops[top].add(s)
				}
			}
		}
		m[target] = tops
	}
	return m
}()

func (s sumSet) has(n int) bool { return n >= 0 && n < sumWords*64 && s[n/64]&(1<<uint(n%64)) != 0 }

func orSets(a, b sumSet) sumSet {
	for i := range a {
		a[i] |= b[i]
	}
	return a
}
