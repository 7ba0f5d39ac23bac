package primed

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"primegames/domain"
)

// bot picks one legal action at random: the engine's own LegalActions drive every simulated game.
func bot(s *State, pick *rand.Rand) json.RawMessage {
	entries := s.Legal(s.Turn())
	return entries[pick.IntN(len(entries))].Action.JSON()
}

// maxActions bounds a simulated game; a random game of four rounds takes a few hundred actions.
const maxActions = 20000

// playOut plays a whole game with the random bot and returns the final state.
func playOut(t testing.TB, o Options, seats int, seed uint64) *State {
	t.Helper()
	s, _, err := Start(o.Canonical(), seats, domain.SeededRand(seed, 0))
	if err != nil {
		t.Fatal(err)
	}
	pick := rand.New(rand.NewPCG(seed, 99))
	for i := 1; !s.Status().Finished; i++ {
		if i > maxActions {
			t.Fatalf("%s seed %d: not finished after %d actions", variantName(o), seed, maxActions)
		}
		next, _, err := s.Apply(s.Turn(), bot(s, pick), domain.SeededRand(seed, int64(i)))
		if err != nil {
			t.Fatalf("%s seed %d action %d: %v", variantName(o), seed, i, err)
		}
		s = next.(*State)
	}
	return s
}
