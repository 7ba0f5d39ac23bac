package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"primegames.dev/client"
)

// clusterGame is a game as one client of the cluster knows it.
type clusterGame struct {
	id, kind string
	tokens   []string
	status   client.GameStatus
	version  int64
	toAct    []int
	// accepted[seq] is the entry of each action the client saw accepted.
	accepted map[int64]clusterEntry
}

func (g *clusterGame) path(suffix string) string { return "/v1/games/" + g.id + suffix }

func (g *clusterGame) update(game client.Game) {
	g.status, g.version, g.toAct = game.Status, game.Version, nil
	if game.Turn != nil {
		g.toAct = game.Turn.ToAct
	}
}

// createGame creates a game of two players through targets, retrying with one Idempotency-Key.
func (c *cluster) createGame(targets []string, first int, kind string, stats *failoverStats) (*clusterGame, error) {
	body, _ := json.Marshal(map[string]any{"game": kind, "players": names(2)})
	a, err := c.failover(targets, first, clusterCall{method: "POST", path: "/v1/games", key: randomKey(), body: body}, stats)
	if err != nil {
		return nil, err
	}
	if a.status != http.StatusCreated {
		return nil, fmt.Errorf("create %s = %d: %s", kind, a.status, a.body)
	}
	var created client.CreatedGame
	if err := decode(a.body, &created); err != nil {
		return nil, err
	}
	g := &clusterGame{id: created.Game.Id.String(), kind: kind, accepted: map[int64]clusterEntry{}}
	for _, s := range created.Seats {
		g.tokens = append(g.tokens, s.Token)
	}
	g.update(created.Game)
	return g, nil
}

// legalActions lists what the seat to act may post now.
func (c *cluster) legalActions(targets []string, first int, g *clusterGame, stats *failoverStats) ([]json.RawMessage, error) {
	a, err := c.failover(targets, first, clusterCall{method: "GET", path: g.path("/legal-actions"), token: g.tokens[g.toAct[0]]}, stats)
	if err != nil {
		return nil, err
	}
	if a.status != http.StatusOK {
		return nil, fmt.Errorf("legal actions of game %s = %d: %s", g.id, a.status, a.body)
	}
	var legal client.LegalActions
	if err := decode(a.body, &legal); err != nil {
		return nil, err
	}
	var entries []json.RawMessage
	if err := decode(legal.Actions, &entries); err != nil {
		return nil, err
	}
	if len(entries) == 0 {
		return nil, fmt.Errorf("game %s: seat %d is to act and has no legal action", g.id, g.toAct[0])
	}
	return entries, nil
}

// accept records an accepted action's response; an entry answered twice is an error, and the
// second is not recorded.
func (g *clusterGame) accept(body []byte) error {
	var res client.ActionResult
	if err := decode(body, &res); err != nil {
		return err
	}
	var entry clusterEntry
	if err := decode(body, &struct {
		Entry *clusterEntry `json:"entry"`
	}{&entry}); err != nil {
		return err
	}
	if _, twice := g.accepted[entry.Seq]; twice {
		return fmt.Errorf("game %s: two accepted actions answered with entry %d", g.id, entry.Seq)
	}
	g.accepted[entry.Seq] = entry
	g.update(res.Game)
	return nil
}

// checkGame checks a game against what its client saw: through the API, the history has the
// entries 0…n without a gap, one for the start and one per accepted action, each as accepted, and
// the game reads at the version the last action left; on the primary, the stored history folds to
// the stored state (G-2).
func (c *cluster) checkGame(t *testing.T, g *clusterGame) {
	t.Helper()
	history := c.clusterHistory(t, c.proxy, g.id, g.tokens[0])
	for i, e := range history {
		if e.Seq != int64(i) {
			t.Fatalf("game %s: history entry %d has seq %d", g.id, i, e.Seq)
		}
	}
	if len(history) != 1+len(g.accepted) {
		t.Errorf("game %s: %d history entries, want the start and the %d actions its client saw accepted", g.id, len(history), len(g.accepted))
	}
	for seq, want := range g.accepted {
		if seq >= int64(len(history)) {
			t.Errorf("game %s: the accepted action of entry %d is not in the history (lost)", g.id, seq)
			continue
		}
		got := history[seq]
		if got.Seat == nil || want.Seat == nil || *got.Seat != *want.Seat || !sameJSON(t, got.Action, want.Action) {
			t.Errorf("game %s: history entry %d is %s, the accepted one was %s", g.id, seq, got.Action, want.Action)
		}
	}
	a, err := c.send(c.proxy, clusterCall{method: "GET", path: g.path(""), token: g.tokens[0]})
	if err != nil || a.status != http.StatusOK {
		t.Fatalf("GET game %s = %d %v: %s", g.id, a.status, err, a.body)
	}
	var game client.Game
	decodeJSON(t, a.body, &game)
	if game.Version != g.version {
		t.Errorf("game %s reads at version %d, its last accepted action left version %d", g.id, game.Version, g.version)
	}
}
