package api_test

import (
	"net/http"
	"strings"
	"testing"

	"primegames/api/openapi"
)

// An account token is its classrooms' teacher everywhere a teacher token is: on the classroom's
// routes and on the routes of the classroom's games (views, pictures, reviews, streams, observers,
// abort), and it is refused on another account's classroom and games as that classroom's teacher
// token of another classroom would be.
func TestAccountTokenOnEveryTeacherEndpoint(t *testing.T) {
	t.Parallel()
	r := newSignInRig(t)
	ada, ben := r.signedIn("t-ada"), r.signedIn("t-ben")
	var classA, classB openapi.CreatedClassroom
	r.a.Post("/v1/classrooms", map[string]string{"name": "Ada's class"}, bearer(ada)...).JSON(t, &classA)
	r.a.Post("/v1/classrooms", map[string]string{"name": "Ben's class"}, bearer(ben)...).JSON(t, &classB)
	var students []string
	for _, name := range []string{"Ann", "Bob"} {
		var joined openapi.JoinedClassroom
		r.a.Post("/v1/classrooms/join", map[string]string{"join_code": classA.Classroom.JoinCode, "name": name}).JSON(t, &joined)
		students = append(students, joined.Student.Id.String())
	}
	resp := r.a.Post("/v1/games", map[string]any{"game": "primed", "players": []map[string]string{
		{"student_id": students[0]}, {"student_id": students[1]},
	}}, bearer(classA.TeacherToken)...)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("teacher creates a game = %d: %s", resp.StatusCode, resp.Body)
	}
	var game openapi.CreatedGame
	resp.JSON(t, &game)
	g := "/v1/games/" + game.Game.Id.String()
	c := "/v1/classrooms/" + classA.Classroom.Id.String()
	var public openapi.CreatedGame
	r.a.Post("/v1/games", map[string]any{"game": "primed", "public": true, "players": []map[string]string{{"name": "X"}, {"name": "Y"}}}).JSON(t, &public)
	p := "/v1/games/" + public.Game.Id.String()

	// The rows that change nothing are asked with the teacher tokens too, which must answer alike.
	rows := []struct {
		method, path string
		body         any
		own, other   int
		changes      bool
	}{
		{"GET", g, nil, 200, 404, false},
		{"GET", g + "/actions", nil, 200, 404, false},
		{"GET", g + "/states/0", nil, 200, 404, false},
		{"GET", g + "/scores", nil, 200, 404, false},
		{"GET", g + "/attempts", nil, 200, 404, false},
		{"GET", g + "/review", nil, 200, 404, false},
		{"GET", g + "/legal-actions", nil, 403, 404, false},
		{"GET", g + "/hint", nil, 403, 404, false},
		{"GET", g + "/picture.svg", nil, 200, 404, false},
		{"GET", g + "/replay.svg", nil, 200, 404, false},
		{"GET", g + "/picture-links", nil, 200, 404, false},
		{"HEAD", g + "/events", nil, 200, 404, false},
		{"HEAD", c + "/events", nil, 200, 404, false},
		{"GET", c, nil, 200, 404, false},
		{"GET", c + "/students", nil, 200, 404, false},
		{"GET", c + "/games", nil, 200, 404, false},
		{"GET", c + "/stats", nil, 200, 404, false},
		{"GET", p, nil, 401, 401, false}, // a token not the game's is refused on a public game
		{"POST", p + "/abort", nil, 401, 401, false},
		{"POST", g + "/actions", map[string]string{"type": "pass"}, 403, 404, true},
		{"POST", g + "/observers", nil, 201, 404, true},
		{"POST", c + "/observers", nil, 201, 404, true},
		{"POST", g + "/abort", nil, 200, 404, true},
	}
	ask := func(method, path string, body any, token string) int {
		return r.a.Do(r.a.Request(method, path, body, bearer(token)...)).StatusCode
	}
	for _, row := range rows {
		// Others first, so that a row that changes the game is refused before it is done.
		if got := ask(row.method, row.path, row.body, ben); got != row.other {
			t.Errorf("%s %s with another account's token = %d, want %d", row.method, row.path, got, row.other)
		}
		if got := ask(row.method, row.path, row.body, ada); got != row.own {
			t.Errorf("%s %s with the owner's account token = %d, want %d", row.method, row.path, got, row.own)
		}
		if row.changes {
			continue
		}
		if got := ask(row.method, row.path, row.body, classB.TeacherToken); got != row.other {
			t.Errorf("%s %s with another classroom's teacher token = %d, want %d", row.method, row.path, got, row.other)
		}
		if got := ask(row.method, row.path, row.body, classA.TeacherToken); got != row.own {
			t.Errorf("%s %s with the classroom's teacher token = %d, want %d", row.method, row.path, got, row.own)
		}
	}
	// POST /v1/games names the classroom by its students: the account that teaches it creates the
	// game there, another account is refused as another classroom's teacher token is.
	players := map[string]any{"game": "primed", "players": []map[string]string{{"student_id": students[0]}, {"student_id": students[1]}}}
	other := ask("POST", "/v1/games", players, classB.TeacherToken)
	if got := ask("POST", "/v1/games", players, ben); got != other || got < 400 {
		t.Errorf("POST /v1/games with another classroom's students and an account token = %d, want %d as a teacher token", got, other)
	}
	var made openapi.CreatedGame
	if resp := r.b.Post("/v1/games", players, bearer(ada)...); resp.StatusCode != http.StatusCreated {
		t.Fatalf("POST /v1/games with the account's students = %d: %s", resp.StatusCode, resp.Body)
	} else {
		resp.JSON(t, &made)
	}
	if got := ask("GET", "/v1/games/"+made.Game.Id.String(), nil, classA.TeacherToken); got != http.StatusOK {
		t.Errorf("the game the account made, with the classroom's teacher token = %d: not the classroom's", got)
	}
	if len(made.Seats) != 0 {
		t.Errorf("a classroom game made with an account token has seat tokens: %+v", made.Seats)
	}
	// An account plays in no game, as a teacher token does not.
	if resp := r.a.Get("/v1/me/games", bearer(ada)...); resp.StatusCode != http.StatusForbidden {
		t.Errorf("/v1/me/games with an account token = %d, want 403 as a teacher token", resp.StatusCode)
	}
	// Pictures and streams take the account token as ?access_token= too.
	if resp := r.b.Get(g + "/picture.svg?access_token=" + ada); resp.StatusCode != http.StatusOK {
		t.Errorf("picture with ?access_token= = %d", resp.StatusCode)
	}
	stream := openEvStream(t, r.b.URL, g+"/events", bearer(ada)...)
	if e := stream.next(t, evWait); e.Event != "action" {
		t.Errorf("the game's stream with the account token opened with %q, want its first action", e.Event)
	}
	r.noErrorLines()
}

// untilRevoked reads the stream until its revoked event, which must give reason, and its end.
func (s *evStream) untilRevoked(t *testing.T, reason string) {
	t.Helper()
	for {
		e := s.next(t, evWait)
		if e.Event == "revoked" {
			if !strings.Contains(e.Data, reason) {
				t.Errorf("revoked for %s, want %s", e.Data, reason)
			}
			break
		}
	}
	s.ended(t, evWait)
}
