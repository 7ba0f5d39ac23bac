package api_test

import (
	"crypto/rand"
	"net/http"
	"testing"

	"primegames.dev/client"
)

// randomKey is an Idempotency-Key as a client should make one: 128 random bits.
func randomKey() string { return rand.Text() }

// Without a token, an Idempotency-Key is the request's only secret: a short one is refused, because
// another client could send it too and be handed the first client's tokens.
func TestAnonymousIdempotencyKeyMustBeStrong(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	create := map[string]any{"game": "primed", "players": names(2)}
	lobby := h.create(t, map[string]any{"game": "primed", "public": true, "seats": 2})
	join := "/v1/games/" + lobby.Game.Id.String() + "/players"
	for _, key := range []string{"k1", "create-1", "my-first-game", "0123456789abcdef0123456789abcde", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "abababababababababababab"} {
		for path, body := range map[string]any{"/v1/games": create, join: map[string]string{"name": "Cy"}} {
			resp := h.Post(path, body, "Idempotency-Key", key)
			if resp.StatusCode != http.StatusBadRequest || resp.Problem(t).Code != "weak_idempotency_key" {
				t.Errorf("POST %s with key %q = %d %s, want 400 weak_idempotency_key", path, key, resp.StatusCode, resp.Body)
			}
		}
	}
	if g := h.game(t, lobby.Game.Id.String(), ""); len(g.Seats) != 0 {
		t.Errorf("a refused join took a seat: %+v", g.Seats)
	}

	// Random keys: a UUID, 16 random bytes in hex, Go's rand.Text.
	for _, key := range []string{"3f1c9a52-7d4e-4b8a-9c61-0e2f5b7a8d13", "9f86d081884c7d659a2feaa0c55ad015", randomKey()} {
		first := h.Post("/v1/games", create, "Idempotency-Key", key)
		retry := h.Post("/v1/games", create, "Idempotency-Key", key)
		if first.StatusCode != http.StatusCreated || string(first.Body) != string(retry.Body) {
			t.Errorf("key %q: create = %d, retry returned another response", key, first.StatusCode)
		}
	}
	key := randomKey()
	first := h.Post(join, map[string]string{"name": "Cy"}, "Idempotency-Key", key)
	retry := h.Post(join, map[string]string{"name": "Cy"}, "Idempotency-Key", key)
	if first.StatusCode != http.StatusCreated || string(first.Body) != string(retry.Body) {
		t.Errorf("join = %d, retry = %d: want one seat, answered twice the same", first.StatusCode, retry.StatusCode)
	}
	if g := h.game(t, lobby.Game.Id.String(), ""); len(g.Seats) != 1 {
		t.Errorf("a retried join took %d seats, want 1", len(g.Seats))
	}
}

// A key sent with a token that identifies the caller is that caller's alone: it may be short, and
// another caller sending the same key and body gets an answer of their own.
func TestIdempotencyKeyOfAnIdentifiedCallerIsTheirsAlone(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	class := h.newClassroom(t, "4C", "Ada", "Ben")
	ada, ben := class.students["Ada"], class.students["Ben"]
	lobby := map[string]any{"game": "primed", "public": true, "seats": 2}
	var games [2]client.CreatedGame
	for i, token := range []string{ada.token, ben.token} {
		resp := h.Post("/v1/games", lobby, append(bearer(token), "Idempotency-Key", "k1")...)
		retry := h.Post("/v1/games", lobby, append(bearer(token), "Idempotency-Key", "k1")...)
		if resp.StatusCode != http.StatusCreated || string(resp.Body) != string(retry.Body) {
			t.Fatalf("student %d: create = %d, retry = %d %s", i, resp.StatusCode, retry.StatusCode, retry.Body)
		}
		resp.JSON(t, &games[i])
	}
	if games[0].Game.Id.String() == games[1].Game.Id.String() || games[0].CreatorToken == games[1].CreatorToken {
		t.Fatal("two students with the same key got the same game and creator token")
	}

	// Both join Ada's lobby with the same short key: each gets a seat of their own.
	path := "/v1/games/" + games[0].Game.Id.String() + "/players"
	for _, token := range []string{ada.token, ben.token, ada.token} {
		if resp := h.Post(path, map[string]any{}, append(bearer(token), "Idempotency-Key", "j1")...); resp.StatusCode != http.StatusCreated {
			t.Fatalf("join = %d %s", resp.StatusCode, resp.Body)
		}
	}
	if g := h.game(t, games[0].Game.Id.String(), class.teacher); len(g.Seats) != 2 {
		t.Fatalf("seats = %+v, want Ada's and Ben's", g.Seats)
	}
}
