package players_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"primegames/domain"
	"primegames/domain/games"
	"primegames/domain/players"
)

// play plays one game of kind with player in every seat, the way a client would: it lists a seat's
// legal actions as JSON and sends the picked entry's action. It returns how many actions it took.
func play(t *testing.T, kind domain.GameKind, seats int, seed uint64, player players.Player) int {
	t.Helper()
	picker := domain.SeededRand(seed, -1)
	st, _, err := kind.Rules.Start(nil, seats, domain.SeededRand(seed, 0))
	if err != nil {
		t.Fatal(err)
	}
	for n := 1; ; n++ {
		status := st.Status()
		if status.Finished {
			return n - 1
		}
		if n > 20_000 {
			t.Fatalf("%s seed %d: not over after 20,000 actions", kind.Name(), seed)
		}
		seat := status.ToAct[0]
		data, err := json.Marshal(st.LegalActions(seat))
		if err != nil {
			t.Fatal(err)
		}
		var legal []json.RawMessage
		if err := json.Unmarshal(data, &legal); err != nil {
			t.Fatal(err)
		}
		i, err := player(legal, picker)
		if err != nil {
			t.Fatalf("%s: %v", kind.Name(), err)
		}
		if i < 0 || i >= len(legal) {
			t.Fatalf("%s: the player picked entry %d of %d", kind.Name(), i, len(legal))
		}
		var entry struct {
			Action json.RawMessage `json:"action"`
		}
		if err := json.Unmarshal(legal[i], &entry); err != nil {
			t.Fatal(err)
		}
		if st, _, err = st.Apply(seat, entry.Action, domain.SeededRand(seed, int64(n))); err != nil {
			t.Fatalf("%s seed %d: legal action %s refused: %v", kind.Name(), seed, entry.Action, err)
		}
	}
}

// Every kind in the catalogue plays to its end with greedy and with random players, through the
// legal actions as JSON; the long tier compares how soon (TestLongGreedyPlayersFinishSoonerThanRandomOnes).
func TestPlayersFinishEveryKind(t *testing.T) {
	for _, kind := range games.All().Kinds() {
		if kind.Greedy == nil {
			t.Fatalf("%s has no greedy strategy", kind.Name())
		}
		for seed := range uint64(2) {
			if n := play(t, kind, 2, seed, players.Greedy(kind)); n == 0 {
				t.Errorf("%s seed %d: a greedy game over after no action", kind.Name(), seed)
			}
			if n := play(t, kind, 2, seed, players.Random); n == 0 {
				t.Errorf("%s seed %d: a random game over after no action", kind.Name(), seed)
			}
		}
	}
}

func TestMostly(t *testing.T) {
	legal := make([]json.RawMessage, 5)
	last := func([]json.RawMessage, domain.Rand) (int, error) { return 4, nil }
	for _, c := range []struct{ percent, wantLast int }{{100, 1000}, {0, 200}} {
		t.Run(fmt.Sprint(c.percent), func(t *testing.T) {
			r, got := domain.SeededRand(1, 1), 0
			for range 1000 {
				i, err := players.Mostly(last, c.percent)(legal, r)
				if err != nil {
					t.Fatal(err)
				}
				if i == 4 {
					got++
				}
			}
			// Random picks the last of five entries about 200 times in 1000.
			if c.wantLast == 1000 && got != 1000 || c.wantLast == 200 && (got < 150 || got > 250) {
				t.Errorf("Mostly(last, %d) picked the last entry %d times in 1000, want about %d", c.percent, got, c.wantLast)
			}
		})
	}
}

func TestNoLegalActionIsAnError(t *testing.T) {
	kind, _ := games.All().Lookup("prime-climb")
	for name, p := range map[string]players.Player{"random": players.Random, "greedy": players.Greedy(kind)} {
		if _, err := p(nil, domain.SeededRand(1, 1)); err == nil {
			t.Errorf("%s player picked from no legal actions", name)
		}
	}
}
