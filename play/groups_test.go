package play

import (
	"fmt"
	"testing"

	"primegames/domain"
)

func TestSplitIntoGroups(t *testing.T) {
	t.Parallel()
	ids := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprint(i)
		}
		return out
	}
	primed := domain.SeatRange{Min: 2, Max: 6}
	for _, tc := range []struct {
		students, size int
		seats          domain.SeatRange
		want           []int // group sizes; nil means refused
	}{
		{6, 2, primed, []int{2, 2, 2}},
		{7, 2, primed, []int{3, 2, 2}},
		{8, 3, primed, []int{4, 4}},
		{5, 4, primed, []int{5}},
		{1, 2, primed, nil},                           // PR-1: nobody to play with
		{9, 4, domain.SeatRange{Min: 1, Max: 4}, nil}, // PC-1: a group of five would exceed four
		{6, 1, primed, nil},                           // groups of one do not fit Primed
		{3, 1, domain.SeatRange{Min: 1, Max: 4}, []int{1, 1, 1}},
	} {
		groups, err := splitIntoGroups(ids(tc.students), tc.size, tc.seats)
		if tc.want == nil {
			if err == nil {
				t.Errorf("%d students in groups of %d: accepted %v", tc.students, tc.size, groups)
			}
			continue
		}
		if err != nil {
			t.Errorf("%d students in groups of %d: %v", tc.students, tc.size, err)
			continue
		}
		var sizes []int
		seen := map[string]bool{}
		for _, g := range groups {
			sizes = append(sizes, len(g))
			for _, id := range g {
				if seen[id] {
					t.Errorf("student %s is in two groups", id)
				}
				seen[id] = true
			}
		}
		if fmt.Sprint(sizes) != fmt.Sprint(tc.want) || len(seen) != tc.students {
			t.Errorf("%d students in groups of %d: sizes %v, want %v", tc.students, tc.size, sizes, tc.want)
		}
	}
}
