package contract

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/labstack/echo/v4"
	oapimw "github.com/oapi-codegen/echo-middleware"
)

// A body that passed once is not checked again for the same operation and Content-Type, nor a
// request's path and query, and every request gets the verdict a validator that remembers nothing
// gives: its header parameters are still checked, a refused body is never remembered, a remembered
// body is not trusted elsewhere.
func TestRememberedBodiesGetTheSameVerdicts(t *testing.T) {
	t.Parallel()
	spec := mergedContract(t)
	options := func() *oapimw.Options {
		return &oapimw.Options{Options: openapi3filter.Options{
			AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, SkipSettingDefaults: true,
			SchemaValidationOptions: []openapi3.SchemaValidationOption{openapi3.DisableSchemaErrorDetails()},
		}}
	}
	remembering := validateRequests(spec, options(), nil)
	e := echo.New()
	verdict := func(mw echo.MiddlewareFunc, route, path, contentType, body string, header ...string) string {
		req := httptest.NewRequest(http.MethodPost, path, nil)
		req.Header.Set(echo.HeaderContentType, contentType)
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		req.ContentLength = int64(len(body))
		req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader([]byte(body))), nil }
		req.Body, _ = req.GetBody()
		c := e.NewContext(req, httptest.NewRecorder())
		c.SetPath(route)
		if err := mw(func(echo.Context) error { return nil })(c); err != nil {
			return err.Error()
		}
		return "passed"
	}
	const actions, create = "/v1/games/:id/actions", "/v1/games"
	const game = "/v1/games/6f1c1b52-3c5e-4d5e-9a59-3f0a4b1e0c11/actions"
	const other = "/v1/games/0b8e5a43-9d2c-4f6a-8e1b-7c3d2a1f0e99/actions"
	cases := []struct {
		name, route, path, contentType, body string
		header                               []string
	}{
		{"a roll", actions, game, "application/json", `{"type":"roll"}`, nil},
		{"the roll again", actions, game, "application/json", `{"type":"roll"}`, nil},
		{"the roll with an empty Idempotency-Key", actions, game, "application/json", `{"type":"roll"}`, []string{"Idempotency-Key", ""}},
		{"the roll with a key", actions, game, "application/json", `{"type":"roll"}`, []string{"Idempotency-Key", "k1"}},
		{"the roll with another key", actions, game, "application/json", `{"type":"roll"}`, []string{"Idempotency-Key", "k2"}},
		{"the roll with an empty key again", actions, game, "application/json", `{"type":"roll"}`, []string{"Idempotency-Key", ""}},
		{"the roll asking to include what cannot be", actions, game + "?include=everything", "application/json", `{"type":"roll"}`, nil},
		{"the roll as another media type", actions, game, "text/plain", `{"type":"roll"}`, nil},
		{"an action of no kind", actions, game, "application/json", `{"type":"fly"}`, nil},
		{"the action of no kind again", actions, game, "application/json", `{"type":"fly"}`, nil},
		{"the roll as a new game", create, create, "application/json", `{"type":"roll"}`, nil},
		{"a draw, never sent, on the game's remembered path", actions, game, "application/json", `{"type":"draw"}`, nil},
		{"the draw again", actions, game, "application/json", `{"type":"draw"}`, nil},
		{"a draw with a field no action has, on the remembered path", actions, game, "application/json", `{"type":"draw","x":1}`, nil},
		{"the roll on another game's path", actions, other, "application/json", `{"type":"roll"}`, nil},
	}
	for _, tc := range cases {
		got := verdict(remembering, tc.route, tc.path, tc.contentType, tc.body, tc.header...)
		want := verdict(validateRequests(spec, options(), nil), tc.route, tc.path, tc.contentType, tc.body, tc.header...)
		if got != want {
			t.Errorf("%s: %q, a validator remembering nothing says %q", tc.name, got, want)
		}
		keyed := len(tc.header) == 2 && tc.header[0] == "Idempotency-Key" && tc.header[1] != ""
		validAction := tc.body == `{"type":"roll"}` || tc.body == `{"type":"draw"}`
		if wantPass := validAction && tc.route == actions && (tc.path == game || tc.path == other) && tc.contentType == "application/json" && (tc.header == nil || keyed); (got == "passed") != wantPass {
			t.Errorf("%s: %q", tc.name, got)
		}
	}
}

