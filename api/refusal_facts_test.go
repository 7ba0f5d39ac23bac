package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"testing"

	"primegames.dev/client"
)

// Refusals a program can read: each problem document carries the numbers behind its detail as
// facts, shaped as openapi.yaml declares for its code (apitest checks every one against its schema).

// factsOf decodes a problem's facts, failing when there are none.
func factsOf(t *testing.T, what string, raw json.RawMessage) map[string]any {
	t.Helper()
	if len(raw) == 0 {
		t.Fatalf("%s: the problem has no facts", what)
	}
	var facts map[string]any
	if err := json.Unmarshal(raw, &facts); err != nil {
		t.Fatalf("%s: facts %s: %v", what, raw, err)
	}
	return facts
}

func wantFacts(t *testing.T, what string, raw json.RawMessage, want string) {
	t.Helper()
	var w map[string]any
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatal(err)
	}
	if got := factsOf(t, what, raw); !reflect.DeepEqual(got, w) {
		t.Errorf("%s: facts %v, want %v", what, got, w)
	}
}

func TestRefusalFactsOfTheApplication(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	c := h.create(t, map[string]any{"game": "primed", "players": names(2)})
	id := c.Game.Id.String()
	token, seat := tokenToAct(t, h, c)
	g := h.game(t, id, token)

	stale := h.act(t, id, token, map[string]string{"type": "draw"}, "If-Match", fmt.Sprintf(`"%d"`, g.Version+5))
	if stale.StatusCode != http.StatusPreconditionFailed {
		t.Fatalf("stale If-Match = %d %s", stale.StatusCode, stale.Body)
	}
	wantFacts(t, "version_mismatch", stale.Problem(t).Facts, fmt.Sprintf(`{"current":%d,"sent":%d}`, g.Version, g.Version+5))

	// G-1: only the seat to act acts; the facts say who that is.
	other := 1 - seat
	resp := h.act(t, id, c.Seats[other].Token, map[string]string{"type": "draw"})
	if p := resp.Problem(t); resp.StatusCode != http.StatusConflict || p.Code != "not_your_turn" {
		t.Fatalf("out of turn = %d %s", resp.StatusCode, resp.Body)
	}
	wantFacts(t, "not_your_turn", resp.Problem(t).Facts, fmt.Sprintf(`{"seat":%d,"to_act":[%d]}`, other, seat))

	// PR-1: the deck decides how many play.
	resp = h.Post("/v1/games", map[string]any{"game": "primed", "options": map[string]any{"deck": "standard"}, "players": names(6)})
	if p := resp.Problem(t); resp.StatusCode != http.StatusBadRequest || p.Code != "invalid_seat_count" {
		t.Fatalf("six on the standard deck = %d %s", resp.StatusCode, resp.Body)
	}
	wantFacts(t, "invalid_seat_count", resp.Problem(t).Facts, `{"min":2,"max":5,"seats":6}`)

	// PC-1: Prime Climb takes one to four players, so groups of five do not fit.
	class := h.newClassroom(t, "Class 2B", "Ada", "Ben", "Cy", "Dee", "Eve")
	resp = h.Post("/v1/classrooms/"+class.id+"/games", map[string]any{"game": "prime-climb", "group_size": 5}, bearer(class.teacher)...)
	if p := resp.Problem(t); resp.StatusCode != http.StatusBadRequest || p.Code != "invalid_seat_count" {
		t.Fatalf("groups of five = %d %s", resp.StatusCode, resp.Body)
	}
	wantFacts(t, "invalid_seat_count", resp.Problem(t).Facts, `{"min":1,"max":4,"seats":5}`)

	lobby := h.create(t, map[string]any{"game": "prime-climb", "public": true, "seats": 1})
	if resp := h.Post("/v1/games/"+lobby.Game.Id.String()+"/players", map[string]string{"name": "Solo"}); resp.StatusCode != http.StatusCreated {
		t.Fatal(resp.StatusCode)
	}
	resp = h.Post("/v1/games/"+lobby.Game.Id.String()+"/players", map[string]string{"name": "Late"})
	wantFacts(t, "game_full", resp.Problem(t).Facts, `{"max":1,"seats":1}`)

	// A refusal that no numbers explain has no facts.
	if p := h.Get("/v1/games/00000000-0000-4000-8000-000000000000").Problem(t); len(p.Facts) != 0 {
		t.Errorf("game_not_found has facts %s", p.Facts)
	}
}

