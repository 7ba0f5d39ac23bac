package api_test

import (
	"net/http"
	"strings"
	"testing"
)

// Client mistakes get 4xx problems, never a 500, whatever the body looks like.
func TestMalformedRequestsNeverGet500(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	pc := h.create(t, map[string]any{"game": "prime-climb", "players": names(2)})
	pr := newPrimedGame(t, h)
	class := h.newClassroom(t, "4D", "Eve")
	bodies := []string{
		``, `null`, `[]`, `{}`, `0`, `"x"`, `{"type":null}`, `{"type":"roll","extra":1}`, `{"type":"move","steps":null}`,
		`{"type":"move","steps":[{"die":-1,"pawn":9,"op":"add"}]}`, `{"type":"move","steps":[{}]}`,
		`{"type":"play","cards":[]}`, `{"type":"play","cards":[-5]}`, `{"type":"play","cards":[1.5]}`,
		`{"type":"keeper","card":"curse","target_seat":-1}`, `{"type":"choose"}`, `{"name":""}`,
		`{"name":"` + strings.Repeat("é", 200) + `"}`, `{"game":"primed","seats":99}`, `{"game":"primed","players":[{}]}`,
		`{"game":"primed","players":[{"name":"a","student_id":"00000000-0000-0000-0000-000000000000"},{"name":"b"}]}`,
		`{"game":"prime-climb","players":[{"student_id":"00000000-0000-0000-0000-000000000000"}]}`,
		`{"join_code":"","name":"x"}`, `{"game":"primed","group_size":0}`, `{"game":"primed","group_size":2,"student_ids":["nope"]}`,
		`{"a":` + strings.Repeat("[", 500) + strings.Repeat("]", 500) + `}`, "\xff\xfe", `{"type":"draw"}{"type":"draw"}`,
	}
	posts := []struct{ path, token string }{
		{"/v1/games", ""},
		{"/v1/games", class.teacher},
		{"/v1/games/" + pc.Game.Id.String() + "/actions", pc.Seats[0].Token},
		{"/v1/games/" + pc.Game.Id.String() + "/actions", pc.Seats[1].Token},
		{"/v1/games/" + pr.Game.Id.String() + "/actions", pr.Seats[0].Token},
		{"/v1/games/" + pr.Game.Id.String() + "/actions", pr.Seats[1].Token},
		{"/v1/games/" + pr.Game.Id.String() + "/players", ""},
		{"/v1/classrooms", ""},
		{"/v1/classrooms/join", ""},
		{"/v1/classrooms/" + class.id + "/games", class.teacher},
	}
	// A move step without its fields breaks the contract (a die step needs die, pawn and op; a keeper
	// step its card): refused before any rule is asked, as a typed client would refuse to send it.
	for _, body := range []string{`{"type":"move","steps":[{}]}`, `{"type":"move","steps":[{"die":3,"pawn":0}]}`} {
		resp := h.Do(h.Request(http.MethodPost, "/v1/games/"+pc.Game.Id.String()+"/actions", []byte(body),
			append(bearer(pc.Seats[0].Token), "Content-Type", "application/json")...))
		if resp.StatusCode != http.StatusBadRequest || resp.Problem(t).Code != "invalid" {
			t.Errorf("POST actions %s = %d %s, want 400 invalid", body, resp.StatusCode, resp.Body)
		}
	}
	for _, p := range posts {
		for _, body := range bodies {
			var headers []string
			if p.token != "" {
				headers = bearer(p.token)
			}
			resp := h.Do(h.Request(http.MethodPost, p.path, []byte(body), append(headers, "Content-Type", "application/json")...))
			if resp.StatusCode >= 500 {
				t.Errorf("POST %s %q = %d: %s", p.path, body, resp.StatusCode, resp.Body)
			}
		}
	}
}
