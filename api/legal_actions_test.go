package api_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"primegames.dev/client"
)

// legalActions reads the legal actions of token's seat.
func (h *gamesHarness) legalActions(t *testing.T, id, token string) client.LegalActions {
	t.Helper()
	resp := h.Get("/v1/games/"+id+"/legal-actions", bearer(token)...)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET legal-actions = %d: %s", resp.StatusCode, resp.Body)
	}
	var l client.LegalActions
	resp.JSON(t, &l)
	return l
}

// A seat whose turn it is not learns whose turn it is and why nothing is listed, in both games;
// the seat to act gets its actions and no reason.
func TestLegalActionsOfASeatWhoseTurnItIsNotSayWhoseTurnItIs(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	for _, kind := range []string{"prime-climb", "primed"} {
		c := h.create(t, map[string]any{"game": kind, "players": []map[string]string{{"name": "Ada"}, {"name": "Ben"}}})
		id := c.Game.Id.String()
		toAct := c.Game.Turn.ToAct
		if len(toAct) != 1 {
			t.Fatalf("%s: to_act = %v", kind, toAct)
		}
		mover, waiting := toAct[0], 1-toAct[0]
		names := []string{"Ada", "Ben"}

		l := h.legalActions(t, id, c.Seats[waiting].Token)
		if !slices.Equal(l.ToAct, toAct) || string(l.Actions) != "[]" {
			t.Errorf("%s, waiting seat: to_act %v actions %s, want %v and []", kind, l.ToAct, l.Actions, toAct)
		}
		if l.Reason == nil || *l.Reason != client.LegalActionsBaseReasonNotYourTurn || l.Detail == nil || !strings.Contains(*l.Detail, names[mover]) {
			t.Errorf("%s, waiting seat: reason %v detail %v, want not_your_turn naming %s", kind, l.Reason, l.Detail, names[mover])
		}

		l = h.legalActions(t, id, c.Seats[mover].Token)
		if !slices.Equal(l.ToAct, toAct) || len(l.Actions) <= 2 || l.Reason != nil || l.Detail != nil {
			t.Errorf("%s, seat to act: to_act %v actions %s reason %v, want %v, actions and no reason", kind, l.ToAct, l.Actions, l.Reason, toAct)
		}
	}
}

// In a lobby and after an abort nobody may act: the list is empty with game_not_active.
func TestLegalActionsOutsidePlaySayTheGameIsNotActive(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	c := h.create(t, map[string]any{"game": "primed", "public": true, "seats": 2})
	id := c.Game.Id.String()
	resp := h.Post("/v1/games/"+id+"/players", map[string]string{"name": "Ada"})
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("join = %d: %s", resp.StatusCode, resp.Body)
	}
	var joined client.JoinedGame
	resp.JSON(t, &joined)

	check := func(when string) {
		t.Helper()
		l := h.legalActions(t, id, joined.Seat.Token)
		if len(l.ToAct) != 0 || string(l.Actions) != "[]" || l.Reason == nil || *l.Reason != client.LegalActionsBaseReasonGameNotActive || l.Detail == nil || *l.Detail == "" {
			t.Errorf("%s: to_act %v actions %s reason %v detail %v, want nobody, none and game_not_active", when, l.ToAct, l.Actions, l.Reason, l.Detail)
		}
	}
	check("lobby")
	if resp := h.Post("/v1/games/"+id+"/abort", nil, bearer(c.CreatorToken)...); resp.StatusCode != http.StatusOK {
		t.Fatalf("abort = %d: %s", resp.StatusCode, resp.Body)
	}
	check("aborted")
}
