package api_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"primegames/repo/repotest"
)

// The web app is served at /app/: any path under it is index.html (never cached), which names the
// bundle's hashed files (cached for a year), all under a Content-Security-Policy without inline
// scripts or styles.
func TestWebAppIsServedUnderAStrictPolicy(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(newServer(t, repotest.NewDB(t)))
	t.Cleanup(srv.Close)
	get := func(path string) (*http.Response, string) {
		t.Helper()
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp, string(body)
	}
	var page string
	for _, path := range []string{"/app/", "/app/game/5f0c5c8e-0000-4000-8000-000000000000", "/app/sign-in", "/app"} {
		resp, body := get(path)
		if resp.StatusCode != http.StatusOK || !strings.Contains(body, `<div id="app">`) {
			t.Fatalf("GET %s = %d %.80q, want the app's page", path, resp.StatusCode, body)
		}
		if got := resp.Header.Get("Cache-Control"); got != "no-cache" {
			t.Errorf("GET %s: Cache-Control %q, want no-cache", path, got)
		}
		csp := resp.Header.Get("Content-Security-Policy")
		if strings.Contains(csp, "unsafe-") || !strings.Contains(csp, "script-src 'self'") || !strings.Contains(csp, "connect-src 'self'") {
			t.Errorf("GET %s: Content-Security-Policy %q", path, csp)
		}
		page = body
	}
	assets := regexp.MustCompile(`/app/assets/app-[A-Z0-9]+\.(js|css)`).FindAllString(page, -1)
	if len(assets) != 2 {
		t.Fatalf("index.html names %v, want a script and a style", assets)
	}
	for _, asset := range assets {
		resp, body := get(asset)
		if resp.StatusCode != http.StatusOK || len(body) < 1000 || resp.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" {
			t.Errorf("GET %s = %d, %d bytes, Cache-Control %q", asset, resp.StatusCode, len(body), resp.Header.Get("Cache-Control"))
		}
	}
	if resp, _ := get("/app/assets/app-NOSUCHFILE.js"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("GET a missing asset = %d, want 404", resp.StatusCode)
	}
}
