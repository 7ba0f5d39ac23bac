package api_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"primegames"
	"primegames/api/apitest"
	"primegames/contract"
)

// The contract check of apitest fails a response whose status the operation does not declare, and
// no operation declares a default response that would let any status through.
func TestContractRefusesUndeclaredStatuses(t *testing.T) {
	t.Parallel()
	c := apitest.LoadContract(t)
	req, _ := http.NewRequest(http.MethodPost, "http://test/v1/games/00000000-0000-0000-0000-000000000000/start", nil)
	header := http.Header{"Content-Type": {"application/problem+json"}}
	problem := []byte(`{"type":"urn:primegames:problem:x","title":"x","status":418,"code":"x"}`)
	if err := c.Check(req, http.StatusTeapot, header, problem); err == nil {
		t.Error("an undeclared 418 passed the contract check")
	}
	if err := c.Check(req, http.StatusConflict, header, problem); err != nil {
		t.Errorf("a declared 409 failed the contract check: %v", err)
	}
	for path, item := range contractSpec(t).Paths.Map() {
		for method, op := range item.Operations() {
			if op.Responses.Default() != nil {
				t.Errorf("%s %s declares a default response", method, path)
			}
		}
	}
}

func contractSpec(t *testing.T) *openapi3.T {
	t.Helper()
	spec, err := contract.Load(primegames.OpenAPI)
	if err != nil {
		t.Fatal(err)
	}
	return spec
}

// Every operation of openapi.yaml answers hostile requests with a status it declares, never a 5xx
// (issue 10, item 10): apitest fails the test on any status the operation does not declare.
func TestEveryOperationDeclaresItsRefusals(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	game := h.create(t, map[string]any{"game": "prime-climb", "players": names(2)})
	class := h.newClassroom(t, "4D", "Eve")
	params := strings.NewReplacer("{id}", game.Game.Id.String(), "{classroom_id}", class.id,
		"{student_id}", class.students["Eve"].id, "{seq}", "0", "{file}", "swagger-ui.css", "{game}", "prime-climb",
		"{platform_id}", testPlatformID)
	unknownTokens := []string{"pgs_", "pgc_", "pgl_", "pgt_", ""}
	for i, prefix := range unknownTokens {
		unknownTokens[i] = "Bearer " + prefix + "Zm9yZ2VkLXRva2VuLW9mLWZvcnR5LXRocmVlLWNoYXJz"
	}
	type hostile struct {
		name    string
		body    string
		headers []string
		status  int // 0: any status the operation declares
		code    string
	}
	for path, item := range contractSpec(t).Paths.Map() {
		for method, op := range item.Operations() {
			var cases []hostile
			for _, token := range append(unknownTokens, "Basic YWRhOmxvdmVsYWNl") {
				c := hostile{name: "Authorization: " + token[:10], headers: []string{"Authorization", token}}
				if op.RequestBody != nil {
					c.body, c.headers = "{}", append(c.headers, "Content-Type", "application/json")
				}
				cases = append(cases, c)
			}
			form := []string{"Content-Type", "application/x-www-form-urlencoded"}
			switch {
			case op.RequestBody != nil && op.RequestBody.Value.Content.Get(form[1]) != nil: // api/lti.go's forms
				cases = append(cases,
					hostile{"text/plain", `a=1`, []string{"Content-Type", "text/plain"}, 415, "unsupported_media_type"},
					hostile{"JSON", `{}`, []string{"Content-Type", "application/json"}, 415, "unsupported_media_type"},
					hostile{"no body", ``, form, 400, "invalid"},
					hostile{"bad escape", `a=%zz`, form, 400, "invalid"},
					hostile{"too large", "a=" + strings.Repeat("a", 2000), form, 413, "payload_too_large"},
				)
			case op.RequestBody != nil:
				cases = append(cases,
					hostile{"text/plain", `{}`, []string{"Content-Type", "text/plain"}, 415, "unsupported_media_type"},
					hostile{"no body", ``, []string{"Content-Type", "application/json"}, 400, "invalid"},
					hostile{"cut short", `{"a":`, []string{"Content-Type", "application/json"}, 400, "invalid"},
					hostile{"trailing data", `{} x`, []string{"Content-Type", "application/json"}, 400, "invalid"},
					hostile{"nested 40 deep", strings.Repeat("[", 40) + strings.Repeat("]", 40), []string{"Content-Type", "application/json"}, 400, "invalid"},
					hostile{"lone surrogate", `{"a":"\udfff"}`, []string{"Content-Type", "application/json"}, 400, "invalid"},
					hostile{"too large", `"` + strings.Repeat("a", 2000) + `"`, []string{"Content-Type", "application/json"}, 413, "payload_too_large"},
				)
			default:
				cases = append(cases, hostile{"a body", `{"x":1}`, []string{"Content-Type", "application/json"}, 413, "body_not_allowed"})
			}
			for _, c := range cases {
				var body any
				if c.body != "" {
					body = c.body
				}
				// An event stream that wrongly accepts the request would otherwise never end.
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				resp := h.Do(h.Request(method, params.Replace(path), body, c.headers...).WithContext(ctx))
				cancel()
				switch {
				case resp.StatusCode >= 500:
					t.Errorf("%s %s, %s: %d %s", method, path, c.name, resp.StatusCode, resp.Body)
				case c.status != 0 && resp.StatusCode != c.status:
					t.Errorf("%s %s, %s: %d, want %d: %s", method, path, c.name, resp.StatusCode, c.status, resp.Body)
				case c.code != "" && method != http.MethodHead && resp.Problem(t).Code != c.code: // a HEAD's problem has no body
					t.Errorf("%s %s, %s: code %q, want %q", method, path, c.name, resp.Problem(t).Code, c.code)
				}
			}
		}
	}
}
