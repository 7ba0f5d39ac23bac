package api_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"primegames.dev/client"
)

const strongKey = "6f1d3c2a-9b8e-4d7f-a5c4-3e2b1a0f9d8c"

func withKey(token, key string) []string { return append(bearer(token), "Idempotency-Key", key) }

// createIn has the classroom's teacher start a game of kind for the named students, seated in this
// order, and returns its id.
func (h *gamesHarness) createIn(t *testing.T, class classroomFixture, kind string, students ...string) string {
	t.Helper()
	players := make([]map[string]string, len(students))
	for i, name := range students {
		players[i] = map[string]string{"student_id": class.students[name].id}
	}
	resp := h.Post("/v1/games", map[string]any{"game": kind, "players": players}, bearer(class.teacher)...)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("teacher creates a %s game = %d %s", kind, resp.StatusCode, resp.Body)
	}
	var created client.CreatedGame
	resp.JSON(t, &created)
	return created.Game.Id.String()
}

// A teacher gives a student a new token: the old one is refused at once, the new one opens the
// student's games, and a retry with the same key gets the same token.
func TestReissueStudentToken(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	class := h.newClassroom(t, "5A", "Ada", "Ben")
	ada := class.students["Ada"]
	game := h.createIn(t, class, "primed", "Ada", "Ben")
	path := "/v1/classrooms/" + class.id + "/students/" + ada.id + "/token"

	if resp := h.Post(path, nil, bearer(ada.token)...); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("a student reissuing their own token = %d, want 401", resp.StatusCode)
	}
	other := h.newClassroom(t, "5Z")
	if resp := h.Post(path, nil, bearer(other.teacher)...); resp.StatusCode != http.StatusNotFound {
		t.Errorf("another classroom's teacher reissuing = %d, want 404", resp.StatusCode)
	}
	if resp := h.Post("/v1/classrooms/"+class.id+"/teacher-token", nil, bearer(other.teacher)...); resp.StatusCode != http.StatusNotFound {
		t.Errorf("another classroom's teacher rotating this one's token = %d, want 404", resp.StatusCode)
	}
	resp := h.Post(path, nil, withKey(class.teacher, "lost-1")...)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("reissue = %d %s", resp.StatusCode, resp.Body)
	}
	var issued client.StudentToken
	resp.JSON(t, &issued)
	if !strings.HasPrefix(issued.Token, "pgl_") || issued.Token == ada.token || issued.Student.Name != "Ada" || issued.Student.Id.String() != ada.id {
		t.Fatalf("reissued = %+v", issued)
	}
	var again client.StudentToken
	h.Post(path, nil, withKey(class.teacher, "lost-1")...).JSON(t, &again)
	if again.Token != issued.Token {
		t.Errorf("a retry with the same key issued another token")
	}

	// A game hides itself from a token that opens nothing (404), as from any unknown token.
	for p, refused := range map[string]int{"/v1/me/games": http.StatusUnauthorized, "/v1/games/" + game: http.StatusNotFound} {
		if resp := h.Get(p, bearer(ada.token)...); resp.StatusCode != refused {
			t.Errorf("GET %s with the old token = %d, want %d: %s", p, resp.StatusCode, refused, resp.Body)
		}
		if resp := h.Get(p, bearer(issued.Token)...); resp.StatusCode != http.StatusOK {
			t.Errorf("GET %s with the new token = %d, want 200: %s", p, resp.StatusCode, resp.Body)
		}
	}

	if resp := h.Do(h.Request("DELETE", "/v1/classrooms/"+class.id+"/students/"+ada.id, nil, bearer(class.teacher)...)); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("remove = %d", resp.StatusCode)
	}
	if resp := h.Post(path, nil, bearer(class.teacher)...); resp.StatusCode != http.StatusNotFound || resp.Problem(t).Code != "student_not_found" {
		t.Errorf("reissuing a removed student's token = %d %s, want 404 student_not_found", resp.StatusCode, resp.Body)
	}
}

// A teacher replaces their own token: the old one stops at once; a retry with the old token and the
// same (strong) key gets the same new token, and a weak key is refused.
func TestRotateTeacherToken(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	class := h.newClassroom(t, "5B", "Cy")
	path := "/v1/classrooms/" + class.id + "/teacher-token"

	if resp := h.Post(path, nil, withKey(class.teacher, "short")...); resp.StatusCode != http.StatusBadRequest || resp.Problem(t).Code != "weak_idempotency_key" {
		t.Errorf("rotate with a weak key = %d %s, want 400 weak_idempotency_key", resp.StatusCode, resp.Body)
	}
	if resp := h.Post(path, nil, bearer(class.students["Cy"].token)...); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("a student rotating the teacher token = %d, want 401", resp.StatusCode)
	}
	resp := h.Post(path, nil, withKey(class.teacher, strongKey)...)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("rotate = %d %s", resp.StatusCode, resp.Body)
	}
	var rotated client.TeacherToken
	resp.JSON(t, &rotated)
	if !strings.HasPrefix(rotated.TeacherToken, "pgt_") || rotated.TeacherToken == class.teacher || rotated.ClassroomId.String() != class.id {
		t.Fatalf("rotated = %+v", rotated)
	}
	classroom := "/v1/classrooms/" + class.id
	if resp := h.Get(classroom, bearer(class.teacher)...); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("GET classroom with the old teacher token = %d, want 401", resp.StatusCode)
	}
	if resp := h.Get(classroom, bearer(rotated.TeacherToken)...); resp.StatusCode != http.StatusOK {
		t.Errorf("GET classroom with the new teacher token = %d, want 200", resp.StatusCode)
	}

	var retried client.TeacherToken
	resp = h.Post(path, nil, withKey(class.teacher, strongKey)...)
	resp.JSON(t, &retried)
	if resp.StatusCode != http.StatusOK || retried.TeacherToken != rotated.TeacherToken {
		t.Errorf("a retry with the old token and the same key = %d %+v, want the same new token", resp.StatusCode, retried)
	}
	if resp := h.Post(path, nil, withKey(class.teacher, "0f9e8d7c-6b5a-4c3d-9e2f-1a0b9c8d7e6f")...); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("the old token with a new key = %d, want 401", resp.StatusCode)
	}
	if resp := h.Post(path, nil, bearer(class.teacher)...); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("the old token without a key = %d, want 401", resp.StatusCode)
	}
}

// Two rotations with the same teacher token race: one replaces it, the other is refused, so no
// token is handed out that does not work.
func TestRotateTeacherTokenRace(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	class := h.newClassroom(t, "5E")
	const racers = 4
	statuses := make(chan int, racers)
	tokens := make(chan string, racers)
	for range racers {
		go func() {
			resp := h.Post("/v1/classrooms/"+class.id+"/teacher-token", nil, bearer(class.teacher)...)
			statuses <- resp.StatusCode
			if resp.StatusCode == http.StatusOK {
				var rotated client.TeacherToken
				_ = json.Unmarshal(resp.Body, &rotated) // checked by using the token below
				tokens <- rotated.TeacherToken
			}
		}()
	}
	counts := map[int]int{}
	for range racers {
		counts[<-statuses]++
	}
	if counts[http.StatusOK] != 1 || counts[http.StatusUnauthorized] != racers-1 {
		t.Fatalf("statuses = %v, want one 200 and %d 401", counts, racers-1)
	}
	if resp := h.Get("/v1/classrooms/"+class.id, bearer(<-tokens)...); resp.StatusCode != http.StatusOK {
		t.Errorf("the winner's token = %d, want 200", resp.StatusCode)
	}
}
