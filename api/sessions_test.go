package api_test

import (
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
	"time"

	"primegames/api"
	"primegames/api/apitest"
	"primegames/api/openapi"
)

// browserSignIn signs who in through instance login with return_to, takes the callback on
// instance back as a browser does (no redirect followed), checks the redirect and the cookie's
// attributes, and returns the session's cookie as a Cookie header pair.
func (r *signInRig) browserSignIn(login, back *apitest.Server, who teacher, returnTo string) []string {
	r.t.Helper()
	q := r.loginTo(login, who, returnTo)
	resp, body := r.browse(back.Request(http.MethodGet, "/v1/auth/oidc/callback?"+q.Encode(), nil))
	if resp.StatusCode != http.StatusFound || resp.Header.Get("Location") != returnTo {
		r.t.Fatalf("callback = %d to %q, want 302 to %q: %s", resp.StatusCode, resp.Header.Get("Location"), returnTo, body)
	}
	var session *http.Cookie
	for _, c := range resp.Cookies() {
		if c.Name == "pg_session" {
			session = c
		}
	}
	if session == nil || !strings.HasPrefix(session.Value, "pgb_") {
		r.t.Fatalf("no session cookie: %q", resp.Header.Values("Set-Cookie"))
	}
	if !session.HttpOnly || !session.Secure || session.SameSite != http.SameSiteLaxMode || session.Path != "/" || session.MaxAge != 7*24*3600 {
		r.t.Fatalf("session cookie %q: want HttpOnly, Secure (PUBLIC_URL is https), SameSite=Lax, Path=/, 7 days", resp.Header.Get("Set-Cookie"))
	}
	if strings.Contains(resp.Header.Get("Cache-Control"), "store") == false {
		r.t.Errorf("callback's Cache-Control %q, want no-store", resp.Header.Get("Cache-Control"))
	}
	return []string{"Cookie", "pg_session=" + session.Value}
}

func with(headers []string, more ...string) []string {
	return append(append([]string{}, headers...), more...)
}

// A sign-in with return_to lands in a browser session, valid on both instances; the cookie works
// as the account's token for reading, and for changing only from a page of this service (CSRF);
// logout ends it and its streams.
func TestBrowserSessionAcrossInstances(t *testing.T) {
	t.Parallel()
	r := newSignInRig(t)
	cookie := r.browserSignIn(r.a, r.b, teacher{subject: "t-web", name: "Ms Web"}, "/dashboard/?tab=classes")

	var me openapi.Me
	if resp := r.a.Get("/v1/me", cookie...); resp.StatusCode != http.StatusOK {
		t.Fatalf("/v1/me with the cookie on the other instance = %d: %s", resp.StatusCode, resp.Body)
	} else {
		resp.JSON(t, &me)
	}
	if me.Kind != "account" || me.Account == nil || me.Account.Name != "Ms Web" {
		t.Fatalf("/v1/me = %+v", me)
	}

	body := map[string]string{"name": "Class 6C"}
	for _, cross := range [][]string{
		cookie, // neither header: refused
		with(cookie, "Sec-Fetch-Site", "cross-site"),
		with(cookie, "Sec-Fetch-Site", "same-site"),
		with(cookie, "Origin", "https://evil.example"),
		with(cookie, "Origin", "null"),
		with(cookie, "Sec-Fetch-Site", "cross-site", "Origin", "https://games.example"),
	} {
		resp := r.b.Post("/v1/classrooms", body, cross...)
		if resp.StatusCode != http.StatusForbidden || resp.Problem(t).Code != "csrf_refused" {
			t.Fatalf("POST with the cookie and %q = %d, want 403 csrf_refused: %s", cross[2:], resp.StatusCode, resp.Body)
		}
	}
	var room openapi.CreatedClassroom
	for i, same := range [][]string{with(cookie, "Sec-Fetch-Site", "same-origin"), with(cookie, "Origin", "https://games.example")} {
		resp := r.a.Post("/v1/classrooms", body, same...)
		if resp.StatusCode != http.StatusCreated {
			t.Fatalf("POST with the cookie from this service (%q) = %d: %s", same[2:], resp.StatusCode, resp.Body)
		}
		if i == 0 {
			resp.JSON(t, &room)
		}
	}
	classroom := "/v1/classrooms/" + room.Classroom.Id.String()
	if resp := r.b.Get(classroom+"/students", cookie...); resp.StatusCode != http.StatusOK {
		t.Fatalf("reading the classroom with the cookie = %d", resp.StatusCode)
	}
	// A bearer token is used instead of the cookie, and needs no CSRF check.
	other := r.signedIn("t-other")
	if resp := r.b.Get(classroom, with(cookie, "Authorization", "Bearer "+other)...); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("another account's bearer token with the cookie = %d, want 404 (the bearer decides)", resp.StatusCode)
	}
	if resp := r.b.Post("/v1/classrooms", body, with(cookie, "Authorization", "Bearer "+other, "Sec-Fetch-Site", "cross-site")...); resp.StatusCode != http.StatusCreated {
		t.Fatalf("POST with a bearer token cross-site = %d, want 201", resp.StatusCode)
	}

	stream := openEvStream(t, r.b.URL, classroom+"/events", cookie...)
	if resp := r.a.Post("/v1/auth/logout", nil, with(cookie, "Sec-Fetch-Site", "cross-site")...); resp.StatusCode != http.StatusForbidden {
		t.Fatalf("cross-site logout = %d, want 403", resp.StatusCode)
	}
	out := r.a.Post("/v1/auth/logout", nil, with(cookie, "Sec-Fetch-Site", "same-origin")...)
	if out.StatusCode != http.StatusNoContent || !strings.Contains(out.Header.Get("Set-Cookie"), "pg_session=;") || !strings.Contains(out.Header.Get("Set-Cookie"), "Max-Age=0") {
		t.Fatalf("logout = %d, Set-Cookie %q", out.StatusCode, out.Header.Get("Set-Cookie"))
	}
	stream.untilRevoked(t, "token_revoked")
	if resp := r.b.Get("/v1/me", cookie...); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("/v1/me after logout = %d, want 401", resp.StatusCode)
	}
	if resp := r.b.Post("/v1/auth/logout", nil); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("logout without a session = %d, want 204", resp.StatusCode)
	}
	r.noErrorLines()
}

