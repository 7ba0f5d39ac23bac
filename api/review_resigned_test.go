package api_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"primegames.dev/client"
	"primegames/repo/repotest"
)

// G-3: a student who resigns a game of three hands the seat to a computer, but what they played
// before stays theirs: their entries carry no computer mark, the computer's after the resignation
// do, and the review judges the person's actions and none of the computer's.
func TestResignedSeatKeepsThePersonsMoves(t *testing.T) {
	t.Parallel()
	s := startWithBots(t, repotest.NewDB(t))
	c := createGame(t, s, map[string]any{"game": "primed", "options": map[string]any{"bot_delay_ms": 0, "rounds": 1},
		"players": []map[string]string{{"name": "Ada"}, {"name": "Bea"}, {"name": "Cy"}}})
	id := c.Game.Id.String()
	adasMoves := 0
	for adasMoves < 3 {
		var g client.Game
		s.Get("/v1/games/"+id).JSON(t, &g)
		if g.Status != client.GameStatusActive {
			t.Fatalf("the game ended (%s) before Ada played three times", g.Status)
		}
		seat := g.Turn.ToAct[0]
		token := bearer(c.Seats[seat].Token)
		var legal client.LegalActions
		s.Get("/v1/games/"+id+"/legal-actions", token...).JSON(t, &legal)
		var entries []struct {
			Action json.RawMessage `json:"action"`
		}
		if err := json.Unmarshal(legal.Actions, &entries); err != nil || len(entries) == 0 {
			t.Fatalf("legal actions %s: %v", legal.Actions, err)
		}
		if resp := s.Post("/v1/games/"+id+"/actions", entries[0].Action, token...); resp.StatusCode != http.StatusCreated {
			t.Fatalf("seat %d's action = %d: %s", seat, resp.StatusCode, resp.Body)
		}
		if seat == 0 {
			adasMoves++
		}
	}
	for seat := range 3 {
		postResign(t, s, id, c.Seats[seat].Token)
	}
	waitFor(t, s, id, botGameTimeout, finished)

	resignedAt := map[int]int64{}
	personal, computers := map[int]int{}, 0
	for _, e := range history(t, s, id) {
		switch {
		case e.Seat == nil:
		case jsonEqual(e.Action, []byte(`{"type":"resign"}`)):
			resignedAt[*e.Seat] = e.Seq
		case e.Bot == nil:
			if _, gone := resignedAt[*e.Seat]; gone {
				t.Errorf("entry %d of seat %d, after its resignation, is not marked as the computer's", e.Seq, *e.Seat)
			}
			personal[*e.Seat]++
		default:
			if _, gone := resignedAt[*e.Seat]; !gone {
				t.Errorf("entry %d of seat %d, before its resignation, is marked as the computer's", e.Seq, *e.Seat)
			}
			computers++
		}
	}
	if personal[0] != adasMoves || computers == 0 {
		t.Fatalf("history: Ada's own entries %d (want %d), the computers' %d (want some)", personal[0], adasMoves, computers)
	}

	var review client.Review
	s.Get("/v1/games/"+id+"/review").JSON(t, &review)
	judged := map[int]int{}
	for _, summary := range review.Seats {
		judged[summary.Seat] = summary.Judged + summary.Forced
	}
	for seat, n := range personal {
		if judged[seat] != n {
			t.Errorf("review of seat %d: %d actions judged or forced, want the person's %d", seat, judged[seat], n)
		}
	}
	for _, e := range review.Entries {
		if e.Seq > resignedAt[e.Seat] {
			t.Errorf("review entry %d of seat %d comes after its resignation at %d: the computer's", e.Seq, e.Seat, resignedAt[e.Seat])
		}
	}
}
