package main

import (
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strings"
	"time"
)

// Request kinds, each with its own latency distribution.
const (
	kindCreate = "POST /v1/games"
	kindAction = "POST /v1/games/{id}/actions"
	kindGame   = "GET /v1/games/{id}"
	kindLegal  = "GET /v1/games/{id}/legal-actions"
)

// maxSamples is how many failed requests are kept word for word to show at the end.
const maxSamples = 5

// stats is what one worker measured; workers keep their own and merge them at the end, so
// nothing is shared while the load runs.
type stats struct {
	latencies map[string][]time.Duration // by request kind, every attempt that got a response
	errors    map[string]int             // "POST /v1/games/{id}/actions 409 not_your_turn" -> count
	samples   []string                   // a few failed requests and their responses, verbatim
	oddities  []string                   // things that are not HTTP errors but should not happen

	gamesStarted, gamesFinished, gamesAbandoned int
	actionsPosted                               int // accepted (201) actions
	throttled                                   int // requests refused with 429 and sent again
	actionsByGame                               map[string][]int
}

func newStats() *stats {
	return &stats{
		latencies:     map[string][]time.Duration{},
		errors:        map[string]int{},
		actionsByGame: map[string][]int{},
	}
}

func (s *stats) observe(kind string, d time.Duration) {
	s.latencies[kind] = append(s.latencies[kind], d)
}

// fail counts a failed request under its kind, status and problem code and keeps the first few verbatim.
func (s *stats) fail(kind, key, sample string) {
	s.errors[kind+" "+key]++
	if len(s.samples) < maxSamples {
		s.samples = append(s.samples, sample)
	}
}

func (s *stats) odd(format string, args ...any) {
	if len(s.oddities) < 20 {
		s.oddities = append(s.oddities, fmt.Sprintf(format, args...))
	}
}

func (s *stats) merge(o *stats) {
	for k, v := range o.latencies {
		s.latencies[k] = append(s.latencies[k], v...)
	}
	for k, v := range o.errors {
		s.errors[k] += v
	}
	for k, v := range o.actionsByGame {
		s.actionsByGame[k] = append(s.actionsByGame[k], v...)
	}
	s.samples = append(s.samples, o.samples...)
	s.oddities = append(s.oddities, o.oddities...)
	s.gamesStarted += o.gamesStarted
	s.gamesFinished += o.gamesFinished
	s.gamesAbandoned += o.gamesAbandoned
	s.actionsPosted += o.actionsPosted
	s.throttled += o.throttled
}

func (s *stats) report(w io.Writer, wall time.Duration) {
	fmt.Fprintf(w, "games finished   %d of %d started (%d abandoned)\n", s.gamesFinished, s.gamesStarted, s.gamesAbandoned)
	for _, kind := range sortedKeys(s.actionsByGame) {
		n := s.actionsByGame[kind]
		slices.Sort(n)
		fmt.Fprintf(w, "  %-12s %d games, actions per game min %d / median %d / max %d\n", kind, len(n), n[0], n[len(n)/2], n[len(n)-1])
	}
	fmt.Fprintf(w, "actions posted   %d accepted\n", s.actionsPosted)
	fmt.Fprintf(w, "wall time        %s\n", wall.Round(time.Millisecond))
	fmt.Fprintf(w, "actions/s        %.1f\n", float64(s.actionsPosted)/wall.Seconds())
	requests := 0
	for _, v := range s.latencies {
		requests += len(v)
	}
	fmt.Fprintf(w, "requests/s       %.1f (%d requests)\n", float64(requests)/wall.Seconds(), requests)
	if s.throttled > 0 {
		fmt.Fprintf(w, "throttled        %d requests refused with 429 and sent again after Retry-After (RATE_LIMIT=0 on the server turns the limit off)\n", s.throttled)
	}

	fmt.Fprintf(w, "\nlatency (ms)                          count      p50      p90      p99      max\n")
	var gets []time.Duration
	for _, kind := range []string{kindAction, kindCreate, kindGame, kindLegal} {
		printLatency(w, kind, s.latencies[kind])
		if strings.HasPrefix(kind, "GET") {
			gets = append(gets, s.latencies[kind]...)
		}
	}
	printLatency(w, "all GETs", gets)

	fmt.Fprintf(w, "\nerrors (non-2xx and transport failures)\n")
	if len(s.errors) == 0 {
		fmt.Fprintf(w, "  none\n")
	}
	for _, k := range sortedKeys(s.errors) {
		fmt.Fprintf(w, "  %6d  %s\n", s.errors[k], k)
	}
	for _, sample := range s.samples {
		fmt.Fprintf(w, "\n%s\n", sample)
	}
	if len(s.oddities) > 0 {
		fmt.Fprintf(w, "\noddities\n")
		for _, o := range s.oddities {
			fmt.Fprintf(w, "  %s\n", o)
		}
	}
}

// errorCount is the number of failed requests of every kind.
func (s *stats) errorCount() int {
	n := 0
	for _, v := range s.errors {
		n += v
	}
	return n
}

// percentileOf sorts d and returns its percentile p; 0 for no durations.
func percentileOf(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	slices.Sort(d)
	return percentile(d, p)
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func printLatency(w io.Writer, name string, d []time.Duration) {
	if len(d) == 0 {
		fmt.Fprintf(w, "  %-34s %6d\n", name, 0)
		return
	}
	slices.Sort(d)
	fmt.Fprintf(w, "  %-34s %6d %8.2f %8.2f %8.2f %8.2f\n", name, len(d),
		ms(percentile(d, 50)), ms(percentile(d, 90)), ms(percentile(d, 99)), ms(d[len(d)-1]))
}

// percentile returns the nearest-rank percentile p (0..100] of sorted durations.
func percentile(sorted []time.Duration, p float64) time.Duration {
	rank := int(math.Ceil(p / 100 * float64(len(sorted))))
	rank = max(1, min(rank, len(sorted)))
	return sorted[rank-1]
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
