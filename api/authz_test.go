package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"testing"

	"primegames.dev/client"
	"primegames/api/apitest"
)

type classroomFixture struct {
	id, teacher string
	students    map[string]studentFixture // by name
}

type studentFixture struct{ id, token string }

func (h *gamesHarness) newClassroom(t *testing.T, name string, students ...string) classroomFixture {
	t.Helper()
	return newClassroomOn(t, h.Server, name, students...)
}

// newClassroomOn creates a classroom named name through s and joins the students to it in this order.
func newClassroomOn(t *testing.T, s *apitest.Server, name string, students ...string) classroomFixture {
	t.Helper()
	resp := s.Post("/v1/classrooms", map[string]string{"name": name})
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("create classroom = %d %s", resp.StatusCode, resp.Body)
	}
	var created client.CreatedClassroom
	resp.JSON(t, &created)
	c := classroomFixture{id: created.Classroom.Id.String(), teacher: created.TeacherToken, students: map[string]studentFixture{}}
	for _, student := range students {
		resp := s.Post("/v1/classrooms/join", map[string]string{"join_code": created.Classroom.JoinCode, "name": student})
		if resp.StatusCode != http.StatusCreated {
			t.Fatalf("join classroom = %d %s", resp.StatusCode, resp.Body)
		}
		var joined client.JoinedClassroom
		resp.JSON(t, &joined)
		c.students[student] = studentFixture{id: joined.Student.Id.String(), token: joined.Token}
	}
	return c
}

// hiddenLeaks lists every place in a JSON body where a card hidden from seat shows (PR-8): another
// seat's hand, another seat's drawn card, the draw pile's order, recorded random values.
func hiddenLeaks(seat int, body []byte) []string {
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		return []string{"not JSON"}
	}
	var leaks []string
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch x := v.(type) {
		case []any:
			for i, e := range x {
				walk(fmt.Sprintf("%s[%d]", path, i), e)
			}
		case map[string]any:
			owner, hasSeat := x["seat"].(float64)
			if _, isHand := x["size"]; isHand && hasSeat && int(owner) != seat && x["cards"] != nil {
				leaks = append(leaks, path+": another seat's hand")
			}
			if _, isDraw := x["can_play"]; isDraw && hasSeat && int(owner) != seat && x["card"] != nil {
				leaks = append(leaks, path+": another seat's drawn card")
			}
			if hands, dealt := x["hands"].([]any); dealt && x["hand_sizes"] != nil {
				for i, h := range hands {
					if i != seat && h != nil {
						leaks = append(leaks, fmt.Sprintf("%s.hands[%d]: another seat's dealt hand", path, i))
					}
				}
			}
			for _, secret := range []string{"random", "seed"} {
				if x[secret] != nil {
					leaks = append(leaks, path+"."+secret)
				}
			}
			for _, order := range []string{"draw_pile", "deck"} {
				if _, isList := x[order].([]any); isList {
					leaks = append(leaks, path+"."+order)
				}
			}
			for k, e := range x {
				walk(path+"."+k, e)
			}
		}
	}
	walk("$", v)
	return leaks
}

