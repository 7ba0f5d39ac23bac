package api_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/google/uuid"

	"primegames"
	"primegames/api/apitest"
	"primegames/contract"
)

// bodyMismatch is the facts of a 400 invalid that names the field.
type bodyMismatch struct {
	Pointer  string          `json:"pointer"`
	Expected []string        `json:"expected"`
	Got      json.RawMessage `json:"got"`
}

// refusedBody posts body raw and returns the facts of its 400 invalid.
func refusedBody(t *testing.T, s *apitest.Server, method, path, body string, headers ...string) bodyMismatch {
	t.Helper()
	resp := s.Do(s.Request(method, path, []byte(body), append(headers, "Content-Type", "application/json")...))
	if resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("%s %s %s = %d, want 400: %s", method, path, body, resp.StatusCode, resp.Body)
	}
	var p struct {
		Code   string       `json:"code"`
		Detail string       `json:"detail"`
		Facts  bodyMismatch `json:"facts"`
	}
	if err := json.Unmarshal(resp.Body, &p); err != nil {
		t.Fatal(err)
	}
	if p.Code != "invalid" || p.Facts.Pointer == "" && len(p.Facts.Expected) == 0 || !strings.Contains(p.Detail, p.Facts.Pointer) {
		t.Fatalf("%s %s %s = %s, want invalid with facts naming the field", method, path, body, resp.Body)
	}
	return p.Facts
}

func expectMismatch(t *testing.T, what string, got bodyMismatch, pointer string, expected []string, sent string) {
	t.Helper()
	if got.Pointer != pointer || !slices.Equal(got.Expected, expected) || string(got.Got) != sent {
		t.Errorf("%s: facts {pointer %q, expected %q, got %s}, want {%q, %q, %s}", what, got.Pointer, got.Expected, got.Got, pointer, expected, sent)
	}
}

// An action the contract refuses is refused naming the field: the action's type chooses the
// schema, an unknown type is the mismatch itself, and inside a move the step's own field.
func TestActionRefusalsNameTheField(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	pc := h.create(t, map[string]any{"game": "prime-climb", "players": names(2)})
	path := "/v1/games/" + pc.Game.Id.String() + "/actions"
	seat := bearer(pc.Seats[0].Token)
	allTypes := []string{"roll", "keeper", "move", "choose", "play", "draw", "pass"}
	ops := []string{"add", "subtract", "multiply", "divide"}

	expectMismatch(t, "an unknown type", refusedBody(t, h.Server, "POST", path, `{"type":"rol"}`, seat...), "/type", allTypes, `"rol"`)
	expectMismatch(t, "no type", refusedBody(t, h.Server, "POST", path, `{}`, seat...), "/type", allTypes, "")
	expectMismatch(t, "a move step without op",
		refusedBody(t, h.Server, "POST", path, `{"type":"move","steps":[{"die":3,"pawn":0}]}`, seat...), "/steps/0/op", ops, "")
	expectMismatch(t, `"op":"plus"`,
		refusedBody(t, h.Server, "POST", path, `{"type":"move","steps":[{"die":3,"pawn":0,"op":"add"},{"die":4,"pawn":1,"op":"plus"}]}`, seat...),
		"/steps/1/op", ops, `"plus"`)
	expectMismatch(t, "a keeper step's sign",
		refusedBody(t, h.Server, "POST", path, `{"type":"move","steps":[{"card":"plus_minus_3","pawn":0,"sign":"x"}]}`, seat...),
		"/steps/0/sign", []string{"+", "-"}, `"x"`)
	// Three keepers share type keeper; the card tells them apart.
	expectMismatch(t, "a curse without its target",
		refusedBody(t, h.Server, "POST", path, `{"type":"keeper","card":"curse"}`, seat...), "/target_seat", []string{"integer, at least 0"}, "")
	expectMismatch(t, "a die out of range",
		refusedBody(t, h.Server, "POST", path, `{"type":"move","steps":[{"die":11,"pawn":0,"op":"add"}]}`, seat...),
		"/steps/0/die", []string{"integer, from 1 to 10"}, "11")
	expectMismatch(t, "a field no die step has",
		refusedBody(t, h.Server, "POST", path, `{"type":"move","steps":[{"die":3,"pawn":0,"op":"add","dice":[6,6]}]}`, seat...),
		"/steps/0/dice", []string{"no such field (fields: die, op, pawn)"}, `"an array of 2 items"`)
	expectMismatch(t, "a choice of a negative seat",
		refusedBody(t, h.Server, "POST", path, `{"type":"choose","target_seat":-1}`, seat...), "/target_seat", []string{"integer, at least 0"}, "-1")
}

// ltiPlatformWithIssuer7 is a platform's registration whose issuer is a number.
const ltiPlatformWithIssuer7 = `{"issuer":7,"client_id":"c","deployment_ids":["d"],"jwks_url":"https://lms.example/jwks","auth_url":"https://lms.example/auth","token_url":"https://lms.example/token"}`

// mismatchRow is a request whose body the contract refuses, and the refusal's facts it must get.
type mismatchRow struct {
	method, route, path string
	headers             []string
	body                string
	pointer             string
	expected            []string
	got                 string
}

