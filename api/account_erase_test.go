package api_test

import (
	"net/http"
	"strings"
	"testing"

	"primegames/api/openapi"
)

// DELETE /v1/me erases the account, its tokens and, by default, its classrooms with their
// students and games; keep_classrooms=true detaches them instead, and their teacher tokens go on;
// the streams the account's token held end either way.
func TestEraseMyAccount(t *testing.T) {
	t.Parallel()
	r := newSignInRig(t)

	erased := r.signedIn("t-erased")
	// The provider vouched with an email (t-erased@school.example): no answer and no log line holds it.
	if me := r.a.Get("/v1/me", bearer(erased)...); me.StatusCode != http.StatusOK || strings.Contains(string(me.Body), "@school.example") {
		t.Errorf("GET /v1/me = %d %s, want the account without its email", me.StatusCode, me.Body)
	}
	var room openapi.CreatedClassroom
	r.a.Post("/v1/classrooms", map[string]string{"name": "Class 6E"}, bearer(erased)...).JSON(t, &room)
	var joined openapi.JoinedClassroom
	r.a.Post("/v1/classrooms/join", map[string]string{"join_code": room.Classroom.JoinCode, "name": "Ada"}).JSON(t, &joined)
	r.a.Post("/v1/classrooms/join", map[string]string{"join_code": room.Classroom.JoinCode, "name": "Ben"})
	game := r.a.Post("/v1/classrooms/"+room.Classroom.Id.String()+"/games",
		map[string]any{"game": "primed", "group_size": 2}, bearer(room.TeacherToken)...)
	var made openapi.ClassroomGames
	game.JSON(t, &made)
	if game.StatusCode != http.StatusCreated || len(made.Games) != 1 {
		t.Fatalf("classroom games = %d: %s", game.StatusCode, game.Body)
	}
	gameID := made.Games[0].Id.String()

	if resp := r.b.Do(r.b.Request(http.MethodDelete, "/v1/me", nil, bearer(room.TeacherToken)...)); resp.StatusCode != http.StatusForbidden {
		t.Errorf("a teacher token erasing an account = %d, want 403", resp.StatusCode)
	}
	resp := r.b.Do(r.b.Request(http.MethodDelete, "/v1/me", nil, bearer(erased)...))
	var body openapi.ErasedAccount
	resp.JSON(t, &body)
	if resp.StatusCode != http.StatusOK || body.ErasedClassrooms != 1 {
		t.Fatalf("erase = %d %+v, want 200 with one classroom; %s", resp.StatusCode, body, r.logs.String())
	}
	for name, token := range map[string]string{"account": erased, "teacher": room.TeacherToken, "student": joined.Token} {
		if st := r.a.Get("/v1/me", bearer(token)...).StatusCode; st != http.StatusUnauthorized {
			t.Errorf("the erased %s token = %d, want 401", name, st)
		}
	}
	if st := r.a.Get("/v1/games/"+gameID, bearer(r.signedIn("t-other"))...).StatusCode; st != http.StatusNotFound {
		t.Errorf("an erased classroom's game = %d, want 404", st)
	}
	if resp := r.b.Do(r.b.Request(http.MethodDelete, "/v1/me", nil, bearer(erased)...)); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("erasing again = %d, want 401", resp.StatusCode)
	}

	kept := r.signedIn("t-kept")
	var keptRoom openapi.CreatedClassroom
	r.a.Post("/v1/classrooms", map[string]string{"name": "Class 6K"}, bearer(kept)...).JSON(t, &keptRoom)
	// The classroom goes on, but the stream the erased account holds of it (on the other instance) ends.
	stream := openEvStream(t, r.b.URL, "/v1/classrooms/"+keptRoom.Classroom.Id.String()+"/events", bearer(kept)...)
	resp = r.a.Do(r.a.Request(http.MethodDelete, "/v1/me?keep_classrooms=true", nil, bearer(kept)...))
	resp.JSON(t, &body)
	if resp.StatusCode != http.StatusOK || body.ErasedClassrooms != 0 {
		t.Fatalf("erase keeping classrooms = %d %+v", resp.StatusCode, body)
	}
	if st := r.a.Get("/v1/classrooms/"+keptRoom.Classroom.Id.String(), bearer(keptRoom.TeacherToken)...).StatusCode; st != http.StatusOK {
		t.Errorf("a kept classroom's teacher token = %d, want 200", st)
	}
	if st := r.a.Get("/v1/me", bearer(kept)...).StatusCode; st != http.StatusUnauthorized {
		t.Errorf("the erased account's token = %d, want 401", st)
	}
	stream.untilRevoked(t, "token_revoked")
	r.noErrorLines()
	if strings.Contains(r.logs.String(), "@school.example") {
		t.Errorf("a log line holds a teacher's email")
	}
}
