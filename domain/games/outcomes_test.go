package games_test

import (
	"bytes"
	"testing"

	"primegames/domain"
)

// An outcome shows every viewer the same as the outcome decoded from its JSON: the answer to an
// action redacts the outcome the rules gave, and every later read of the history redacts the one
// decoded from the database, so the two must agree. Checked at every step of random games of
// every kind, for every viewer.
func TestAnOutcomeShowsTheSameAsItsJSONDecoded(t *testing.T) {
	gamesPerKind := 6
	if raceDetector {
		gamesPerKind = 1
	}
	startRandomGames(t, gamesPerKind, func(t *testing.T, rules domain.Rules, game, players int, state domain.State) {
		viewers := append([]domain.Viewer{domain.Public, domain.Full}, seatViewers(players)...)
		for step := int64(1); !state.Status().Finished && step < 2000; step++ {
			var outcome domain.Outcome
			state, outcome = applyRandomLegal(t, state, game, step)
			decoded, err := rules.DecodeOutcome(encode(t, outcome))
			if err != nil {
				t.Fatalf("game %d, step %d: %v", game, step, err)
			}
			for _, viewer := range viewers {
				given, restored := encode(t, outcome.Redact(viewer)), encode(t, decoded.Redact(viewer))
				if !bytes.Equal(given, restored) {
					t.Fatalf("game %d, step %d, viewer %+v: the outcome given shows\n%s\ndecoded\n%s", game, step, viewer, given, restored)
				}
			}
		}
	})
}
