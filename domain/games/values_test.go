package games_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"primegames/domain"
	"primegames/domain/games"
)

// States are values (domain.State): nothing the service calls on a state changes it, which lets an
// instance share one decoded state between requests (play's decoded states). In random games of
// every kind, at every step, a state's snapshot is the same bytes after its status, every view,
// every seat's legal actions and scores were asked for, and after each of the legal actions of
// the seat to act (and an illegal one) was applied to it.
func TestNothingChangesAState(t *testing.T) {
	gamesPerKind, actionsTried := 6, 12
	if raceDetector {
		gamesPerKind = 1
	}
	startRandomGames(t, gamesPerKind, func(t *testing.T, _ domain.Rules, game, players int, state domain.State) {
		for step := int64(1); !state.Status().Finished && step < 2000; step++ {
			before := encode(t, state)
			touch(t, state, players, actionsTried, step)
			if after := encode(t, state); !bytes.Equal(before, after) {
				t.Fatalf("game %d, step %d: the state changed from\n%s\nto\n%s", game, step, before, after)
			}
			state, _ = applyRandomLegal(t, state, game, step)
		}
	})
}

// startRandomGames starts gamesPerKind games of every kind, with every number of players in turn,
// and hands each to play, in a subtest per kind.
func startRandomGames(t *testing.T, gamesPerKind int, play func(t *testing.T, rules domain.Rules, game, players int, state domain.State)) {
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
				play(t, rules, game, players, state)
			}
		})
	}
}

// applyRandomLegal applies one of the legal actions of the seat to act, picked by the game and step.
func applyRandomLegal(t *testing.T, state domain.State, game int, step int64) (domain.State, domain.Outcome) {
	t.Helper()
	seat := state.Status().ToAct[0]
	legal := legalOf(t, state, seat)
	pick := domain.SeededRand(uint64(game), step).IntN(len(legal))
	next, outcome, err := state.Apply(seat, legal[pick], domain.SeededRand(uint64(game), -step))
	if err != nil {
		t.Fatalf("game %d, step %d: a legal action was refused: %v", game, step, err)
	}
	return next, outcome
}

// touch asks the state for everything the service asks of it, and applies up to tries of the seat
// to act's legal actions and one illegal action to it.
func touch(t *testing.T, state domain.State, players, tries int, step int64) {
	t.Helper()
	for _, viewer := range append([]domain.Viewer{domain.Public, domain.Full}, seatViewers(players)...) {
		encode(t, state.View(viewer))
	}
	for seat := range players {
		encode(t, state.LegalActions(seat))
	}
	encode(t, state.Scores())
	seat := state.Status().ToAct[0]
	for i, action := range legalOf(t, state, seat) {
		if i == tries {
			break
		}
		if _, _, err := state.Apply(seat, action, domain.SeededRand(7, step)); err != nil {
			t.Fatalf("a legal action was refused: %v", err)
		}
	}
	_, _, _ = state.Apply(seat, json.RawMessage(`{"type":"no such action"}`), domain.SeededRand(7, step))
}

func seatViewers(players int) []domain.Viewer {
	var out []domain.Viewer
	for seat := range players {
		out = append(out, domain.Player(seat))
	}
	return out
}

func legalOf(t *testing.T, state domain.State, seat int) []json.RawMessage {
	t.Helper()
	var entries []struct{ Action json.RawMessage }
	if err := json.Unmarshal(encode(t, state.LegalActions(seat)), &entries); err != nil || len(entries) == 0 {
		t.Fatalf("seat %d to act has no legal action (%v)", seat, err)
	}
	out := make([]json.RawMessage, len(entries))
	for i, e := range entries {
		out[i] = e.Action
	}
	return out
}

func encode(t *testing.T, v any) []byte {
	t.Helper()
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
