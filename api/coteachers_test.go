package api_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"primegames/api"
	"primegames/api/openapi"
)

// A classroom's owner invites a co-teacher by a one-time code; the co-teacher's account then runs
// the classroom and its games; only the owner invites and removes; removing ends the co-teacher's
// streams (on the other instance too); used, made-up and expired codes are refused, and counted as
// guesses (three an hour from an address here).
func TestCoTeachers(t *testing.T) {
	t.Parallel()
	r := newSignInRig(t, func(cfg *api.Config) {
		cfg.Guesses = api.GuessLimits{PerAddress: 3, PerAddressWindow: time.Hour, PerInstance: 100, PerInstanceWindow: time.Minute}
	})
	ada, ben, cy := r.signedIn("t-ada"), r.signedIn("t-ben"), r.signedIn("t-cy")
	var room openapi.CreatedClassroom
	r.a.Post("/v1/classrooms", map[string]string{"name": "Shared class"}, bearer(ada)...).JSON(t, &room)
	c := "/v1/classrooms/" + room.Classroom.Id.String()
	var joined openapi.JoinedClassroom
	r.a.Post("/v1/classrooms/join", map[string]string{"join_code": room.Classroom.JoinCode, "name": "Ann"}).JSON(t, &joined)
	var joined2 openapi.JoinedClassroom
	r.a.Post("/v1/classrooms/join", map[string]string{"join_code": room.Classroom.JoinCode, "name": "Bo"}).JSON(t, &joined2)
	var game openapi.CreatedGame
	r.a.Post("/v1/games", map[string]any{"game": "primed", "players": []map[string]string{
		{"student_id": joined.Student.Id.String()}, {"student_id": joined2.Student.Id.String()}}}, bearer(room.TeacherToken)...).JSON(t, &game)
	g := "/v1/games/" + game.Game.Id.String()

	if resp := r.a.Post(c+"/co-teacher-invites", nil, bearer(ben)...); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("an outsider invites = %d, want 404", resp.StatusCode)
	}
	invite := func(token string) openapi.CoTeacherInvite {
		t.Helper()
		resp := r.a.Post(c+"/co-teacher-invites", nil, bearer(token)...)
		if resp.StatusCode != http.StatusCreated {
			t.Fatalf("invite = %d: %s", resp.StatusCode, resp.Body)
		}
		var inv openapi.CoTeacherInvite
		resp.JSON(t, &inv)
		return inv
	}
	inv := invite(ada)
	if !strings.HasPrefix(inv.Code, "pgi_") || len(inv.Code) < 40 || inv.ExpiresAt.Sub(r.clock.Now()) != 7*24*time.Hour {
		t.Fatalf("invite %+v", inv)
	}
	if resp := r.b.Post("/v1/co-teacher-invites/accept", map[string]string{"code": inv.Code}, bearer(room.TeacherToken)...); resp.StatusCode != http.StatusForbidden || resp.Problem(t).Code != "account_token_required" {
		t.Fatalf("accepting with a teacher token = %d: %s", resp.StatusCode, resp.Body)
	}
	if resp := r.b.Post("/v1/co-teacher-invites/accept", map[string]string{"code": inv.Code}, bearer(ben)...); resp.StatusCode != http.StatusOK {
		t.Fatalf("accept = %d: %s", resp.StatusCode, resp.Body)
	}
	for _, path := range []string{c, c + "/students", g, g + "/review"} {
		if resp := r.a.Get(path, bearer(ben)...); resp.StatusCode != http.StatusOK {
			t.Errorf("co-teacher GET %s = %d", path, resp.StatusCode)
		}
	}
	var bens openapi.ClassroomList
	r.a.Get("/v1/me/classrooms", bearer(ben)...).JSON(t, &bens)
	if len(bens.Classrooms) != 1 || bens.Classrooms[0].Id != room.Classroom.Id {
		t.Fatalf("the co-teacher's classrooms = %+v", bens)
	}
	if resp := r.a.Post("/v1/co-teacher-invites/accept", map[string]string{"code": inv.Code}, bearer(cy)...); resp.StatusCode != http.StatusNotFound || resp.Problem(t).Code != "co_teacher_invite_not_found" {
		t.Fatalf("a used code = %d: %s", resp.StatusCode, resp.Body)
	}
	if resp := r.a.Post(c+"/co-teacher-invites", nil, bearer(ben)...); resp.StatusCode != http.StatusForbidden || resp.Problem(t).Code != "classroom_owner_required" {
		t.Fatalf("a co-teacher invites = %d: %s", resp.StatusCode, resp.Body)
	}
	invite(room.TeacherToken) // the teacher token is the owner's too

	var list openapi.ClassroomTeacherList
	r.b.Get(c+"/teachers", bearer(ben)...).JSON(t, &list)
	if len(list.Teachers) != 2 || !list.Teachers[0].Owner || list.Teachers[0].Name != "t-ada" || list.Teachers[1].Owner || list.Teachers[1].Name != "t-ben" {
		t.Fatalf("teachers = %+v", list)
	}
	benID := list.Teachers[1].AccountId.String()
	if resp := r.a.Do(r.a.Request(http.MethodDelete, c+"/teachers/"+benID, nil, bearer(ben)...)); resp.StatusCode != http.StatusForbidden {
		t.Fatalf("a co-teacher removes = %d, want 403", resp.StatusCode)
	}

	classStream := openEvStream(t, r.b.URL, c+"/events", bearer(ben)...)
	gameStream := openEvStream(t, r.b.URL, g+"/events", bearer(ben)...)
	if resp := r.a.Do(r.a.Request(http.MethodDelete, c+"/teachers/"+benID, nil, bearer(ada)...)); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("remove = %d: %s", resp.StatusCode, resp.Body)
	}
	classStream.untilRevoked(t, "teacher_removed")
	gameStream.untilRevoked(t, "teacher_removed")
	if resp := r.b.Get(c, bearer(ben)...); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("a removed co-teacher reads the classroom = %d, want 404", resp.StatusCode)
	}
	if resp := r.a.Do(r.a.Request(http.MethodDelete, c+"/teachers/"+benID, nil, bearer(ada)...)); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("removing again = %d, want 404", resp.StatusCode)
	}

	late := invite(ada)
	r.clock.Advance(7*24*time.Hour + time.Second)
	for _, code := range []string{late.Code, "pgi_made-up"} { // the used code above was the first wrong one
		if resp := r.a.Post("/v1/co-teacher-invites/accept", map[string]string{"code": code}, bearer(cy)...); resp.StatusCode != http.StatusNotFound {
			t.Fatalf("code %q = %d, want 404: %s", code, resp.StatusCode, resp.Body)
		}
	}
	if resp := r.a.Post("/v1/co-teacher-invites/accept", map[string]string{"code": "pgi_fourth"}, bearer(cy)...); resp.StatusCode != http.StatusTooManyRequests || resp.Problem(t).Code != "too_many_guesses" {
		t.Fatalf("a fourth wrong code = %d, want 429 too_many_guesses: %s", resp.StatusCode, resp.Body)
	}
	r.noErrorLines()
}

