package api_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"primegames/api"
	"primegames/api/apitest"
	"primegames/domain/games"
	"primegames/play"
	"primegames/repo"
	"primegames/repo/repotest"
)

// A client holds at most so many games (issue 23): beyond a quota, 429 quota_exceeded whose facts
// name the quota, its scope, the limit and the count, with Retry-After only where waiting helps
// (games with no person end by themselves). A token's games count for the token and for its
// address; an anonymous client's for its address.
func TestQuotasRefuseGamesBeyondThem(t *testing.T) {
	t.Parallel()
	db := repotest.NewDB(t)
	service := newServiceOn(db, games.All(), nil, play.WithQuotas(play.Quotas{OpenGames: 2, ComputerGames: 1, AddressOpenGames: 3, AddressComputerGames: 2}))
	srv, err := newServerOf(service, db)
	if err != nil {
		t.Fatal(err)
	}
	s := apitest.Start(t, srv)
	computers := map[string]any{"game": "primed", "players": []map[string]any{{"bot": "random"}, {"bot": "random"}}}
	people := map[string]any{"game": "primed", "players": []map[string]any{{"name": "Ada"}, {"bot": "random"}}}
	token := bearer("made-up-token")
	create := func(what string, body any, want int, wantFacts *play.QuotaFacts, headers ...string) {
		t.Helper()
		resp := s.Post("/v1/games", body, headers...)
		if resp.StatusCode != want {
			t.Fatalf("%s: %d, want %d: %s", what, resp.StatusCode, want, resp.Body)
		}
		if wantFacts == nil {
			return
		}
		p := resp.Problem(t)
		var facts play.QuotaFacts
		if err := json.Unmarshal(p.Facts, &facts); err != nil || p.Code != "quota_exceeded" || facts != *wantFacts {
			t.Errorf("%s: %s %s, want quota_exceeded %+v", what, p.Code, p.Facts, *wantFacts)
		}
		retry, wantRetry := resp.Header.Get("Retry-After"), ""
		if wantFacts.RetryAfterSeconds > 0 {
			wantRetry = "60"
		}
		if retry != wantRetry {
			t.Errorf("%s: Retry-After %q, want %q", what, retry, wantRetry)
		}
	}
	create("the token's computer game", computers, http.StatusCreated, nil, token...)
	create("the token's second computer game", computers, http.StatusTooManyRequests,
		&play.QuotaFacts{Quota: "computer_games", Scope: "client", Limit: 1, Count: 1, RetryAfterSeconds: 60}, token...)
	create("the token's game with a person", people, http.StatusCreated, nil, token...)
	create("the token's third game", people, http.StatusTooManyRequests,
		&play.QuotaFacts{Quota: "open_games", Scope: "client", Limit: 2, Count: 2}, token...)
	create("an anonymous computer game", computers, http.StatusCreated, nil)
	create("a second anonymous computer game", computers, http.StatusTooManyRequests,
		&play.QuotaFacts{Quota: "computer_games", Scope: "address", Limit: 2, Count: 2, RetryAfterSeconds: 60})
	create("another token's game, from the same address", people, http.StatusTooManyRequests,
		&play.QuotaFacts{Quota: "open_games", Scope: "address", Limit: 3, Count: 3}, bearer("another-made-up-token")...)

	// Options beyond their range are a 400 naming the field: Primed plays at most 20 rounds.
	resp := s.Post("/v1/games", map[string]any{"game": "primed", "options": map[string]any{"rounds": 21}, "seats": 2})
	if p := resp.Problem(t); resp.StatusCode != http.StatusBadRequest || p.Code != "invalid_options" {
		t.Errorf("21 rounds: %d %s, want 400 invalid_options", resp.StatusCode, p.Code)
	}
	var body struct {
		Errors []struct{ Field string } `json:"errors"`
	}
	resp.JSON(t, &body)
	if len(body.Errors) != 1 || body.Errors[0].Field != "rounds" {
		t.Errorf("21 rounds: errors %s, want one naming rounds", resp.Body)
	}
}

// newServerOf is the test server over service and db.
func newServerOf(service *play.Service, db *repo.DB) (*api.Server, error) {
	return api.New(testConfig(), api.Deps{Play: service, Database: db, Feed: db}, quietLogger())
}
