package api_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"primegames/api/apitest"
	"primegames/repo/repotest"
)

// include=legal_actions puts the caller's legal actions in the game body, exactly as
// GET …/legal-actions answers them, so that a client needs one request instead of two.

// includedLegal returns the legal_actions member of a game body, nil when absent.
func includedLegal(t *testing.T, game json.RawMessage) json.RawMessage {
	t.Helper()
	var legal json.RawMessage
	if !field(t, game, "legal_actions", &legal) {
		return nil
	}
	return legal
}

// legalActionsAsListed is the body of GET …/legal-actions for token.
func legalActionsAsListed(t *testing.T, s *apitest.Server, path, token string) json.RawMessage {
	t.Helper()
	resp := s.Get(path+"/legal-actions", auth(token)...)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s/legal-actions = %d: %s", path, resp.StatusCode, resp.Body)
	}
	return resp.Body
}

func TestGetGameIncludesTheCallersLegalActions(t *testing.T) {
	t.Parallel()
	db := repotest.NewDB(t)
	s := apitest.Start(t, newServer(t, db))
	tb := newTable(t, s, db, "prime-climb", nil, 2, 31)
	mover := tb.toAct()
	other := 1 - mover

	for _, seat := range []int{mover, other} {
		resp := s.Get(tb.path("?include=legal_actions"), auth(tb.tokens[seat])...)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET ?include=legal_actions (seat %d) = %d: %s", seat, resp.StatusCode, resp.Body)
		}
		got := includedLegal(t, resp.Body)
		want := legalActionsAsListed(t, s, tb.path(""), tb.tokens[seat])
		if got == nil || !jsonEqual(got, want) {
			t.Errorf("seat %d: legal_actions = %s, want what GET legal-actions lists: %s", seat, got, want)
		}
		var l struct{ Actions []json.RawMessage }
		if err := json.Unmarshal(got, &l); err != nil {
			t.Fatal(err)
		}
		if (seat == mover) != (len(l.Actions) > 0) {
			t.Errorf("seat %d (mover %d) has %d legal actions", seat, mover, len(l.Actions))
		}
	}

	// Not asked, or no seat to have legal actions: the member is absent, and the rest is unchanged.
	plain := s.Get(tb.path(""), auth(tb.tokens[mover])...)
	if includedLegal(t, plain.Body) != nil {
		t.Errorf("GET without include has legal_actions: %s", plain.Body)
	}
	anon := s.Get(tb.path("?include=legal_actions"))
	if anon.StatusCode != http.StatusOK || includedLegal(t, anon.Body) != nil {
		t.Errorf("anonymous GET ?include=legal_actions = %d with legal_actions: %s", anon.StatusCode, anon.Body)
	}

	bad := s.Get(tb.path("?include=everything"), auth(tb.tokens[mover])...)
	if bad.StatusCode != http.StatusBadRequest || bad.Problem(t).Code != "invalid" {
		t.Errorf("GET ?include=everything = %d, want 400 invalid: %s", bad.StatusCode, bad.Body)
	}
}

// PC-4: a roll is followed by the same player's move, whose choices the roll's response carries.
func TestPostActionIncludesTheNextLegalActions(t *testing.T) {
	t.Parallel()
	db := repotest.NewDB(t)
	s := apitest.Start(t, newServer(t, db))
	tb := newTable(t, s, db, "prime-climb", nil, 2, 32)
	mover := tb.toAct()
	token := tb.tokens[mover]
	roll := []byte(`{"type":"roll"}`)
	key := []string{"Idempotency-Key", "include-roll"}

	rolled := s.Post(tb.path("/actions?include=legal_actions"), roll, append(auth(token), key...)...)
	if rolled.StatusCode != http.StatusCreated {
		t.Fatalf("POST roll ?include=legal_actions = %d: %s", rolled.StatusCode, rolled.Body)
	}
	var result struct {
		Game json.RawMessage `json:"game"`
	}
	rolled.JSON(t, &result)
	var turn struct {
		ToAct []int `json:"to_act"`
	}
	field(t, result.Game, "turn", &turn)
	if len(turn.ToAct) != 1 || turn.ToAct[0] != mover {
		t.Fatalf("after the roll to_act = %v, want the roller %d (PC-4)", turn.ToAct, mover)
	}
	got := includedLegal(t, result.Game)
	want := legalActionsAsListed(t, s, tb.path(""), token)
	if got == nil || !jsonEqual(got, want) {
		t.Fatalf("the roll's legal_actions = %s, want what GET legal-actions lists now: %s", got, want)
	}
	var moves struct {
		Version int64
		Actions []climbLegal
	}
	if err := json.Unmarshal(got, &moves); err != nil {
		t.Fatal(err)
	}
	if len(moves.Actions) == 0 || moves.Version != tb.version+1 {
		t.Fatalf("the roll's legal_actions: %d actions at version %d, want some at %d", len(moves.Actions), moves.Version, tb.version+1)
	}

	// The move passes the turn: the mover's legal actions are then empty.
	moved := s.Post(tb.path("/actions?include=legal_actions"), []byte(moves.Actions[0].Action), auth(token)...)
	if moved.StatusCode != http.StatusCreated {
		t.Fatalf("POST move = %d: %s", moved.StatusCode, moved.Body)
	}
	moved.JSON(t, &result)
	field(t, result.Game, "turn", &turn)
	after := includedLegal(t, result.Game)
	if !jsonEqual(after, legalActionsAsListed(t, s, tb.path(""), token)) {
		t.Errorf("the move's legal_actions = %s, differ from GET legal-actions", after)
	}
	var l struct{ Actions []json.RawMessage }
	if err := json.Unmarshal(after, &l); err != nil {
		t.Fatal(err)
	}
	if len(turn.ToAct) == 1 && turn.ToAct[0] != mover && len(l.Actions) != 0 {
		t.Errorf("seat %d is to act, yet the mover's legal_actions list %d actions", turn.ToAct[0], len(l.Actions))
	}

	// A retry of the roll answers as the first response did: the moves right after the roll.
	retried := s.Post(tb.path("/actions?include=legal_actions"), roll, append(auth(token), key...)...)
	if retried.StatusCode != http.StatusCreated || string(retried.Body) != string(rolled.Body) {
		t.Errorf("retried roll = %d, differs from the first response:\n%s\nfirst:\n%s", retried.StatusCode, retried.Body, rolled.Body)
	}

	// Without include, the response has no legal_actions.
	tb.version += 2
	tb.game = tb.get(token)
	next := tb.toAct()
	var first climbLegal
	if err := json.Unmarshal(tb.legal(next)[0], &first); err != nil {
		t.Fatal(err)
	}
	plain := s.Post(tb.path("/actions"), []byte(first.Action), auth(tb.tokens[next])...)
	if plain.StatusCode != http.StatusCreated {
		t.Fatalf("POST %s = %d: %s", first.Action, plain.StatusCode, plain.Body)
	}
	plain.JSON(t, &result)
	if includedLegal(t, result.Game) != nil {
		t.Errorf("POST without include has legal_actions: %s", result.Game)
	}
}
