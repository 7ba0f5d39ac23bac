package play

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"
)

// A tally is written byte for byte as json.Marshal writes it: seats of one digit and of two (whose
// keys encoding/json orders as strings), names that need escaping, missing and empty maps, with
// and without resigned seats.
func TestTallyJSONIsEncodingJSONs(t *testing.T) {
	t.Parallel()
	names := []string{"moves", "primes", "bumps", "cards_drawn", "a", "Z", "with space", `quote"`, `back\slash`,
		"<html>", "a&b", "ünïcode", "tab\t", "", "x\u2028y"}
	rng := rand.New(rand.NewPCG(7, 11))
	cases := []*GameTally{{}, {Counts: map[int]map[string]int{}}, {Counts: map[int]map[string]int{0: nil, 3: {}}}}
	for range 2000 {
		tally := &GameTally{Counts: map[int]map[string]int{}}
		for range rng.IntN(13) {
			seat := rng.IntN(14)
			if tally.Counts[seat] == nil {
				tally.Counts[seat] = map[string]int{}
			}
			tally.Counts[seat][names[rng.IntN(len(names))]] = rng.IntN(2000) - 100
		}
		for range rng.IntN(3) {
			tally.Resigned = append(tally.Resigned, rng.IntN(12))
		}
		if rng.IntN(4) == 0 {
			tally.Resigned = []int{}
		}
		cases = append(cases, tally)
	}
	for _, tally := range cases {
		want, err := json.Marshal(tally)
		if err != nil {
			t.Fatal(err)
		}
		if got := tally.appendJSON(nil); !bytes.Equal(got, want) {
			t.Fatalf("appendJSON wrote\n%s\nencoding/json writes\n%s", got, want)
		}
	}
}