// TestAuthorizationMatrix asks every game and classroom endpoint as every kind of caller and checks
// the status of each cell, and that no answer shows a card its caller may not see.
func TestAuthorizationMatrix(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	classA := h.newClassroom(t, "4A", "Ada", "Ben", "Cy")
	classB := h.newClassroom(t, "4B", "Dee")
	public := h.create(t, map[string]any{"game": "primed", "public": true, "players": []map[string]string{{"name": "Ada"}, {"name": "Ben"}}})

	resp := h.Post("/v1/games", map[string]any{"game": "primed", "players": []map[string]string{
		{"student_id": classA.students["Ada"].id}, {"student_id": classA.students["Ben"].id},
	}}, bearer(classA.teacher)...)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("teacher creates a classroom game = %d %s", resp.StatusCode, resp.Body)
	}
	var game client.CreatedGame
	resp.JSON(t, &game)
	id := game.Game.Id.String()
	if len(game.Seats) != 0 || game.Game.Seats[0].Name != "Ada" {
		t.Fatalf("a classroom game's seats have no tokens of their own: %+v", game)
	}
	toAct := h.game(t, id, classA.teacher).Turn.ToAct[0]
	player := map[int]string{0: "Ada", 1: "Ben"}[toAct]

	gameObserver := mintObserver(t, h.Server, "/v1/games/"+id+"/observers", classA.teacher)
	classObserver := mintObserver(t, h.Server, "/v1/classrooms/"+classA.id+"/observers", classA.teacher)
	revoked := mintObserver(t, h.Server, "/v1/games/"+id+"/observers", classA.teacher)
	if resp := h.Do(h.Request("DELETE", "/v1/games/"+id+"/observers/"+revoked.Id.String(), nil, bearer(classA.teacher)...)); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("revoke = %d: %s", resp.StatusCode, resp.Body)
	}

	callers := []struct {
		name, token string
		seat        int // -1: may see no hand
	}{
		{"anonymous", "", -1},
		{"seat token of another game", public.Seats[0].Token, -1},
		{"student of another classroom", classB.students["Dee"].token, -1},
		{"student of this classroom not in the game", classA.students["Cy"].token, -1},
		{"teacher of another classroom", classB.teacher, -1},
		{"the player whose turn it is", classA.students[player].token, toAct},
		{"the classroom's teacher", classA.teacher, 99},
		{"an observer of the game", gameObserver.Token, -1},
		{"an observer of the classroom", classObserver.Token, -1},
		{"a revoked observer", revoked.Token, -1},
	}
	const (
		hidden  = http.StatusNotFound
		noToken = http.StatusUnauthorized
		denied  = http.StatusForbidden
		ok      = http.StatusOK
		created = http.StatusCreated
	)
	// The last three columns: an observer of the game, of its classroom, and a revoked one.
	gameOnly := []int{hidden, hidden, hidden, hidden, hidden, ok, ok, ok, ok, hidden}
	classroom := []int{noToken, noToken, noToken, noToken, hidden, noToken, ok, noToken, noToken, noToken}
	classroomCreated := []int{noToken, noToken, noToken, noToken, hidden, noToken, created, noToken, noToken, noToken}
	rows := []struct {
		method, path string
		body         any
		want         []int
	}{
		{"GET", "/v1/games/" + id, nil, gameOnly},
		{"GET", "/v1/games/" + id + "/actions", nil, gameOnly},
		{"GET", "/v1/games/" + id + "/states/0", nil, gameOnly},
		{"GET", "/v1/games/" + id + "/scores", nil, gameOnly},
		{"GET", "/v1/games/" + id + "/legal-actions", nil, []int{hidden, hidden, hidden, hidden, hidden, ok, denied, denied, denied, hidden}},
		{"GET", "/v1/games/" + id + "/attempts", nil, []int{hidden, hidden, hidden, hidden, hidden, denied, ok, denied, denied, hidden}},
		{"GET", "/v1/games/" + id + "/hint", nil, []int{hidden, hidden, hidden, hidden, hidden, ok, denied, denied, denied, hidden}},
		{"GET", "/v1/games/" + id + "/review", nil, []int{hidden, hidden, hidden, hidden, hidden, denied, ok, denied, denied, hidden}},
		{"POST", "/v1/games/" + id + "/actions", map[string]string{"type": "pass"}, []int{hidden, hidden, hidden, hidden, hidden, http.StatusUnprocessableEntity, denied, denied, denied, hidden}},
		{"POST", "/v1/games/" + id + "/players", map[string]string{}, []int{hidden, hidden, hidden, hidden, hidden, http.StatusConflict, denied, denied, denied, hidden}},
		{"GET", "/v1/classrooms/" + classA.id, nil, classroom},
		{"GET", "/v1/classrooms/" + classA.id + "/students", nil, classroom},
		{"GET", "/v1/classrooms/" + classA.id + "/games", nil, classroom},
		{"GET", "/v1/classrooms/" + classA.id + "/stats", nil, classroom},
		{"POST", "/v1/classrooms/" + classA.id + "/join-code", nil, classroom},
		{"PATCH", "/v1/classrooms/" + classA.id + "/students/" + classA.students["Cy"].id, map[string]string{"name": "Cyrus"}, classroom},
		{"POST", "/v1/games/" + id + "/abort", nil, []int{hidden, hidden, hidden, hidden, hidden, denied, ok, denied, denied, hidden}},
		{"GET", "/v1/me/games", nil, []int{noToken, ok, ok, ok, denied, ok, denied, denied, denied, noToken}},
		{"POST", "/v1/games/" + id + "/observers", nil, []int{hidden, hidden, hidden, hidden, hidden, created, created, denied, denied, hidden}},
		{"POST", "/v1/classrooms/" + classA.id + "/observers", nil, classroomCreated},
		{"GET", "/v1/me", nil, []int{noToken, ok, ok, ok, ok, ok, ok, ok, ok, noToken}},
		{"POST", "/v1/classrooms/" + classA.id + "/students/" + classA.students["Cy"].id + "/erase", nil,
			[]int{noToken, noToken, noToken, noToken, hidden, noToken, http.StatusConflict, noToken, noToken, noToken}},
	}
	for _, row := range rows {
		for i, caller := range callers {
			var headers []string
			if caller.token != "" {
				headers = bearer(caller.token)
			}
			resp := h.Do(h.Request(row.method, row.path, row.body, headers...))
			if resp.StatusCode != row.want[i] {
				t.Errorf("%s %s as %s = %d, want %d: %s", row.method, row.path, caller.name, resp.StatusCode, row.want[i], resp.Body)
			}
			if resp.StatusCode == ok && caller.seat != 99 {
				if leaks := hiddenLeaks(caller.seat, resp.Body); len(leaks) > 0 {
					t.Errorf("%s %s as %s shows hidden cards: %v", row.method, row.path, caller.name, leaks)
				}
			}
		}
	}

	// Lists show each caller only what is theirs.
	listed := func(token string) []string {
		var list client.GameList
		var headers []string
		if token != "" {
			headers = bearer(token)
		}
		h.Get("/v1/games", headers...).JSON(t, &list)
		var ids []string
		for _, g := range list.Items {
			ids = append(ids, g.Id.String())
		}
		return ids
	}
	for _, c := range []struct {
		name, token string
		sees        bool
	}{{"anonymous", "", false}, {"student not in it", classA.students["Cy"].token, false}, {"other classroom", classB.teacher, false},
		{"player", classA.students["Ben"].token, true}, {"teacher", classA.teacher, true},
		{"observer of the classroom", classObserver.Token, true}, {"observer of the game", gameObserver.Token, false}} {
		if got := slices.Contains(listed(c.token), id); got != c.sees {
			t.Errorf("GET /v1/games as %s lists the classroom game: %v, want %v", c.name, got, c.sees)
		}
	}
	if !slices.Contains(listed(""), public.Game.Id.String()) {
		t.Error("anonymous list misses the public game")
	}

	// A removed student's token stops working.
	ben := classA.students["Ben"]
	if resp := h.Do(h.Request("DELETE", "/v1/classrooms/"+classA.id+"/students/"+ben.id, nil, bearer(classA.teacher)...)); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("remove student = %d", resp.StatusCode)
	}
	if resp := h.Get("/v1/games/"+id, bearer(ben.token)...); resp.StatusCode != hidden {
		t.Errorf("removed student's token = %d, want 404", resp.StatusCode)
	}
	if resp := h.Get("/v1/games", bearer(ben.token)...); resp.StatusCode != noToken {
		t.Errorf("removed student's token on the list = %d, want 401", resp.StatusCode)
	}
}

func TestUnauthorizedNamesTheBearerScheme(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	c := newPrimedGame(t, h)
	path := "/v1/games/" + c.Game.Id.String()
	for _, resp := range []*apitest.Response{
		h.Get(path + "/legal-actions"),
		h.Get(path+"/legal-actions", bearer("pgs_nope")...),
		h.Get(path + "/events?access_token=pgs_nope"),
	} {
		if resp.StatusCode != http.StatusUnauthorized || resp.Header.Get("WWW-Authenticate") != "Bearer" {
			t.Errorf("%s %s = %d with WWW-Authenticate %q, want 401 with Bearer",
				resp.Request.Method, resp.Request.URL.Path, resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
		}
	}
}

// mintObserver mints an observer token at path (a game's or a classroom's) with token.
func mintObserver(t *testing.T, s *apitest.Server, path, token string) client.ObserverToken {
	t.Helper()
	resp := s.Post(path, nil, bearer(token)...)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("POST %s = %d: %s", path, resp.StatusCode, resp.Body)
	}
	var o client.ObserverToken
	resp.JSON(t, &o)
	return o
}
