package api_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"primegames/api/apitest"
	"primegames/repo/repotest"
)

// Answers of over 2 KB, which net/http would send in chunks, say their length: an action's answer
// with the legal actions that follow it, and the legal actions, uncompressed.
func TestAnswersOverTwoKilobytesSayTheirLength(t *testing.T) {
	t.Parallel()
	db := repotest.NewDB(t)
	s := apitest.Start(t, newServer(t, db))
	tb := newTable(t, s, db, "prime-climb", nil, 4, 43)
	identity := []string{"Accept-Encoding", "identity"}
	check := func(what string, resp *apitest.Response, status int) {
		t.Helper()
		if resp.StatusCode != status {
			t.Fatalf("%s = %d, want %d: %s", what, resp.StatusCode, status, resp.Body)
		}
		if resp.ContentLength != int64(len(resp.Body)) || len(resp.TransferEncoding) > 0 {
			t.Fatalf("%s: %d bytes sent with Content-Length %d, Transfer-Encoding %q", what, len(resp.Body), resp.ContentLength, resp.TransferEncoding)
		}
	}
	type legalList struct {
		Seat    int
		Actions []struct{ Action json.RawMessage }
	}
	seat, longest := tb.toAct(), 0
	var known *legalList // what the last answer included, when anything
	for step := 0; step < 80 && longest <= 2048; step++ {
		legal := known
		if legal == nil || legal.Seat != seat || len(legal.Actions) == 0 {
			resp := s.Get(tb.path("/legal-actions"), append(auth(tb.tokens[seat]), identity...)...)
			check("GET legal-actions", resp, http.StatusOK)
			longest = max(longest, len(resp.Body))
			legal = &legalList{}
			resp.JSON(t, legal)
		}
		if len(legal.Actions) == 0 {
			t.Fatalf("step %d: seat %d is to act with no legal actions", step, seat)
		}
		resp := s.Post(tb.path("/actions?include=legal_actions"), []byte(legal.Actions[0].Action), append(auth(tb.tokens[seat]), identity...)...)
		check("POST actions?include=legal_actions", resp, http.StatusCreated)
		longest = max(longest, len(resp.Body))
		var game json.RawMessage
		var turn struct {
			ToAct []int `json:"to_act"`
		}
		if !field(t, resp.Body, "game", &game) || !field(t, game, "turn", &turn) || len(turn.ToAct) != 1 {
			t.Fatalf("step %d: the answer has no game with one seat to act: %s", step, resp.Body)
		}
		seat, known = turn.ToAct[0], nil
		if included := includedLegal(t, game); included != nil {
			known = &legalList{}
			if err := json.Unmarshal(included, known); err != nil {
				t.Fatal(err)
			}
		}
	}
	if longest <= 2048 {
		t.Fatalf("no answer of over 2 KB in 80 actions (the longest: %d bytes): this test checks nothing", longest)
	}
}
