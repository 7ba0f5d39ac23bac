//go:build long

package api_test

import (
	"fmt"
	"net/http"
	"testing"

	"primegames/api/apitest"

	"primegames/repo/repotest"
)

// A game longer than a few checkpoints (256 entries each): every step near and at the boundaries
// rebuilt from the kept checkpoints equals the step rebuilt from the start by another instance, and
// each replay window draws at most 100 steps.
func TestLongStepsOfALongGameFromCheckpoints(t *testing.T) {
	t.Parallel()
	db := repotest.NewDB(t)
	s := startWithBots(t, db)
	random := map[string]string{"bot": "random"}
	c := createGame(t, s, map[string]any{"game": "primed", "options": map[string]any{"bot_delay_ms": 0, "rounds": 20},
		"players": []map[string]string{random, random, random, random, random, random}})
	id := c.Game.Id.String()
	waitFor(t, s, id, 4*botGameTimeout, finished)
	entries := history(t, s, id)
	n := int64(len(entries))
	if n < 600 {
		t.Fatalf("only %d entries; the test needs more than two checkpoints", n)
	}
	// Warm this instance's checkpoints through the whole game.
	if resp := s.Get(fmt.Sprintf("/v1/games/%s/states/%d", id, n-1)); resp.StatusCode != http.StatusOK {
		t.Fatalf("last state = %d", resp.StatusCode)
	}
	for _, seq := range []int64{0, 1, 255, 256, 257, 511, 512, 513, n - 2, n - 1} {
		fresh := apitest.Start(t, newServer(t, db)) // a new instance folds from the start
		warm := s.Get(fmt.Sprintf("/v1/games/%s/states/%d", id, seq))
		cold := fresh.Get(fmt.Sprintf("/v1/games/%s/states/%d", id, seq))
		if warm.StatusCode != http.StatusOK || !jsonEqual(warm.Body, cold.Body) {
			t.Errorf("state %d from checkpoints differs from the fold from the start:\n%s\n%s", seq, warm.Body, cold.Body)
		}
	}
	for from := int64(0); from < n; from += 100 {
		resp := s.Get(fmt.Sprintf("/v1/games/%s/replay.svg?from=%d", id, from))
		if steps := stepSeqs(resp.Body); resp.StatusCode != http.StatusOK || len(steps) == 0 || len(steps) > 100 || steps[0] != fmt.Sprint(from) {
			t.Fatalf("window from %d = %d with %d steps", from, resp.StatusCode, len(steps))
		}
	}
}
