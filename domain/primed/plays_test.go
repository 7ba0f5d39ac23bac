package primed

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// bruteForce lists every distinct non-empty sub-multiset of hand (ascending) that hits the target on
// top and includes must when must is not 0.
func bruteForce(hand []int, top int, target string, must int) [][]int {
	var plays [][]int
	for mask := 1; mask < 1<<len(hand); mask++ {
		var play []int
		for i, c := range hand {
			if mask&(1<<i) != 0 {
				play = append(play, c)
			}
		}
		if (must == 0 || slices.Contains(play, must)) && hits(target, top+sum(play)) &&
			!slices.ContainsFunc(plays, func(p []int) bool { return slices.Equal(p, play) }) {
			plays = append(plays, play)
		}
	}
	return plays
}

func TestMultiCardLegalityMatchesBruteForce(t *testing.T) {
	pick := rand.New(rand.NewPCG(1, 2))
	for i := range 3000 {
		target := []string{TargetPrimes, TargetComposites}[i%2]
		hand := make([]int, 1+pick.IntN(11))
		for k := range hand {
			hand[k] = 1 + pick.IntN(17)
		}
		slices.Sort(hand)
		top := 1 + pick.IntN(17)
		must := 0
		if i%3 == 0 {
			must = hand[pick.IntN(len(hand))]
		}
		want := bruteForce(hand, top, target, must)
		if got := HasPlay(hand, top, target, true, must); got != (len(want) > 0) {
			t.Fatalf("HasPlay(%v, top %d, %s, must %d) = %v, brute force finds %v", hand, top, target, must, got, want)
		}
		longest := LongestPlay(hand, top, target, must)
		maxLen := 0
		for _, p := range want {
			maxLen = max(maxLen, len(p))
		}
		if len(longest) != maxLen || (longest != nil && !slices.ContainsFunc(want, func(p []int) bool { return slices.Equal(p, longest) })) {
			t.Fatalf("LongestPlay(%v, top %d, %s, must %d) = %v, want %d cards", hand, top, target, must, longest, maxLen)
		}
		var short [][]int
		for _, p := range want {
			if len(p) <= MaxListedCards {
				short = append(short, p)
			}
		}
		got := Plays(hand, top, target, must, MaxListedCards)
		if len(got) != len(short) {
			t.Fatalf("Plays(%v, top %d, %s, must %d) = %v, want %v", hand, top, target, must, got, short)
		}
		for _, p := range got {
			if !slices.ContainsFunc(short, func(q []int) bool { return slices.Equal(p, q) }) {
				t.Fatalf("Plays lists %v, which brute force does not", p)
			}
		}
	}
}

// A hand may have no play of up to three cards but a longer one: LegalActions must still list it.
func TestMultiCardLongPlayOnlyIsListed(t *testing.T) {
	// On 1 with 2s: 1+2=3, 1+2+2=5, 1+2+2+2=7 are prime; with composites the target is the other way.
	// Composites on 1 with 2, 2, 2, 2: 3, 5, 7 prime, 1+8 = 9 composite needs all four.
	s := crafted(t, opts(DeckPrimed, TargetComposites, true, 4), 1, [][]int{{1}, {2, 2, 2, 2}}, []int{1}, nil, fillDraw)
	legal := s.Legal(1)
	if len(legal) != 1 || !legal[0].Longest || !slices.Equal(legal[0].Action.Cards, []int{2, 2, 2, 2}) || legal[0].Total != 9 {
		t.Fatalf("legal %+v", legal)
	}
	refused(t, s, 1, DrawAction(), "play_available")
	apply(t, s, 1, legal[0].Action.JSON(), firstRand{})
}

func TestSumSetShifts(t *testing.T) {
	for _, k := range []int{0, 1, 63, 64, 65, 127, 128, 300} {
		s := singleton(5)
		s.add(70)
		got := s.shifted(k)
		want := singleton(5 + k)
		want.add(70 + k)
		if got != want {
			t.Errorf("shift by %d", k)
		}
	}
}
