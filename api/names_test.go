package api_test

import (
	"net/http"
	"testing"

	"primegames.dev/client"
	"primegames/api/apitest"
)

// Names that look alike, or show nothing, are refused wherever a name is given; names that are the
// same in the nickname profile's comparison form are the same name.
func TestNamesFollowTheNicknameProfile(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	class := h.newClassroom(t, "4C", "Ada", "Ben")
	var room client.Classroom
	h.Get("/v1/classrooms/"+class.id, bearer(class.teacher)...).JSON(t, &room)
	joinClass := func(name string) *apitest.Response {
		return h.Post("/v1/classrooms/join", map[string]string{"join_code": room.JoinCode, "name": name})
	}
	lobby := h.create(t, map[string]any{"game": "primed", "public": true, "seats": 4})
	if resp := h.Post("/v1/games/"+lobby.Game.Id.String()+"/players", map[string]string{"name": "Ada"}); resp.StatusCode != http.StatusCreated {
		t.Fatalf("join lobby = %d %s", resp.StatusCode, resp.Body)
	}
	rename := func(name string) *apitest.Response {
		path := "/v1/classrooms/" + class.id + "/students/" + class.students["Ben"].id
		return h.Do(h.Request(http.MethodPatch, path, map[string]string{"name": name}, bearer(class.teacher)...))
	}
	places := map[string]func(string) *apitest.Response{
		"join a classroom": joinClass,
		"rename a student": rename,
		"join a game": func(name string) *apitest.Response {
			return h.Post("/v1/games/"+lobby.Game.Id.String()+"/players", map[string]string{"name": name})
		},
		"create a game": func(name string) *apitest.Response {
			return h.Post("/v1/games", map[string]any{"game": "primed", "players": []map[string]string{{"name": "Zed"}, {"name": name}}})
		},
		"create a classroom": func(name string) *apitest.Response {
			return h.Post("/v1/classrooms", map[string]string{"name": name})
		},
	}
	for _, name := range []string{"Ada\u200b", "\u202eAda", "\u200b\u200b", "\u0301", "\u0410da", "Ada\u2066"} {
		for place, try := range places {
			if resp := try(name); resp.StatusCode != http.StatusBadRequest || resp.Problem(t).Code != "invalid_name" {
				t.Errorf("%s as %+q = %d %s, want 400 invalid_name", place, name, resp.StatusCode, resp.Body)
			}
		}
	}
	for _, name := range []string{"ADA", "\uff21\uff24\uff21", "  Ada  "} {
		if resp := joinClass(name); resp.StatusCode != http.StatusConflict {
			t.Errorf("join a classroom with Ada as %+q = %d, want 409 name_taken", name, resp.StatusCode)
		}
		if resp := rename(name); resp.StatusCode != http.StatusConflict {
			t.Errorf("rename Ben to Ada as %+q = %d, want 409 name_taken", name, resp.StatusCode)
		}
		if resp := h.Post("/v1/games/"+lobby.Game.Id.String()+"/players", map[string]string{"name": name}); resp.StatusCode != http.StatusConflict {
			t.Errorf("join a game beside Ada as %+q = %d, want 409 name_taken", name, resp.StatusCode)
		}
		create := map[string]any{"game": "primed", "players": []map[string]string{{"name": "Ada"}, {"name": name}}}
		if resp := h.Post("/v1/games", create); resp.StatusCode != http.StatusBadRequest || resp.Problem(t).Code != "name_taken" {
			t.Errorf("create a game with Ada and %+q = %d, want 400 name_taken", name, resp.StatusCode)
		}
	}

	// The name kept is the profile's form: spaces trimmed and folded, characters composed.
	var student client.Student
	resp := h.Do(h.Request(http.MethodPatch, "/v1/classrooms/"+class.id+"/students/"+class.students["Ben"].id,
		map[string]string{"name": "  Zoe\u0308   Li "}, bearer(class.teacher)...))
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("rename = %d %s", resp.StatusCode, resp.Body)
	}
	if resp.JSON(t, &student); student.Name != "Zoë Li" {
		t.Errorf("stored name = %+q, want %+q", student.Name, "Zoë Li")
	}
	if resp := joinClass("ZOË LI"); resp.StatusCode != http.StatusConflict {
		t.Errorf("a second Zoë Li = %d, want 409", resp.StatusCode)
	}
}
