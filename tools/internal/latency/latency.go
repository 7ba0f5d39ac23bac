// Package latency summarises the times the measurement tools take.
package latency

import (
	"slices"
	"time"
)

// Summary is the median, the 99th percentile and the largest of some times.
type Summary struct {
	N             int
	P50, P99, Max time.Duration
}

// Summarise sorts times and summarises them; the zero Summary for none.
func Summarise(times []time.Duration) Summary {
	if len(times) == 0 {
		return Summary{}
	}
	slices.Sort(times)
	at := func(q float64) time.Duration { return times[min(len(times)-1, int(q*float64(len(times))))] }
	return Summary{N: len(times), P50: at(0.5), P99: at(0.99), Max: times[len(times)-1]}
}
