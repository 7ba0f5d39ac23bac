package api_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"primegames"
	"primegames.dev/client"
	"primegames/api/apitest"
	"primegames/contract"
)

// getRoutes is one request for every GET operation of the contract, with its path parameters
// filled from a fixture and the token that may read it: a primed game (seat token), a classroom
// (teacher token), the Prime Climb board, a docs asset; the replay pictures are of an aborted game,
// which anyone may replay.
func getRoutes(t *testing.T, h *gamesHarness) map[string][]string {
	t.Helper()
	c := newPrimedGame(t, h)
	class := h.newClassroom(t, "Room 4", "Ada")
	assignment := newAssignment(t, h.Server, class, map[string]any{"title": "x", "game": "primed", "games": 1,
		"opponents": map[string]any{"bot": "greedy"}, "due_at": time.Now().Add(time.Hour)})
	fill := map[string]string{
		"{id}": c.Game.Id.String(), "{seq}": "0", "{classroom_id}": class.id,
		"{student_id}": class.students["Ada"].id, "{file}": "swagger-ui.css", "{game}": "prime-climb",
		"{assignment_id}": assignment.Id.String(),
		"{platform_id}":   testPlatformID,
	}
	spec, err := contract.Load(primegames.OpenAPI)
	if err != nil {
		t.Fatal(err)
	}
	routes := map[string][]string{} // path → header pairs
	for template, item := range spec.Paths.Map() {
		if item.Get == nil {
			continue
		}
		path := template
		for param, value := range fill {
			path = strings.ReplaceAll(path, param, value)
		}
		if strings.Contains(path, "{") {
			t.Fatalf("GET %s: the test has no value for a path parameter; add one", template)
		}
		switch {
		case strings.HasSuffix(template, "/replay.svg"), strings.HasSuffix(template, "/replay.png"):
			over := newPrimedGame(t, h)
			if resp := h.Post("/v1/games/"+over.Game.Id.String()+"/abort", nil, bearer(over.CreatorToken)...); resp.StatusCode != http.StatusOK {
				t.Fatalf("abort = %d", resp.StatusCode)
			}
			routes[strings.ReplaceAll(template, "{id}", over.Game.Id.String())] = nil
		case strings.HasPrefix(template, "/v1/classrooms/"):
			routes[path] = bearer(class.teacher)
		case template == "/v1/me/assignments": // a student's
			routes[path] = bearer(class.students["Ada"].token)
		case strings.HasPrefix(template, "/v1/games/"), strings.HasPrefix(template, "/v1/me/"), template == "/v1/webhooks", template == "/v1/me":
			routes[path] = bearer(c.Seats[0].Token)
		default:
			routes[path] = nil
		}
	}
	return routes
}

// ignoredHeaders differ between any two responses, or say how the body was framed.
var ignoredHeaders = []string{"Date", "X-Request-Id", "Content-Length", "Transfer-Encoding"}

// HEAD answers every GET operation with the status and headers of GET and no body; a stream's HEAD
// ends once its headers are out.
func TestHeadMirrorsGetOnEveryGetRoute(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	routes := getRoutes(t, h)
	if len(routes) < 15 {
		t.Fatalf("only %d GET routes found in the contract", len(routes))
	}
	answered, streams := 0, 0 // routes whose GET answered 200; event streams
	for path, headers := range routes {
		if signInRoutes[path] { // they answer 200 to a signed-in account only (signin_test.go):
			streams++ // counted out of those that must answer 200, as the streams are
		}
		if ltiRefusingRoutes[path] { // the admin token's, and a login without its platform (lti_test.go)
			streams++
		}
		// Go's client asks for gzip by itself on GET but not on HEAD: ask for it on both.
		headers = append([]string{"Accept-Encoding", "gzip"}, headers...)
		head := h.Do(h.Request(http.MethodHead, path, nil, headers...))
		if len(head.Body) != 0 {
			t.Errorf("HEAD %s: %d bytes of body", path, len(head.Body))
		}
		if strings.HasSuffix(path, "/events") {
			if head.StatusCode != http.StatusOK || head.Header.Get("Content-Type") != "text/event-stream" {
				t.Errorf("HEAD %s = %d %q, want 200 text/event-stream", path, head.StatusCode, head.Header.Get("Content-Type"))
			}
			streams++
			continue
		}
		get := h.Get(path, headers...)
		if get.StatusCode != head.StatusCode || get.StatusCode >= 500 {
			t.Errorf("%s: GET %d, HEAD %d", path, get.StatusCode, head.StatusCode)
		}
		if get.StatusCode == http.StatusOK {
			answered++
		}
		for name := range mergedKeys(get.Header, head.Header) {
			if slices.Contains(ignoredHeaders, name) {
				continue
			}
			if g, hd := get.Header.Values(name), head.Header.Values(name); !slices.Equal(g, hd) {
				t.Errorf("%s: %s is %q for GET, %q for HEAD", path, name, g, hd)
			}
		}
	}
	// Besides the streams (checked above) and one route that refuses this fixture, /hint answers
	// only the seat to act of a kind with an expert, and /review a player only once the game is over.
	if answered < len(routes)-streams-3 {
		t.Errorf("only %d of %d GET routes answered 200: the fixture does not exercise them", answered, len(routes))
	}
	// A route without GET still refuses HEAD.
	abort := "/v1/games/00000000-0000-0000-0000-000000000000/abort"
	if resp := h.Do(h.Request(http.MethodHead, abort, nil)); resp.StatusCode != http.StatusMethodNotAllowed || !strings.Contains(resp.Header.Get("Allow"), "POST") {
		t.Errorf("HEAD %s = %d (Allow %q), want 405", abort, resp.StatusCode, resp.Header.Get("Allow"))
	}
}

