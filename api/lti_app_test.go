package api_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"primegames/repo/repotest"
)

// The web app's side of a launch: the launch lands on /app/lti (with the code in the fragment),
// which the registered platforms may frame, as they may the pages it goes on to; the app's other
// pages may be framed by no one.
func TestLTILaunchLandsInTheWebAppFramedByThePlatformsOnly(t *testing.T) {
	t.Parallel()
	r := newLTIRig(t)
	state, nonce := r.login(r.a, false)
	resp, _ := r.launch(r.a, r.platform.sign(t, r.platform.key, r.claims("teacher-1", "Instructor", nonce)), state)
	to, err := url.Parse(resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusSeeOther || err != nil || to.String() != ltiPublicURL+"/app/lti#"+to.Fragment || !strings.HasPrefix(to.Fragment, "code=") {
		t.Fatalf("launch = %d to %q, want 303 to %s/app/lti#code=…", resp.StatusCode, resp.Header.Get("Location"), ltiPublicURL)
	}

	page := func(path string) string {
		t.Helper()
		got, err := http.Get(r.a.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(got.Body)
		_ = got.Body.Close()
		if got.StatusCode != http.StatusOK || !strings.Contains(string(body), `<div id="app"`) {
			t.Fatalf("GET %s = %d", path, got.StatusCode)
		}
		csp := got.Header.Get("Content-Security-Policy")
		if !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe-inline") || strings.Count(csp, "frame-ancestors") != 1 {
			t.Errorf("GET %s: CSP %q", path, csp)
		}
		return csp[strings.Index(csp, "frame-ancestors"):]
	}
	// The issuer's origin, its registrable domain's hosts (a cloud LMS frames from the school's
	// own host) and the authorization URL's origin; nothing else.
	platform := "frame-ancestors https://lms.school.example https://*.school.example " + r.platform.server.URL
	for _, path := range []string{"/app/lti", "/app/teacher", "/app/teacher/classrooms/0b5e7f4e-3c1a-4d2e-9f6b-8a7c5d4e3f21", "/app/me", "/app/game/0b5e7f4e-3c1a-4d2e-9f6b-8a7c5d4e3f21"} {
		if got := page(path); got != platform {
			t.Errorf("GET %s: %q, want %q", path, got, platform)
		}
	}
	for _, path := range []string{"/app/", "/app/sign-in", "/app/lti-not", "/app/elsewhere"} {
		if got := page(path); got != "frame-ancestors 'none'" {
			t.Errorf("GET %s: %q, want frame-ancestors 'none'", path, got)
		}
	}
	// A registration deleted: on this instance its origins frame nothing from then on.
	var platforms struct{ Platforms []struct{ ID string } }
	r.a.Get("/v1/lti/platforms", bearer(ltiAdmin)...).JSON(t, &platforms)
	if len(platforms.Platforms) != 1 {
		t.Fatalf("platforms: %+v", platforms)
	}
	if got := r.a.Do(r.a.Request(http.MethodDelete, "/v1/lti/platforms/"+platforms.Platforms[0].ID, nil, bearer(ltiAdmin)...)); got.StatusCode != http.StatusNoContent {
		t.Fatalf("deleting the platform = %d: %s", got.StatusCode, got.Body)
	}
	if got := page("/app/lti"); got != "frame-ancestors 'none'" {
		t.Errorf("GET /app/lti after the platform's deletion: %q", got)
	}

	// The service's own landing page stays for apps that link to it.
	if got := r.a.Get("/v1/lti/landing"); got.StatusCode != http.StatusOK || !strings.Contains(string(got.Body), "/app/lti") {
		t.Errorf("GET /v1/lti/landing = %d: %s", got.StatusCode, got.Body)
	}
}

// Without a registered platform (or without LTI) no page of the app may be framed.
func TestWebAppFramedByNoOneWithoutPlatforms(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(newServer(t, repotest.NewDB(t)))
	t.Cleanup(srv.Close)
	for _, path := range []string{"/app/", "/app/lti", "/app/teacher"} {
		got, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		_ = got.Body.Close()
		if csp := got.Header.Get("Content-Security-Policy"); got.StatusCode != http.StatusOK || !strings.HasSuffix(csp, "; frame-ancestors 'none'") {
			t.Errorf("GET %s = %d, CSP %q", path, got.StatusCode, csp)
		}
	}
}