// PR-4 over HTTP: a miss's facts give the top, the cards, the total and its factors, and the teacher's
// review of the attempts gives the same facts back.
func TestRefusalFactsOfAPrimedMissAreKeptForReview(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	class := h.newClassroom(t, "Class 4F", "Ada", "Ben")
	// A deal whose hand makes a prime with every card on the top has no miss to send: deal again.
	var id string
	var seat int
	var actor studentFixture
	var v client.PrimedView
	for deal := 0; ; deal++ {
		if deal == 20 {
			t.Fatal("20 deals without a card that misses a prime")
		}
		resp := h.Post("/v1/games", map[string]any{"game": "primed", "players": []map[string]string{
			{"student_id": class.students["Ada"].id}, {"student_id": class.students["Ben"].id},
		}}, bearer(class.teacher)...)
		if resp.StatusCode != http.StatusCreated {
			t.Fatalf("create = %d: %s", resp.StatusCode, resp.Body)
		}
		var c client.CreatedGame
		resp.JSON(t, &c)
		id = c.Game.Id.String()
		seat = h.game(t, id, class.teacher).Turn.ToAct[0]
		actor = class.students[[]string{"Ada", "Ben"}[seat]]
		if err := json.Unmarshal(h.game(t, id, actor.token).State, &v); err != nil {
			t.Fatal(err)
		}
		if slices.ContainsFunc(*v.Hands[seat].Cards, func(card int) bool { return !isPrimeNumber(v.Top + card) }) {
			break
		}
	}
	top := v.Top
	var sent []json.RawMessage
	for _, card := range *v.Hands[seat].Cards {
		if isPrimeNumber(top + card) {
			continue
		}
		resp := h.act(t, id, actor.token, map[string]any{"type": "play", "cards": []int{card}})
		if p := resp.Problem(t); resp.StatusCode != http.StatusUnprocessableEntity || p.Code != "not_prime" {
			t.Fatalf("play %d on %d = %d %s", card, top, resp.StatusCode, resp.Body)
		}
		p := resp.Problem(t)
		facts := factsOf(t, "not_prime", p.Facts)
		total := top + card
		if facts["top"] != float64(top) || !reflect.DeepEqual(facts["cards"], []any{float64(card)}) || facts["total"] != float64(total) {
			t.Errorf("play %d on %d: facts %v", card, top, facts)
		}
		product := 1
		for _, f := range facts["factors"].([]any) {
			product *= int(f.(float64))
		}
		if product != total || len(facts["factors"].([]any)) < 2 {
			t.Errorf("play %d on %d: factors %v do not make the composite %d", card, top, facts["factors"], total)
		}
		sent = append(sent, p.Facts)
	}
	var list client.AttemptList
	if resp := h.Get("/v1/games/"+id+"/attempts", bearer(class.teacher)...); resp.StatusCode != http.StatusOK {
		t.Fatalf("attempts = %d %s", resp.StatusCode, resp.Body)
	} else {
		resp.JSON(t, &list)
	}
	var kept []json.RawMessage
	for _, a := range list.Items {
		if a.Facts != nil {
			kept = append(kept, json.RawMessage(*a.Facts))
		}
	}
	if !slices.EqualFunc(kept, sent, func(a, b json.RawMessage) bool { return jsonEqual(a, b) }) {
		t.Errorf("the review's facts %s, the refusals gave %s", kept, sent)
	}
}
