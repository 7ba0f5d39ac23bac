package games_test

import (
	"bytes"
	"reflect"
	"testing"

	"primegames/domain"
	"primegames/domain/games"
)

// An outcome shows every viewer the same as the outcome decoded from its JSON, and counts the same
// in a tally: the answer to an action redacts the outcome the rules gave, and its game's tally
// counts it, while every later read of the history, and a tally counted again from the history,
// decode it from the database, so the two must agree. Checked at every step of random games of
// every kind, for every viewer.
func TestAnOutcomeShowsAndCountsTheSameAsItsJSONDecoded(t *testing.T) {
	gamesPerKind := 6
	if raceDetector {
		gamesPerKind = 1
	}
	startRandomGames(t, gamesPerKind, func(t *testing.T, rules domain.Rules, game, players int, state domain.State) {
		kind, _ := games.All().Lookup(rules.Name())
		viewers := append([]domain.Viewer{domain.Public, domain.Full}, seatViewers(players)...)
		for step := int64(1); !state.Status().Finished && step < 2000; step++ {
			var outcome domain.Outcome
			state, outcome = applyRandomLegal(t, state, game, step)
			decoded, err := rules.DecodeOutcome(encode(t, outcome))
			if err != nil {
				t.Fatalf("game %d, step %d: %v", game, step, err)
			}
			if kind.TallyOutcome != nil {
				fromJSON, fromValue := domain.Counts{}, domain.Counts{}
				if err := kind.Tally(encode(t, outcome), fromJSON); err != nil {
					t.Fatalf("game %d, step %d: %v", game, step, err)
				}
				if err := kind.TallyOutcome(outcome, fromValue); err != nil {
					t.Fatalf("game %d, step %d: %v", game, step, err)
				}
				if !reflect.DeepEqual(fromJSON, fromValue) {
					t.Fatalf("game %d, step %d: the outcome given counts %v, decoded %v", game, step, fromValue, fromJSON)
				}
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
