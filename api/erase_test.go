package api_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"primegames.dev/client"
)

// A removed student's name becomes a placeholder everywhere it showed, the cached game view included;
// the history and the class's statistics stay as they were.
func TestEraseRemovedStudent(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	class := h.newClassroom(t, "5C", "Ada", "Ben", "Cy")
	teacher := bearer(class.teacher)
	game := h.createIn(t, class, "primed", "Ada", "Ben")
	h.createIn(t, class, "primed", "Ben", "Cy")

	// The seat not to act tries (a refusal kept for the teacher); then the seat to act acts.
	view := h.game(t, game, class.teacher)
	toAct := view.Turn.ToAct[0]
	seatName := map[int]string{0: "Ada", 1: "Ben"}
	waiting := class.students[seatName[1-toAct]].token
	if resp := h.act(t, game, waiting, map[string]string{"type": "draw"}); resp.StatusCode == http.StatusOK {
		t.Fatalf("the waiting seat acted: %s", resp.Body)
	}
	h.actFirstLegal(t, game, class.students[seatName[toAct]].token)
	historyBefore := h.Get("/v1/games/"+game+"/actions", teacher...).Body

	resp := h.Post("/v1/classrooms/"+class.id+"/students/"+class.students["Ada"].id+"/erase", nil, teacher...)
	if resp.StatusCode != http.StatusConflict || resp.Problem(t).Code != "student_not_removed" {
		t.Fatalf("erasing a current student = %d %s, want 409 student_not_removed", resp.StatusCode, resp.Body)
	}
	for _, name := range []string{"Ada", "Ben"} {
		if resp := h.Do(h.Request("DELETE", "/v1/classrooms/"+class.id+"/students/"+class.students[name].id, nil, teacher...)); resp.StatusCode != http.StatusNoContent {
			t.Fatalf("remove %s = %d", name, resp.StatusCode)
		}
	}
	var statsRemoved client.ClassroomStats
	h.Get("/v1/classrooms/"+class.id+"/stats", teacher...).JSON(t, &statsRemoved)

	for i, name := range []string{"Ada", "Ben", "Ada"} {
		resp := h.Post("/v1/classrooms/"+class.id+"/students/"+class.students[name].id+"/erase", nil, teacher...)
		var erased client.Student
		resp.JSON(t, &erased)
		want := map[int]string{0: "Erased student 1", 1: "Erased student 2", 2: "Erased student 1"}[i]
		if resp.StatusCode != http.StatusOK || erased.Name != want {
			t.Fatalf("erase %s = %d %+v, want 200 %q (erasing again changes nothing)", name, resp.StatusCode, erased, want)
		}
	}

	everywhere := map[string][]byte{
		"game view":       h.Get("/v1/games/"+game, teacher...).Body,
		"attempts":        h.Get("/v1/games/"+game+"/attempts", teacher...).Body,
		"classroom games": h.Get("/v1/classrooms/"+class.id+"/games", teacher...).Body,
		"stats":           h.Get("/v1/classrooms/"+class.id+"/stats", teacher...).Body,
		"stats CSV":       h.Get("/v1/classrooms/"+class.id+"/stats", append(teacher, "Accept", "text/csv")...).Body,
		"history":         h.Get("/v1/games/"+game+"/actions", teacher...).Body,
	}
	for where, body := range everywhere {
		for _, name := range []string{"Ada", "Ben"} {
			if strings.Contains(string(body), name) {
				t.Errorf("%s still names %s: %s", where, name, body)
			}
		}
	}
	after := h.game(t, game, class.teacher)
	if names := []string{after.Seats[0].Name, after.Seats[1].Name}; !slices.Contains(names, "Erased student 1") || !slices.Contains(names, "Erased student 2") {
		t.Errorf("the cached game's seats = %v, want the placeholders", names)
	}
	if string(everywhere["history"]) != string(historyBefore) {
		t.Errorf("the history changed:\n%s\n%s", historyBefore, everywhere["history"])
	}
	var statsErased client.ClassroomStats
	h.Get("/v1/classrooms/"+class.id+"/stats", teacher...).JSON(t, &statsErased)
	if a, b := mustJSON(t, statsRemoved), mustJSON(t, statsErased); a != b {
		t.Errorf("erasing changed the statistics:\n%s\n%s", a, b)
	}
}

// actFirstLegal has the token's seat take the first of its legal actions.
func (h *gamesHarness) actFirstLegal(t *testing.T, game, token string) {
	t.Helper()
	var legal client.LegalActions
	h.Get("/v1/games/"+game+"/legal-actions", bearer(token)...).JSON(t, &legal)
	var entries []struct {
		Action json.RawMessage `json:"action"`
	}
	if err := json.Unmarshal(legal.Actions, &entries); err != nil || len(entries) == 0 {
		t.Fatalf("legal actions %s: %v", legal.Actions, err)
	}
	if resp := h.act(t, game, token, entries[0].Action); resp.StatusCode != http.StatusCreated {
		t.Fatalf("act = %d %s", resp.StatusCode, resp.Body)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
