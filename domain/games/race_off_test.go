//go:build !race

package games_test

const raceDetector = false