func mergedKeys(a, b http.Header) map[string]bool {
	keys := map[string]bool{}
	for k := range a {
		keys[k] = true
	}
	for k := range b {
		keys[k] = true
	}
	return keys
}

// gzipGet sends GET with Accept-Encoding: gzip set by hand, so that the client leaves the body as
// it came; apitest checks the decompressed body against the contract.
func gzipGet(h *gamesHarness, path string, headers ...string) *apitest.Response {
	return h.Get(path, append([]string{"Accept-Encoding", "gzip"}, headers...)...)
}

func gunzipped(t *testing.T, r *apitest.Response) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(r.Body))
	if err != nil {
		t.Fatalf("%s: not gzip: %v", r.Request.URL.Path, err)
	}
	plain, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("%s: %v", r.Request.URL.Path, err)
	}
	return plain
}

// JSON, NDJSON and CSV bodies are gzipped for a client that accepts it, with Vary: Accept-Encoding
// and, for a game, a weak ETag that still answers If-None-Match; the same bytes come uncompressed
// to a client that does not.
func TestGzipForJSONNDJSONAndCSV(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	// Bodies of a few hundred bytes go out as they are: a four-seat game and a class of ten make
	// bodies worth compressing.
	c := h.create(t, map[string]any{"game": "primed", "players": []map[string]string{{"name": "Ada"}, {"name": "Ben"}, {"name": "Cy"}, {"name": "Di"}}})
	class := h.newClassroom(t, "Room 5", "Ada", "Ben", "Cy", "Di", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo")
	seat := bearer(c.Seats[0].Token)
	game := "/v1/games/" + c.Game.Id.String()
	for range 6 { // a history of a few entries
		var legal client.LegalActions
		turn := h.game(t, c.Game.Id.String(), "").Turn.ToAct[0]
		h.Get(game+"/legal-actions", bearer(c.Seats[turn].Token)...).JSON(t, &legal)
		var actions []struct{ Action json.RawMessage }
		if err := json.Unmarshal(legal.Actions, &actions); err != nil || len(actions) == 0 {
			t.Fatalf("legal actions %s: %v", legal.Actions, err)
		}
		if resp := h.act(t, c.Game.Id.String(), c.Seats[turn].Token, actions[0].Action); resp.StatusCode != http.StatusCreated {
			t.Fatalf("acting = %d: %s", resp.StatusCode, resp.Body)
		}
	}
	for _, tc := range []struct {
		path, accept string
		headers      []string
	}{
		{game, "application/json", seat},
		{game + "/actions", "application/x-ndjson", seat},
		{"/v1/classrooms/" + class.id + "/stats", "text/csv", bearer(class.teacher)},
		{"/openapi.yaml", "application/yaml", nil},
	} {
		headers := append([]string{"Accept", tc.accept}, tc.headers...)
		plain := h.Get(tc.path, append([]string{"Accept-Encoding", "identity"}, headers...)...)
		zipped := gzipGet(h, tc.path, headers...)
		if plain.StatusCode != http.StatusOK || zipped.StatusCode != http.StatusOK {
			t.Fatalf("GET %s (%s) = %d and %d gzipped", tc.path, tc.accept, plain.StatusCode, zipped.StatusCode)
		}
		if got := zipped.Header.Get("Content-Encoding"); got != "gzip" {
			t.Errorf("GET %s (%s) with Accept-Encoding: gzip: Content-Encoding %q for %d bytes", tc.path, tc.accept, got, len(plain.Body))
			continue
		}
		if plain.Header.Get("Content-Encoding") != "" {
			t.Errorf("GET %s without gzip: Content-Encoding %q", tc.path, plain.Header.Get("Content-Encoding"))
		}
		for _, r := range []*apitest.Response{plain, zipped} {
			if !slices.Contains(r.Header.Values("Vary"), "Accept-Encoding") {
				t.Errorf("GET %s: Vary %q, want Accept-Encoding", tc.path, r.Header.Values("Vary"))
			}
		}
		if body := gunzipped(t, zipped); !strings.HasPrefix(tc.accept, "application/json") && !bytes.Equal(body, plain.Body) {
			t.Errorf("GET %s (%s): the gzipped body differs from the plain one", tc.path, tc.accept)
		} else if len(zipped.Body) >= len(plain.Body) {
			t.Errorf("GET %s (%s): %d bytes gzipped, %d plain", tc.path, tc.accept, len(zipped.Body), len(plain.Body))
		}
	}

	// The game's ETag: strong uncompressed, weak compressed; both revalidate.
	plain := h.Get(game, append([]string{"Accept-Encoding", "identity"}, seat...)...)
	zipped := gzipGet(h, game, seat...)
	strong := plain.Header.Get("ETag")
	if zipped.Header.Get("ETag") != "W/"+strong || !strings.HasPrefix(strong, `"`) {
		t.Errorf("ETag %q plain, %q gzipped; want a strong one and its weak form", strong, zipped.Header.Get("ETag"))
	}
	for _, tag := range []string{strong, "W/" + strong} {
		if resp := gzipGet(h, game, append([]string{"If-None-Match", tag}, seat...)...); resp.StatusCode != http.StatusNotModified {
			t.Errorf("If-None-Match %s = %d, want 304", tag, resp.StatusCode)
		}
	}
	// A weak ETag taken from a compressed response is accepted as If-Match.
	turn := h.game(t, c.Game.Id.String(), "").Turn.ToAct[0]
	resp := h.act(t, c.Game.Id.String(), c.Seats[turn].Token, map[string]string{"type": "draw"}, "If-Match", zipped.Header.Get("ETag"))
	if resp.StatusCode == http.StatusPreconditionFailed || resp.StatusCode == http.StatusBadRequest {
		t.Errorf("If-Match %s = %d: %s", zipped.Header.Get("ETag"), resp.StatusCode, resp.Body)
	}
}

// An event stream is never compressed: each event must arrive when it is sent.
func TestEventStreamIsNeverCompressed(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	c := newPrimedGame(t, h)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, h.URL+"/v1/games/"+c.Game.Id.String()+"/events", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept-Encoding", "gzip")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.Header.Get("Content-Encoding") != "" || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("stream: Content-Encoding %q Content-Type %q", resp.Header.Get("Content-Encoding"), resp.Header.Get("Content-Type"))
	}
	first := make([]byte, 64)
	n, err := io.ReadAtLeast(resp.Body, first, 6)
	if err != nil || !strings.Contains(string(first[:n]), "retry:") && !strings.Contains(string(first[:n]), "id:") && !strings.Contains(string(first[:n]), "event:") {
		t.Errorf("stream starts with %q (%v), want plain text events", first[:n], err)
	}
}

