package api_test

import (
	"encoding/json"
	"net/http"
	"sync"
	"testing"

	"primegames.dev/client"
	"primegames/api/apitest"
	"primegames/repo/repotest"
)

// finishedByResigning creates a game of Ada (seat 0) and Bea (seat 1) with options and ends it:
// Ada resigns (G-3).
func finishedByResigning(t *testing.T, s *apitest.Server, options map[string]any) client.CreatedGame {
	t.Helper()
	req := map[string]any{"game": "primed", "players": []map[string]string{{"name": "Ada"}, {"name": "Bea"}}}
	if options != nil {
		req["options"] = options
	}
	c := createGame(t, s, req)
	postResign(t, s, c.Game.Id.String(), c.Seats[0].Token)
	return c
}

// A finished game's rematch: the same players one seat on, the same options, started at once;
// each old seat token acts for its player's new seat; the old game links to it, and asking again,
// as the other player, gives the same game.
func TestRematchRotatesTheSeatsAndKeepsTheTokens(t *testing.T) {
	t.Parallel()
	s := apitest.Start(t, newServer(t, repotest.NewDB(t)))
	options := map[string]any{"rounds": 2, "multi_card": true}
	c := finishedByResigning(t, s, options)
	oldID := c.Game.Id.String()
	ada, bea := c.Seats[0].Token, c.Seats[1].Token

	resp := s.Post("/v1/games/"+oldID+"/rematch", nil, bearer(bea)...)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("rematch = %d: %s", resp.StatusCode, resp.Body)
	}
	var g client.Game
	resp.JSON(t, &g)
	newID := g.Id.String()
	if resp.Header.Get("Location") != "/v1/games/"+newID || newID == oldID {
		t.Errorf("rematch Location %q for game %s", resp.Header.Get("Location"), newID)
	}
	if g.Status != client.GameStatusActive || len(g.Seats) != 2 || g.Seats[0].Name != "Bea" || g.Seats[1].Name != "Ada" {
		t.Fatalf("rematch: status %s seats %+v, want active with Bea in seat 0 and Ada in seat 1", g.Status, g.Seats)
	}
	if g.You.Seat == nil || *g.You.Seat != 0 {
		t.Errorf("Bea's rematch answer: you %+v, want seat 0", g.You)
	}
	var newOptions map[string]any
	if err := json.Unmarshal(g.Options, &newOptions); err != nil {
		t.Fatal(err)
	}
	if !jsonEqual(c.Game.Options, g.Options) || newOptions["rounds"] != float64(2) {
		t.Errorf("rematch options %s, want the old game's %s", g.Options, c.Game.Options)
	}

	var adaSees client.Game
	s.Get("/v1/games/"+newID, bearer(ada)...).JSON(t, &adaSees)
	if adaSees.You.Seat == nil || *adaSees.You.Seat != 1 {
		t.Errorf("Ada's old token in the rematch: you %+v, want seat 1", adaSees.You)
	}
	toAct := map[int]string{0: bea, 1: ada}[g.Turn.ToAct[0]]
	if resp := s.Get("/v1/games/"+newID+"/legal-actions", bearer(toAct)...); resp.StatusCode != http.StatusOK {
		t.Errorf("the old token of the seat to act reads its legal actions in the rematch: %d %s", resp.StatusCode, resp.Body)
	}
	var old client.Game
	s.Get("/v1/games/"+oldID, bearer(ada)...).JSON(t, &old)
	if old.Rematch == nil || old.Rematch.String() != newID {
		t.Errorf("the finished game links to rematch %v, want %s", old.Rematch, newID)
	}

	resp = s.Post("/v1/games/"+oldID+"/rematch", nil, bearer(ada)...)
	var again client.Game
	resp.JSON(t, &again)
	if resp.StatusCode != http.StatusOK || again.Id.String() != newID || again.You.Seat == nil || *again.You.Seat != 1 {
		t.Errorf("Ada asks again = %d, game %s you %+v; want 200, game %s, seat 1", resp.StatusCode, again.Id, again.You, newID)
	}
}

// Players asking for a rematch at the same time get one game between them (one 201).
func TestConcurrentRematchesMakeOneGame(t *testing.T) {
	t.Parallel()
	db := repotest.NewDB(t)
	s := apitest.Start(t, newServer(t, db))
	c := finishedByResigning(t, s, nil)
	const requests = 8
	repotest.WarmPool(t, db, requests)
	var wg sync.WaitGroup
	statuses, ids := make([]int, requests), make([]string, requests)
	for i := range requests {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp := s.Post("/v1/games/"+c.Game.Id.String()+"/rematch", nil, bearer(c.Seats[i%2].Token)...)
			var g client.Game
			if json.Unmarshal(resp.Body, &g) == nil {
				ids[i] = g.Id.String()
			}
			statuses[i] = resp.StatusCode
		}()
	}
	wg.Wait()
	created := 0
	for i := range requests {
		if statuses[i] == http.StatusCreated {
			created++
		} else if statuses[i] != http.StatusOK {
			t.Errorf("request %d = %d", i, statuses[i])
		}
		if ids[i] != ids[0] || ids[i] == "" {
			t.Errorf("request %d got game %q, request 0 game %q", i, ids[i], ids[0])
		}
	}
	if created != 1 {
		t.Errorf("%d requests created a rematch, want 1", created)
	}
}

// Only a finished game's players ask for its rematch.
func TestRematchRefusals(t *testing.T) {
	t.Parallel()
	s := apitest.Start(t, newServer(t, repotest.NewDB(t)))
	active := createGame(t, s, map[string]any{"game": "primed", "players": []map[string]string{{"name": "Ada"}, {"name": "Bea"}}})
	finished := finishedByResigning(t, s, nil)
	for _, tc := range []struct {
		name, id, token string
		status          int
		code            string
	}{
		{"an active game", active.Game.Id.String(), active.Seats[0].Token, http.StatusConflict, "game_not_finished"},
		{"the creator", finished.Game.Id.String(), finished.CreatorToken, http.StatusForbidden, "forbidden"},
		{"another game's token", finished.Game.Id.String(), active.Seats[0].Token, http.StatusUnauthorized, "unauthorized"},
	} {
		resp := s.Post("/v1/games/"+tc.id+"/rematch", nil, bearer(tc.token)...)
		if p := resp.Problem(t); resp.StatusCode != tc.status || p.Code != tc.code {
			t.Errorf("%s: rematch = %d %s, want %d %s", tc.name, resp.StatusCode, p.Code, tc.status, tc.code)
		}
	}
}