// A session ends after 12 hours without a request, and 7 days after its sign-in whatever its use;
// a return_to that could leave the service is refused.
func TestBrowserSessionLifetime(t *testing.T) {
	t.Parallel()
	r := newSignInRig(t)
	idle := r.browserSignIn(r.a, r.a, teacher{subject: "t-idle"}, "/")
	busy := r.browserSignIn(r.b, r.b, teacher{subject: "t-busy"}, "/x")
	for _, bad := range []string{"//evil.example/x", "/\\evil.example", "https://evil.example/", "evil", "/a//b", "/a\x01"} {
		resp := r.a.Get("/v1/auth/oidc/login?return_to=" + url.QueryEscape(bad))
		if resp.StatusCode != http.StatusBadRequest || resp.Problem(t).Code != "invalid_return_to" {
			t.Errorf("return_to %q = %d, want 400 invalid_return_to", bad, resp.StatusCode)
		}
	}
	for day := 0; day < 13; day++ { // a request every 11 hours keeps the busy one for 7 days
		r.clock.Advance(11 * time.Hour)
		want := http.StatusOK
		if time.Duration(day+1)*11*time.Hour >= 7*24*time.Hour {
			want = http.StatusUnauthorized
		}
		if resp := r.a.Get("/v1/me", busy...); resp.StatusCode != want {
			t.Fatalf("busy session after %d×11 h = %d, want %d", day+1, resp.StatusCode, want)
		}
		if day == 1 {
			if resp := r.a.Get("/v1/me", idle...); resp.StatusCode != http.StatusUnauthorized {
				t.Fatalf("session idle for 22 h = %d, want 401", resp.StatusCode)
			}
		}
	}
	r.noErrorLines()
}

// A browser's cookie jar, over plain http (PUBLIC_URL http, so the cookie is not Secure and the jar
// sends it back): signed in by following the provider's redirects, the jar's cookie names the
// account on both instances; logout clears it from the jar.
func TestBrowserSessionInACookieJar(t *testing.T) {
	t.Parallel()
	r := newSignInRig(t, func(cfg *api.Config) { cfg.OIDC.PublicURL = "http://games.example" })
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	browser := &http.Client{Jar: jar, Timeout: 10 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	do := func(method string, s *apitest.Server, path string, headers ...string) *http.Response {
		t.Helper()
		req := s.Request(method, path, nil, headers...)
		resp, err := browser.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		if err := r.contract.Check(req, resp.StatusCode, resp.Header, body); err != nil {
			t.Errorf("%s %s against the contract: %v", method, path, err)
		}
		return resp
	}
	q := r.loginTo(r.a, teacher{subject: "t-jar", name: "Mr Jar"}, "/home")
	if resp := do(http.MethodGet, r.a, "/v1/auth/oidc/callback?"+q.Encode()); resp.StatusCode != http.StatusFound || resp.Header.Get("Location") != "/home" {
		t.Fatalf("callback = %d to %q", resp.StatusCode, resp.Header.Get("Location"))
	} else if set := resp.Header.Get("Set-Cookie"); strings.Contains(set, "Secure") || !strings.Contains(set, "HttpOnly") {
		t.Fatalf("cookie under http: %q, want HttpOnly and not Secure", set)
	}
	// The jar keeps the cookie for the instance's host; both instances listen on 127.0.0.1.
	for _, s := range []*apitest.Server{r.a, r.b} {
		if resp := do(http.MethodGet, s, "/v1/me"); resp.StatusCode != http.StatusOK {
			t.Fatalf("/v1/me from the jar = %d", resp.StatusCode)
		}
	}
	if resp := do(http.MethodPost, r.b, "/v1/classrooms", "Origin", "http://games.example"); resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("a same-origin POST (no body) = %d, want 400: past the CSRF check", resp.StatusCode)
	}
	if resp := do(http.MethodPost, r.b, "/v1/auth/logout", "Sec-Fetch-Site", "same-origin"); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("logout = %d", resp.StatusCode)
	}
	if resp := do(http.MethodGet, r.a, "/v1/me"); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("/v1/me after logout = %d, want 401 (no cookie left)", resp.StatusCode)
	}
	r.noErrorLines()
}