// The docs bundle is sent gzipped to a client that accepts it, cacheable, and revalidates by ETag.
func TestDocsAssetsAreCompressedAndCacheable(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	const bundle = "/docs/assets/swagger-ui-bundle.js"
	plain := h.Get(bundle, "Accept-Encoding", "identity")
	zipped := gzipGet(h, bundle)
	if plain.StatusCode != http.StatusOK || zipped.StatusCode != http.StatusOK {
		t.Fatalf("GET %s = %d, %d gzipped", bundle, plain.StatusCode, zipped.StatusCode)
	}
	if zipped.Header.Get("Content-Encoding") != "gzip" || !bytes.Equal(gunzipped(t, zipped), plain.Body) {
		t.Fatalf("gzipped bundle: Content-Encoding %q, or its body is not the bundle", zipped.Header.Get("Content-Encoding"))
	}
	t.Logf("%s: %d bytes, %d gzipped", bundle, len(plain.Body), len(zipped.Body))
	if len(zipped.Body)*2 > len(plain.Body) {
		t.Errorf("gzipped bundle is %d bytes of %d", len(zipped.Body), len(plain.Body))
	}
	for _, r := range []*apitest.Response{plain, zipped} {
		if !strings.Contains(r.Header.Get("Cache-Control"), "max-age=") || !slices.Contains(r.Header.Values("Vary"), "Accept-Encoding") || r.Header.Get("ETag") == "" {
			t.Errorf("bundle headers: Cache-Control %q Vary %q ETag %q", r.Header.Get("Cache-Control"), r.Header.Values("Vary"), r.Header.Get("ETag"))
		}
		if resp := h.Get(bundle, "If-None-Match", r.Header.Get("ETag"), "Accept-Encoding", "gzip"); resp.StatusCode != http.StatusNotModified || len(resp.Body) != 0 {
			t.Errorf("If-None-Match %s = %d with %d bytes, want 304 and none", r.Header.Get("ETag"), resp.StatusCode, len(resp.Body))
		}
	}
	if plain.Header.Get("ETag") == zipped.Header.Get("ETag") {
		t.Errorf("the plain and gzipped bundle share the ETag %s", plain.Header.Get("ETag"))
	}
}

// signInRoutes need a provider or an account token, which this fixture has not: their HEAD still
// mirrors their GET's refusal.
var signInRoutes = map[string]bool{"/v1/auth/oidc/login": true, "/v1/auth/oidc/callback": true, "/v1/me/classrooms": true, "/v1/me/tokens": true}