// Every operation that takes a body names the offending field of a body the contract refuses;
// the table must cover every such operation of the contract.
func TestEveryBodyRefusalNamesTheField(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	pr := newPrimedGame(t, h)
	lobby := h.create(t, map[string]any{"game": "primed", "seats": 2})
	class := h.newClassroom(t, "4E", "Eve")
	teacher := bearer(class.teacher)
	rows := []mismatchRow{
		{"POST", "/v1/games", "/v1/games", nil, `{"game":"primd"}`, "/game", []string{"prime-climb", "primed"}, `"primd"`},
		{"POST", "/v1/games/{id}/players", "/v1/games/" + lobby.Game.Id.String() + "/players", nil, `{"name":7}`, "/name", []string{"string, from 1 to 40 characters"}, "7"},
		{"POST", "/v1/games/{id}/actions", "/v1/games/" + pr.Game.Id.String() + "/actions", bearer(pr.Seats[0].Token), `{"type":"play","cards":["7"]}`, "/cards/0", []string{"integer, from 1 to 17"}, `"7"`},
		{"POST", "/v1/games/join", "/v1/games/join", nil, `{"invite_code":"ABC234"}`, "/name", []string{"string, from 1 to 40 characters"}, ""},
		{"POST", "/v1/classrooms", "/v1/classrooms", nil, `{"name":""}`, "/name", []string{"string, from 1 to 80 characters"}, `""`},
		{"POST", "/v1/classrooms/join", "/v1/classrooms/join", nil, `{"name":"Ada"}`, "/join_code", []string{"string, from 1 to 20 characters"}, ""},
		{"POST", "/v1/students/sign-in", "/v1/students/sign-in", nil, `{"class_code":"K7QX-2MHB"}`, "/code", []string{"string, from 1 to 20 characters"}, ""},
		{"PATCH", "/v1/classrooms/{classroom_id}/students/{student_id}", "/v1/classrooms/" + class.id + "/students/" + class.students["Eve"].id, teacher, `{"name":"Eve","nick":"E"}`, "/nick", []string{"no such field (fields: name)"}, `"E"`},
		{"POST", "/v1/classrooms/{classroom_id}/games", "/v1/classrooms/" + class.id + "/games", teacher, `{"game":"primed","group_size":9}`, "/group_size", []string{"integer, from 1 to 6"}, "9"},
		{"POST", "/v1/webhooks", "/v1/webhooks", bearer(pr.Seats[0].Token), `{"scope":"gam","url":"https://example.org/hook"}`, "/scope", []string{"game", "classroom", "service"}, `"gam"`},
		{"POST", "/v1/me/tokens", "/v1/me/tokens", nil, `{"name":""}`, "/name", []string{"string, from 1 to 64 characters"}, `""`},
		{"POST", "/v1/classrooms/{classroom_id}/owner", "/v1/classrooms/" + class.id + "/owner", nil, `{"teacher_token":5}`, "/teacher_token", []string{"string, from 1 to 200 characters"}, "5"},
		{"POST", "/v1/co-teacher-invites/accept", "/v1/co-teacher-invites/accept", nil, `{"code":""}`, "/code", []string{"string, from 1 to 128 characters"}, `""`},
		{"POST", "/v1/classrooms/{classroom_id}/assignments", "/v1/classrooms/" + class.id + "/assignments", teacher,
			`{"title":"x","game":"primed","games":21,"opponents":{"bot":"greedy"},"due_at":"2030-01-01T00:00:00Z"}`, "/games", []string{"integer, from 1 to 20"}, "21"},
		{"PATCH", "/v1/classrooms/{classroom_id}/assignments/{assignment_id}", "/v1/classrooms/" + class.id + "/assignments/" + uuid.NewString(), teacher,
			`{"games":0}`, "/games", []string{"integer, from 1 to 20"}, "0"},
		{"POST", "/v1/lti/handover", "/v1/lti/handover", nil, `{"code":""}`, "/code", []string{"string, from 1 to 200 characters"}, `""`},
		{"POST", "/v1/lti/platforms", "/v1/lti/platforms", nil, ltiPlatformWithIssuer7, "/issuer", []string{"string, from 1 to 255 characters"}, "7"},
		{"PATCH", "/v1/lti/platforms/{platform_id}", "/v1/lti/platforms/" + testPlatformID, nil, `{"issuer":7}`, "/issuer", []string{"string, from 1 to 255 characters"}, "7"},
	}
	for _, row := range rows {
		got := refusedBody(t, h.Server, row.method, row.path, row.body, row.headers...)
		expectMismatch(t, row.method+" "+row.route+" "+row.body, got, row.pointer, row.expected, row.got)
	}

	spec, err := contract.Load(primegames.OpenAPI)
	if err != nil {
		t.Fatal(err)
	}
	for path, item := range spec.Paths.Map() {
		for method, op := range item.Operations() {
			if op.RequestBody == nil || op.RequestBody.Value.Content.Get("application/json") == nil {
				continue // no body, or a form's (api/lti.go), which the contract's JSON refusals do not meet
			}
			if !slices.ContainsFunc(rows, func(r mismatchRow) bool {
				return r.method == method && r.route == path
			}) {
				t.Errorf("%s %s takes a body but has no row here", method, path)
			}
		}
	}
}
