package api_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"primegames/domain"
	"primegames/domain/games"
	"primegames/domain/players"
)

// greedyPlayer follows kind's greedy strategy three times out of four and otherwise picks any legal
// action: uniform picks take about 1200 actions per game of Prime Climb, these a few hundred.
func greedyPlayer(t testing.TB, kind string) players.Player {
	t.Helper()
	k, ok := games.All().Lookup(kind)
	if !ok {
		t.Fatalf("no game kind %q", kind)
	}
	return players.Mostly(players.Greedy(k), 75)
}

// choose picks one of a seat's legal actions (entries of GET /legal-actions) with player and
// decodes the picked entry into entry, which must have an Action field for the action to post.
func choose(t testing.TB, player players.Player, legal []json.RawMessage, r domain.Rand, entry any) {
	t.Helper()
	if err := pickLegal(player, legal, r, entry); err != nil {
		t.Fatal(err)
	}
}

// pickLegal is choose for a goroutine other than the test's: it returns the error.
func pickLegal(player players.Player, legal []json.RawMessage, r domain.Rand, entry any) error {
	i, err := player(legal, r)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(legal[i], entry); err != nil {
		return fmt.Errorf("legal action %s: %w", legal[i], err)
	}
	return nil
}