// A request that passed once passes again unchecked only when everything the validator reads is
// the same: the operation, path, query and declared headers. Any other request gets the verdict a
// validator that remembers nothing gives, and a refused request is never remembered.
func TestRememberedRequestsGetTheSameVerdicts(t *testing.T) {
	t.Parallel()
	spec := mergedContract(t)
	options := &oapimw.Options{Options: openapi3filter.Options{
		AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, SkipSettingDefaults: true,
		SchemaValidationOptions: []openapi3.SchemaValidationOption{openapi3.DisableSchemaErrorDetails()},
	}}
	remembering, fresh := validateRequests(spec, options, nil), validateRequests(spec, options, nil)
	e := echo.New()
	verdict := func(mw echo.MiddlewareFunc, path string, header ...string) string {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Add(header[i], header[i+1])
		}
		c := e.NewContext(req, httptest.NewRecorder())
		c.SetPath("/v1/games/:id")
		return verdictOf(mw, c)
	}
	const game = "/v1/games/6f1c1b52-3c5e-4d5e-9a59-3f0a4b1e0c11"
	cases := []struct {
		name, path string
		header     []string
		pass       bool
	}{
		{"a game", game, nil, true},
		{"the game again", game, nil, true},
		{"the game with its legal actions", game + "?include=legal_actions", nil, true},
		{"the game with what cannot be included", game + "?include=everything", nil, false},
		{"the same again", game + "?include=everything", nil, false},
		{"the game if changed", game, []string{"If-None-Match", `"7"`}, true},
		{"the game if changed, twice over", game, []string{"If-None-Match", `"7"`, "If-None-Match", `"8"`}, true},
		{"the game with a header no one declared", game, []string{"X-Whatever", "1"}, true},
	}
	for _, tc := range cases {
		got, want := verdict(remembering, tc.path, tc.header...), verdict(fresh, tc.path, tc.header...)
		if got != want {
			t.Errorf("%s: %q, a validator remembering nothing says %q", tc.name, got, want)
		}
		if (got == "passed") != tc.pass {
			t.Errorf("%s: %q", tc.name, got)
		}
	}
}

func verdictOf(mw echo.MiddlewareFunc, c echo.Context) string {
	if err := mw(func(echo.Context) error { return nil })(c); err != nil {
		return err.Error()
	}
	return "passed"
}

// A body is checked as JSON and against the contract once: the same bytes, for the same operation
// and Content-Type, pass again unchecked and unread; a body refused at either step is never
// remembered and is refused again.
func TestCheckBodyRemembersOnlyBodiesThatPassedBoth(t *testing.T) {
	t.Parallel()
	v := NewValidator(mergedContract(t), nil)
	e := echo.New()
	const route, game = "/v1/games/:id/actions", "/v1/games/6f1c1b52-3c5e-4d5e-9a59-3f0a4b1e0c11/actions"
	request := func(body string, readable bool) echo.Context {
		req := httptest.NewRequest(http.MethodPost, game, nil)
		req.Header.Set(echo.HeaderContentType, "application/json")
		req.ContentLength = int64(len(body))
		if readable {
			req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader([]byte(body))), nil }
			req.Body, _ = req.GetBody()
		} else {
			req.Body = io.NopCloser(failingReader{})
		}
		c := e.NewContext(req, httptest.NewRecorder())
		c.SetPath(route)
		return c
	}
	check := func(body string, readable bool) (gate, contract string) {
		c := request(body, readable)
		if err := v.CheckBody(c, []byte(body)); err != nil {
			return err.Error(), ""
		}
		return "passed", verdictOf(v.Middleware, c)
	}
	if gate, contract := check(`{"type":"roll"}`, true); gate != "passed" || contract != "passed" {
		t.Fatalf("a roll: %q, %q", gate, contract)
	}
	if gate, contract := check(`{"type":"roll"}`, false); gate != "passed" || contract != "passed" {
		t.Errorf("the roll again, its body unreadable: %q, %q; want it remembered, not read", gate, contract)
	}
	for range 2 {
		if gate, _ := check(`{"type":"roll"`, true); gate == "passed" {
			t.Error("a roll cut short passed the JSON check")
		}
		if gate, contract := check(`{"type":"fly"}`, true); gate != "passed" || contract == "passed" {
			t.Errorf("an action of no kind: %q, %q; want it refused by the contract", gate, contract)
		}
	}
}

type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, io.ErrUnexpectedEOF }
