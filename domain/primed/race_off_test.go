//go:build !race

package primed

const raceDetector = false
