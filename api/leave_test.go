package api_test

import (
	"net/http"
	"testing"

	"primegames.dev/client"
	"primegames/api/apitest"
	"primegames/repo/repotest"
)

func join(t *testing.T, s *apitest.Server, id, name string) client.JoinedGame {
	t.Helper()
	resp := s.Post("/v1/games/"+id+"/players", map[string]string{"name": name})
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("%s joins = %d: %s", name, resp.StatusCode, resp.Body)
	}
	var j client.JoinedGame
	resp.JSON(t, &j)
	return j
}

// A player leaves a lobby: their seat opens again and the later seats move down, their token stops
// working, the creator's does not, and someone else takes the free seat.
func TestLeaveALobbyOpensTheSeat(t *testing.T) {
	t.Parallel()
	s := apitest.Start(t, newServer(t, repotest.NewDB(t)))
	c := createGame(t, s, map[string]any{"game": "primed", "public": true, "seats": 3})
	id := c.Game.Id.String()
	ada, ben := join(t, s, id, "Ada"), join(t, s, id, "Ben")

	resp := s.Post("/v1/games/"+id+"/leave", nil, bearer(ada.Seat.Token)...)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("Ada leaves = %d: %s", resp.StatusCode, resp.Body)
	}
	var g client.Game
	resp.JSON(t, &g)
	if len(g.Seats) != 1 || g.Seats[0].Name != "Ben" || g.Seats[0].Seat != 0 || g.You.Seat != nil || g.Version != ben.Game.Version+1 {
		t.Fatalf("after Ada left: seats %+v, you %+v, version %d; want Ben alone in seat 0 at version %d", g.Seats, g.You, g.Version, ben.Game.Version+1)
	}
	if resp := s.Get("/v1/games/"+id, bearer(ada.Seat.Token)...); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("Ada's token after she left = %d, want 401", resp.StatusCode)
	}
	var seen client.Game
	s.Get("/v1/games/"+id, bearer(ben.Seat.Token)...).JSON(t, &seen)
	if seen.You.Seat == nil || *seen.You.Seat != 0 {
		t.Errorf("Ben's token after Ada left: you %+v, want seat 0", seen.You)
	}
	if cy := join(t, s, id, "Cy"); cy.Seat.Seat != 1 {
		t.Errorf("Cy joined seat %d, want 1", cy.Seat.Seat)
	}
	if resp := s.Post("/v1/games/"+id+"/start", nil, bearer(c.CreatorToken)...); resp.StatusCode != http.StatusOK {
		t.Fatalf("the creator starts after Ada left = %d: %s", resp.StatusCode, resp.Body)
	}
	for _, tc := range []struct {
		name, token string
		status      int
		code        string
	}{
		{"a started game", ben.Seat.Token, http.StatusConflict, "not_in_lobby"},
		{"the creator", c.CreatorToken, http.StatusForbidden, "forbidden"},
		{"the token of a seat left", ada.Seat.Token, http.StatusUnauthorized, "unauthorized"},
	} {
		resp := s.Post("/v1/games/"+id+"/leave", nil, bearer(tc.token)...)
		if p := resp.Problem(t); resp.StatusCode != tc.status || p.Code != tc.code {
			t.Errorf("%s: leave = %d %s, want %d %s", tc.name, resp.StatusCode, p.Code, tc.status, tc.code)
		}
	}
}
