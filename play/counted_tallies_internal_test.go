package play

import (
	"reflect"
	"testing"

	"primegames/domain"
)

// A kept tally is found only for the bytes it was kept with, as a copy its finder may change, and
// is let go when its game is over.
func TestCountedTalliesHandOutCopiesOfTheKeptBytesOnly(t *testing.T) {
	t.Parallel()
	tallies := newCountedTallies()
	kept := []byte(`{"counts":{"0":{"op_add":2}},"resigned":[1]}`)
	tallies.keep("g", true, kept, &GameTally{Counts: domain.Counts{0: {"op_add": 2}}, Resigned: []int{1}})

	if got := tallies.find("g", []byte(`{"counts":{}}`)); got != nil {
		t.Fatalf("found %+v for other bytes, want none", got)
	}
	if got := tallies.find("other", kept); got != nil {
		t.Fatalf("found %+v for another game, want none", got)
	}
	found := tallies.find("g", kept)
	want := &GameTally{Counts: domain.Counts{0: {"op_add": 2}}, Resigned: []int{1}}
	if !reflect.DeepEqual(found, want) {
		t.Fatalf("found %+v, want %+v", found, want)
	}
	found.Counts.Add(0, "op_add", 5)
	found.Counts.Add(1, "op_divide", 1)
	found.Resigned[0] = 7
	if again := tallies.find("g", kept); !reflect.DeepEqual(again, want) {
		t.Fatalf("after the finder changed its copy, found %+v, want %+v", again, want)
	}

	tallies.keep("g", false, kept, want)
	if got := tallies.find("g", kept); got != nil {
		t.Fatalf("found %+v for a game over, want none", got)
	}
}
