package games_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"primegames/domain/games"
	"primegames/domain/games/gametest"
	"primegames/domain/games/gametest/tinygame"
)

// Every kind of the catalogue, and the test-only tiny game, meets what every kind must (gametest),
// with its default options and the variants its options offer.
func TestEveryKindMeetsTheKit(t *testing.T) {
	gamesPerKind := 36
	if raceDetector {
		gamesPerKind = 9
	}
	variants := map[string][]string{
		"prime-climb": {`{"prime_cards":false}`},
		"primed": {
			`{"deck":"primed","target":"primes","multi_card":true,"rounds":2}`,
			`{"deck":"primed","target":"composites","multi_card":false,"rounds":2}`,
			`{"deck":"standard","target":"primes","multi_card":false,"rounds":2}`,
			`{"deck":"standard","target":"composites","multi_card":true,"rounds":2}`,
		},
		"tiny": {`{"pile":1}`, `{"pile":30}`},
	}
	kinds := append(games.All().Kinds(), tinygame.Kind)
	for _, kind := range kinds {
		t.Run(kind.Name(), func(t *testing.T) {
			t.Parallel()
			gametest.Check(t, kind, gamesPerKind, kinds, variants[kind.Name()]...)
		})
	}
}

// BenchmarkReviewGame reviews a whole advised game (seat 0 the expert, seat 1 greedy) of every kind
// with an advisor, with its default options and, for Primed, a multi-card game of four rounds.
func BenchmarkReviewGame(b *testing.B) {
	more := map[string][]string{"primed": {`{"deck":"primed","target":"primes","multi_card":true,"rounds":4}`}}
	for _, kind := range append(games.All().Kinds(), tinygame.Kind) {
		if kind.Advisor == nil {
			continue
		}
		for i, options := range append([]json.RawMessage{nil}, raws(more[kind.Name()])...) {
			b.Run(fmt.Sprintf("%s/%d", kind.Name(), i), func(b *testing.B) {
				gametest.BenchmarkReview(b, kind, options, 2, 12)
			})
		}
	}
}

func raws(options []string) []json.RawMessage {
	out := make([]json.RawMessage, len(options))
	for i, o := range options {
		out[i] = json.RawMessage(o)
	}
	return out
}
