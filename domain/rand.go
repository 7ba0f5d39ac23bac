package domain

import (
	"fmt"
	"math/rand/v2"
)

// Rand is the only source of chance an engine sees. Engines never reach for a global random source, so
// the same inputs always give the same game.
type Rand interface {
	// IntN returns an integer in [0, n). n is always > 0.
	IntN(n int) int
}

// SeededRand returns a deterministic source for one step of one game: the game's secret seed and the
// sequence number of the action select an independent PCG stream.
func SeededRand(seed uint64, seq int64) Rand {
	return rand.New(rand.NewPCG(seed, uint64(seq)))
}

// Recorder wraps a source and remembers every value it handed out, so that the values can be stored
// in the history and fed back by a Tape on replay (G-1, G-2).
type Recorder struct {
	src    Rand
	Values []int
}

// NewRecorder starts recording the values drawn from src.
func NewRecorder(src Rand) *Recorder { return &Recorder{src: src} }

func (r *Recorder) IntN(n int) int {
	v := r.src.IntN(n)
	r.Values = append(r.Values, v)
	return v
}

// Tape replays recorded values in order. A replay that asks for more values than were recorded, or for
// a value outside the range asked, means the history does not belong to these rules; Tape then panics
// with a *TapeError, which Fold turns into an error.
type Tape struct {
	values []int
	next   int
}

// NewTape replays values.
func NewTape(values []int) *Tape { return &Tape{values: values} }

// TapeError is raised when a recorded history does not fit the rules replaying it.
type TapeError struct{ Reason string }

func (e *TapeError) Error() string { return "replay: " + e.Reason }

func (t *Tape) IntN(n int) int {
	if t.next >= len(t.values) {
		panic(&TapeError{Reason: fmt.Sprintf("the history recorded %d random values, the rules asked for more", len(t.values))})
	}
	v := t.values[t.next]
	t.next++
	if v < 0 || v >= n {
		panic(&TapeError{Reason: fmt.Sprintf("recorded value %d is outside 0..%d", v, n-1)})
	}
	return v
}

// Remaining reports how many recorded values were not used.
func (t *Tape) Remaining() int { return len(t.values) - t.next }

// Shuffle permutes items in place with the Fisher–Yates method, drawing from r.
func Shuffle[T any](r Rand, items []T) {
	for i := len(items) - 1; i > 0; i-- {
		j := r.IntN(i + 1)
		items[i], items[j] = items[j], items[i]
	}
}
