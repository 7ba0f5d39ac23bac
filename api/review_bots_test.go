package api_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"primegames.dev/client"
	"primegames/repo/repotest"
)

// A review judges the people's actions only: in a game of Ada against the expert, every judged
// entry and every summary is Ada's, although the computer moved as often as she did.
func TestReviewJudgesOnlyThePeople(t *testing.T) {
	t.Parallel()
	s := startWithBots(t, repotest.NewDB(t))
	c := createGame(t, s, map[string]any{"game": "primed", "options": map[string]any{"bot_delay_ms": 0},
		"players": []map[string]string{{"name": "Ada"}, {"bot": "expert"}}})
	id, ada := c.Game.Id.String(), bearer(c.Seats[0].Token)
	adasTurn := func(g client.Game) bool {
		return g.Status != client.GameStatusActive || g.Turn != nil && g.Turn.ToAct[0] == 0
	}
	for range 4 {
		if g := waitFor(t, s, id, botGameTimeout, adasTurn); g.Status != client.GameStatusActive {
			break
		}
		var legal client.LegalActions
		s.Get("/v1/games/"+id+"/legal-actions", ada...).JSON(t, &legal)
		var entries []struct {
			Action json.RawMessage `json:"action"`
		}
		if err := json.Unmarshal(legal.Actions, &entries); err != nil || len(entries) == 0 {
			t.Fatalf("legal actions %s: %v", legal.Actions, err)
		}
		if resp := s.Post("/v1/games/"+id+"/actions", entries[len(entries)-1].Action, ada...); resp.StatusCode != http.StatusCreated {
			t.Fatalf("Ada's action = %d: %s", resp.StatusCode, resp.Body)
		}
	}
	waitFor(t, s, id, botGameTimeout, adasTurn)
	if resp := s.Post("/v1/games/"+id+"/abort", nil, bearer(c.CreatorToken)...); resp.StatusCode != http.StatusOK {
		t.Fatalf("abort = %d: %s", resp.StatusCode, resp.Body)
	}
	computerMoves := 0
	for _, e := range history(t, s, id) {
		if e.Bot != nil {
			computerMoves++
		}
	}
	if computerMoves == 0 {
		t.Fatal("the computer never moved; the test shows nothing")
	}
	var review client.Review
	s.Get("/v1/games/"+id+"/review").JSON(t, &review)
	if len(review.Seats) != 1 || review.Seats[0].Seat != 0 || review.Seats[0].Judged+review.Seats[0].Forced == 0 {
		t.Errorf("summaries %+v, want Ada's alone, with her actions", review.Seats)
	}
	for _, e := range review.Entries {
		if e.Seat != 0 {
			t.Errorf("entry %d judges seat %d, the computer's", e.Seq, e.Seat)
		}
	}
}
