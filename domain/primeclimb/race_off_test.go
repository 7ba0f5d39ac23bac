//go:build !race

package primeclimb

const raceDetector = false
