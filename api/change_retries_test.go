package api_test

import (
	"net/http"
	"testing"

	"primegames/api/apitest"
	"primegames/repo/repotest"
)

// Starting, aborting, leaving and resigning take an Idempotency-Key: a retry with the same token
// and key gets the first answer, byte for byte, and changes nothing, where a plain retry is refused
// because the first one went through. Leaving and resigning can end the token, so their keys must
// be strong ones.
func TestRetriedGameChangesAnswerTheFirstTime(t *testing.T) {
	t.Parallel()
	s := apitest.Start(t, newServer(t, repotest.NewDB(t)))
	withKey := func(token, key string) []string { return append(bearer(token), "Idempotency-Key", key) }
	// once posts path with the key twice and checks that both answers are the same 200, then
	// posts it without the key and checks the refusal that the change's having happened brings.
	once := func(what, path, token, key string, plainStatus int, plainCode string) {
		t.Helper()
		first := s.Post(path, nil, withKey(token, key)...)
		retry := s.Post(path, nil, withKey(token, key)...)
		if first.StatusCode != http.StatusOK || retry.StatusCode != http.StatusOK || string(first.Body) != string(retry.Body) {
			t.Fatalf("%s: %d, its retry %d (%s); want the same 200 twice\n%s", what, first.StatusCode, retry.StatusCode, retry.Body, first.Body)
		}
		if first.Header.Get("ETag") != retry.Header.Get("ETag") {
			t.Errorf("%s: ETag %q, its retry %q", what, first.Header.Get("ETag"), retry.Header.Get("ETag"))
		}
		plain := s.Post(path, nil, bearer(token)...)
		if plain.StatusCode != plainStatus || plainCode != "" && plain.Problem(t).Code != plainCode {
			t.Errorf("%s again without the key = %d %s, want %d %s", what, plain.StatusCode, plain.Body, plainStatus, plainCode)
		}
	}
	version := func(id string) int64 {
		t.Helper()
		var g struct{ Version int64 }
		s.Get("/v1/games/"+id).JSON(t, &g)
		return g.Version
	}

	lobby := createGame(t, s, map[string]any{"game": "primed", "public": true, "seats": 3})
	id := lobby.Game.Id.String()
	ada, _, cy := join(t, s, id, "Ada"), join(t, s, id, "Ben"), join(t, s, id, "Cy")
	for _, path := range []string{"/leave", "/resign"} {
		if resp := s.Post("/v1/games/"+id+path, nil, withKey(cy.Seat.Token, "k1")...); resp.StatusCode != http.StatusBadRequest || resp.Problem(t).Code != "weak_idempotency_key" {
			t.Errorf("POST %s with a short key = %d %s, want 400 weak_idempotency_key", path, resp.StatusCode, resp.Body)
		}
	}
	once("Cy leaves", "/v1/games/"+id+"/leave", cy.Seat.Token, randomKey(), http.StatusUnauthorized, "")
	once("the creator starts", "/v1/games/"+id+"/start", lobby.CreatorToken, "s1", http.StatusConflict, "not_in_lobby")
	before := version(id)
	once("Ada resigns", "/v1/games/"+id+"/resign", ada.Seat.Token, randomKey(), http.StatusConflict, "game_over")
	if after := version(id); after != before+1 {
		t.Errorf("version %d after a resignation and its retries, was %d: want one step", after, before)
	}
	resigned := 0
	for _, e := range history(t, s, id) {
		if jsonEqual(e.Action, []byte(`{"type":"resign"}`)) {
			resigned++
		}
	}
	if resigned != 1 {
		t.Errorf("%d resignations in the history, want 1", resigned)
	}

	// In a game of three a resignation hands the seat to the computer and ends the token.
	three := createGame(t, s, map[string]any{"game": "primed", "players": []map[string]string{{"name": "Ada"}, {"name": "Bea"}, {"name": "Cy"}}})
	once("Bea resigns a game of three", "/v1/games/"+three.Game.Id.String()+"/resign", three.Seats[1].Token, randomKey(), http.StatusUnauthorized, "")

	running := createGame(t, s, map[string]any{"game": "prime-climb", "players": names(2)})
	once("the creator aborts", "/v1/games/"+running.Game.Id.String()+"/abort", running.CreatorToken, "a1", http.StatusConflict, "game_over")
}
