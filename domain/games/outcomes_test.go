package games_test

import (
	"bytes"
	"testing"

	"primegames/domain"
	"primegames/domain/games"
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
	for _, kind := range games.All().Kinds() {
		rules := kind.Rules
		t.Run(rules.Name(), func(t *testing.T) {
			options, seats, err := rules.Options(nil)
			if err != nil {
				t.Fatal(err)
			}
			for game := range gamesPerKind {
				players := seats.Min + game%(seats.Max-seats.Min+1)
				state, _, err := rules.Start(options, players, domain.SeededRand(uint64(game), 0))
				if err != nil {
					t.Fatal(err)
				}
				viewers := append([]domain.Viewer{domain.Public, domain.Full}, seatViewers(players)...)
				for step := int64(1); !state.Status().Finished && step < 2000; step++ {
					seat := state.Status().ToAct[0]
					legal := legalOf(t, state, seat)
					pick := domain.SeededRand(uint64(game), step).IntN(len(legal))
					var outcome domain.Outcome
					if state, outcome, err = state.Apply(seat, legal[pick], domain.SeededRand(uint64(game), -step)); err != nil {
						t.Fatalf("game %d, step %d: a legal action was refused: %v", game, step, err)
					}
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
			}
		})
	}
}
