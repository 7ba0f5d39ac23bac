//go:build long

package primeclimb

import "testing"

// The property tests over thousands of random games.
func TestLongPropertyRandomGames(t *testing.T) { propertyRandomGames(t, 2000) }

// The review against the brute force over many more random positions (see review_complete_test.go).
func TestLongReviewIsCompleteAgainstBruteForce(t *testing.T) {
	reviewAgainstBruteForce(t, 2026, 400)
}