// A co-teacher removed while the instances missed the notice (the row deleted with its trigger
// off, as a notice lost while a listener reconnects) is found by the heartbeat's check of the
// authorities the streams hold: the co-teacher's classroom stream ends all the same.
func TestCoTeacherRemovedUnheardEndsTheStreamOnTheHeartbeat(t *testing.T) {
	t.Parallel()
	r := newSignInRig(t, func(cfg *api.Config) { cfg.StreamHeartbeat = 200 * time.Millisecond })
	ada, ben := r.signedIn("t-ada"), r.signedIn("t-ben")
	var room openapi.CreatedClassroom
	r.a.Post("/v1/classrooms", map[string]string{"name": "Shared class"}, bearer(ada)...).JSON(t, &room)
	c := "/v1/classrooms/" + room.Classroom.Id.String()
	var inv openapi.CoTeacherInvite
	r.a.Post(c+"/co-teacher-invites", nil, bearer(ada)...).JSON(t, &inv)
	if resp := r.b.Post("/v1/co-teacher-invites/accept", map[string]string{"code": inv.Code}, bearer(ben)...); resp.StatusCode != http.StatusOK {
		t.Fatalf("accept = %d: %s", resp.StatusCode, resp.Body)
	}
	stream := openEvStream(t, r.b.URL, c+"/events", bearer(ben)...)

	ctx := context.Background()
	if err := pgx.BeginFunc(ctx, r.db.Pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SET LOCAL session_replication_role = replica`); err != nil { // no trigger fires: no notice
			return err
		}
		_, err := tx.Exec(ctx, `DELETE FROM classroom_co_teachers WHERE classroom_id = $1`, room.Classroom.Id)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	stream.untilRevoked(t, "teacher_removed")
	r.noErrorLines()
}
