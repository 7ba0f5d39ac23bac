//go:build race

package primed

// raceDetector says the tests run under the race detector, which makes this package's code several
// times slower and finds races only where goroutines share memory: the random-game tests then play
// fewer games, enough to run every code path they reach concurrently.
const raceDetector = true
