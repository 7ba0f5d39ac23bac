package api_test

import (
	"net/http"
	"testing"
	"time"

	"primegames/api/openapi"
)

// signedIn signs a teacher in through the rig's provider and returns the account token.
func (r *signInRig) signedIn(subject string) string {
	r.t.Helper()
	resp := r.callback(r.b, r.login(r.a, teacher{subject: subject, name: subject}))
	if resp.StatusCode != http.StatusOK {
		r.t.Fatalf("sign-in = %d: %s", resp.StatusCode, resp.Body)
	}
	var signed openapi.SignedIn
	resp.JSON(r.t, &signed)
	return signed.Token
}

// Named account tokens: made, listed, revoked; a revoked token stops working at once and ends the
// stream it holds, on the other instance too.
func TestAccountTokensListedAndRevoked(t *testing.T) {
	t.Parallel()
	r := newSignInRig(t)
	first := r.signedIn("t-tokens")
	made := r.a.Post("/v1/me/tokens", map[string]any{"name": "Class dashboard", "expires_in": 3600}, bearer(first)...)
	if made.StatusCode != http.StatusCreated {
		t.Fatalf("create token = %d: %s", made.StatusCode, made.Body)
	}
	var second openapi.CreatedAccountToken
	made.JSON(t, &second)
	if second.Info.Name != "Class dashboard" || second.Info.ExpiresAt.Sub(second.Info.CreatedAt) != time.Hour {
		t.Fatalf("made %+v", second.Info)
	}
	var list openapi.AccountTokenList
	r.b.Get("/v1/me/tokens", bearer(second.Token)...).JSON(t, &list)
	names := map[string]bool{}
	for _, tok := range list.Tokens {
		names[tok.Name] = true
	}
	if len(list.Tokens) != 2 || !names["sign-in"] || !names["Class dashboard"] {
		t.Fatalf("tokens = %+v", list)
	}

	var room openapi.CreatedClassroom
	r.a.Post("/v1/classrooms", map[string]string{"name": "Class 5A"}, bearer(first)...).JSON(t, &room)
	stream := openEvStream(t, r.b.URL, "/v1/classrooms/"+room.Classroom.Id.String()+"/events", bearer(second.Token)...)

	if resp := r.a.Do(r.a.Request(http.MethodDelete, "/v1/me/tokens/"+second.Info.Id.String(), nil, bearer(first)...)); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("revoke = %d: %s", resp.StatusCode, resp.Body)
	}
	stream.untilRevoked(t, "token_revoked")
	if resp := r.b.Get("/v1/me", bearer(second.Token)...); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("/v1/me with a revoked token = %d", resp.StatusCode)
	}
	if resp := r.b.Do(r.b.Request(http.MethodDelete, "/v1/me/tokens/"+second.Info.Id.String(), nil, bearer(first)...)); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("revoking again = %d, want 404", resp.StatusCode)
	}
	// An hour on, by the service's clock, the second would have expired; the first still works.
	r.clock.Advance(2 * time.Hour)
	if resp := r.a.Get("/v1/me/tokens", bearer(first)...); resp.StatusCode != http.StatusOK {
		t.Fatalf("/v1/me/tokens = %d", resp.StatusCode)
	}
	r.noErrorLines()
}

// An account runs its own classrooms only; a classroom made with the admin token is attached with
// its teacher token, which keeps working; another account's is refused.
func TestAccountClassroomsAndAttaching(t *testing.T) {
	t.Parallel()
	r := newSignInRig(t)
	ada, ben := r.signedIn("t-ada"), r.signedIn("t-ben")

	var bens openapi.CreatedClassroom
	r.a.Post("/v1/classrooms", map[string]string{"name": "Ben's class"}, bearer(ben)...).JSON(t, &bens)
	bensPath := "/v1/classrooms/" + bens.Classroom.Id.String()
	if resp := r.a.Get(bensPath, bearer(ada)...); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("another account's classroom = %d, want 404: %s", resp.StatusCode, resp.Body)
	}
	if resp := r.a.Get(bensPath, bearer(ben)...); resp.StatusCode != http.StatusOK {
		t.Fatalf("own classroom = %d: %s", resp.StatusCode, resp.Body)
	}
	if resp := r.a.Post(bensPath+"/teacher-token", nil, bearer(ben)...); resp.StatusCode != http.StatusForbidden {
		t.Fatalf("rotating the teacher token with an account token = %d, want 403: %s", resp.StatusCode, resp.Body)
	}

	var old openapi.CreatedClassroom
	r.a.Post("/v1/classrooms", map[string]string{"name": "Old class"}, bearer("the-operators-admin-token")...).JSON(t, &old)
	oldPath := "/v1/classrooms/" + old.Classroom.Id.String()
	if resp := r.a.Get(oldPath, bearer(ada)...); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("unattached classroom = %d, want 404", resp.StatusCode)
	}
	if resp := r.a.Post(oldPath+"/owner", map[string]string{"teacher_token": bens.TeacherToken}, bearer(ada)...); resp.StatusCode != http.StatusForbidden {
		t.Fatalf("attaching with another classroom's teacher token = %d, want 403: %s", resp.StatusCode, resp.Body)
	}
	if resp := r.b.Post(oldPath+"/owner", map[string]string{"teacher_token": old.TeacherToken}, bearer(ada)...); resp.StatusCode != http.StatusOK {
		t.Fatalf("attach = %d: %s", resp.StatusCode, resp.Body)
	}
	if resp := r.a.Get(oldPath+"/students", bearer(ada)...); resp.StatusCode != http.StatusOK {
		t.Fatalf("attached classroom with the account token = %d: %s", resp.StatusCode, resp.Body)
	}
	if resp := r.a.Get(oldPath, bearer(old.TeacherToken)...); resp.StatusCode != http.StatusOK {
		t.Fatalf("the teacher token after attaching = %d", resp.StatusCode)
	}
	if resp := r.a.Post(oldPath+"/owner", map[string]string{"teacher_token": old.TeacherToken}, bearer(ben)...); resp.StatusCode != http.StatusConflict {
		t.Fatalf("attaching another account's classroom = %d, want 409: %s", resp.StatusCode, resp.Body)
	}
	var mine openapi.ClassroomList
	r.a.Get("/v1/me/classrooms", bearer(ada)...).JSON(t, &mine)
	if len(mine.Classrooms) != 1 || mine.Classrooms[0].Id != old.Classroom.Id {
		t.Fatalf("ada's classrooms = %+v", mine)
	}
	if resp := r.a.Get("/v1/me/classrooms", bearer(old.TeacherToken)...); resp.StatusCode != http.StatusForbidden {
		t.Fatalf("/v1/me/classrooms with a teacher token = %d, want 403", resp.StatusCode)
	}
	if resp := r.a.Post("/v1/classrooms", map[string]string{"name": "x"}, bearer("pga_not-a-token")...); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("create with an unknown account token = %d, want 401", resp.StatusCode)
	}
	r.noErrorLines()
}
