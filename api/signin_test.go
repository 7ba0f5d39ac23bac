package api_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/oauth2-proxy/mockoidc"

	"primegames/api"
	"primegames/api/apitest"
	"primegames/api/openapi"
	"primegames/repo/repotest"
)

// Teachers' sign-in against a real OpenID provider (mockoidc: discovery, JWKS, RS256-signed ID
// tokens, PKCE) running in the test, with two instances of the service over one database.

const signInPublicURL = "https://games.example"

// teacher is a person the provider signs in; audience and nonce, when set, are what the provider
// puts in the ID token in place of the right ones (signed all the same).
type teacher struct {
	subject, name string
	audience      string
	nonce         string
}

func (u teacher) ID() string { return u.subject }
func (u teacher) Userinfo([]string) ([]byte, error) {
	return []byte(`{"sub":"` + u.subject + `"}`), nil
}
func (u teacher) Claims(_ []string, base *mockoidc.IDTokenClaims) (jwt.Claims, error) {
	if u.audience != "" {
		base.Audience = jwt.ClaimStrings{u.audience}
	}
	if u.nonce != "" {
		base.Nonce = u.nonce
	}
	return struct {
		*mockoidc.IDTokenClaims
		Name  string `json:"name"`
		Email string `json:"email"`
	}{base, u.name, u.subject + "@school.example"}, nil
}

type signInRig struct {
	*twoInstances
	provider *mockoidc.MockOIDC
	// publicURL is the instances' PUBLIC_URL.
	publicURL string
}

func newSignInRig(t *testing.T, configure ...func(*api.Config)) *signInRig {
	t.Helper()
	provider := runProvider(t)
	oidc := provider.Config()
	cfg := testConfig()
	cfg.OIDC = api.OIDCConfig{Issuer: oidc.Issuer, ClientID: oidc.ClientID, ClientSecret: oidc.ClientSecret, PublicURL: signInPublicURL}
	for _, f := range configure {
		f(&cfg)
	}
	cfg.AdminToken = "the-operators-admin-token"
	return &signInRig{twoInstances: newTwoInstances(t, cfg), provider: provider, publicURL: cfg.OIDC.PublicURL}
}

// runProvider runs an OpenID provider for the test.
func runProvider(t *testing.T) *mockoidc.MockOIDC {
	t.Helper()
	provider, err := mockoidc.Run()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = provider.Shutdown() })
	return provider
}

// login asks instance s to sign in and follows its redirect to the provider, which signs in who;
// it returns the query the provider sends back to the callback.
func (r *signInRig) login(s *apitest.Server, who teacher) url.Values {
	r.t.Helper()
	return r.loginTo(s, who, "")
}

// loginTo is login with the sign-in's return_to ("": none).
func (r *signInRig) loginTo(s *apitest.Server, who teacher, returnTo string) url.Values {
	r.t.Helper()
	query := url.Values{}
	if returnTo != "" {
		query.Set("return_to", returnTo)
	}
	return r.loginWith(s, r.provider, who, query)
}

// loginWith is login at provider, the login's query saying which (provider=) and more.
func (r *signInRig) loginWith(s *apitest.Server, provider *mockoidc.MockOIDC, who teacher, query url.Values) url.Values {
	r.t.Helper()
	provider.UserQueue.Push(who)
	path := "/v1/auth/oidc/login"
	if len(query) > 0 {
		path += "?" + query.Encode()
	}
	resp, body := r.browse(s.Request(http.MethodGet, path, nil))
	if resp.StatusCode != http.StatusFound {
		r.t.Fatalf("login = %d: %s", resp.StatusCode, body)
	}
	to, err := url.Parse(resp.Header.Get("Location"))
	if err != nil || !strings.HasPrefix(to.String(), provider.AuthorizationEndpoint()) {
		r.t.Fatalf("login redirects to %q, want the provider's %s", to, provider.AuthorizationEndpoint())
	}
	q := to.Query()
	if q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "" || q.Get("state") == "" || q.Get("nonce") == "" ||
		q.Get("redirect_uri") != r.publicURL+"/v1/auth/oidc/callback" || q.Get("scope") != "openid profile email" {
		r.t.Fatalf("authorization request lacks PKCE S256, state, nonce, redirect URI or scopes: %s", q)
	}
	back, err := r.browser.Get(to.String())
	if err != nil {
		r.t.Fatal(err)
	}
	_ = back.Body.Close()
	callback, err := url.Parse(back.Header.Get("Location"))
	if back.StatusCode != http.StatusFound || err != nil || callback.Path != "/v1/auth/oidc/callback" {
		r.t.Fatalf("provider answered %d to %q", back.StatusCode, back.Header.Get("Location"))
	}
	return callback.Query()
}

func (r *signInRig) callback(s *apitest.Server, q url.Values) *apitest.Response {
	r.t.Helper()
	return s.Get("/v1/auth/oidc/callback?" + q.Encode())
}

// refused checks that resp is a 400 problem with code.
func refusedSignIn(t *testing.T, resp *apitest.Response, code string) {
	t.Helper()
	if resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("status %d, want 400 %s: %s", resp.StatusCode, code, resp.Body)
	}
	if p := resp.Problem(t); p.Code != code {
		t.Fatalf("code %q, want %q: %s", p.Code, code, p.Detail)
	}
}

// The whole flow, the login on one instance and the callback on the other: the account and its
// token, /v1/me, a classroom made with the token (ADMIN_TOKEN set) and listed, run by the token.
func TestSignInFlowAcrossInstances(t *testing.T) {
	t.Parallel()
	r := newSignInRig(t)
	resp := r.callback(r.b, r.login(r.a, teacher{subject: "t-1", name: "Ms Rivera"}))
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("callback = %d: %s", resp.StatusCode, resp.Body)
	}
	var signed openapi.SignedIn
	resp.JSON(t, &signed)
	if signed.Account.Name != "Ms Rivera" || signed.Account.Issuer != r.provider.Issuer() || !strings.HasPrefix(signed.Token, "pga_") {
		t.Fatalf("signed in as %+v with %q", signed.Account, signed.Token)
	}
	if strings.Contains(string(resp.Body), "@school.example") {
		t.Fatalf("the answer shows the email: %s", resp.Body)
	}
	if d := signed.TokenInfo.ExpiresAt.Sub(signed.TokenInfo.CreatedAt); d != 90*24*time.Hour {
		t.Fatalf("token lives %v, want 90 days", d)
	}
	auth := bearer(signed.Token)

	var me openapi.Me
	r.a.Get("/v1/me", auth...).JSON(t, &me)
	if me.Kind != "account" || me.Account == nil || me.Account.Id != signed.Account.Id {
		t.Fatalf("/v1/me = %+v", me)
	}
	created := r.b.Post("/v1/classrooms", map[string]string{"name": "Class 4B"}, auth...)
	if created.StatusCode != http.StatusCreated {
		t.Fatalf("create classroom = %d: %s", created.StatusCode, created.Body)
	}
	var room openapi.CreatedClassroom
	created.JSON(t, &room)
	var mine openapi.ClassroomList
	r.a.Get("/v1/me/classrooms", auth...).JSON(t, &mine)
	if len(mine.Classrooms) != 1 || mine.Classrooms[0].Id != room.Classroom.Id {
		t.Fatalf("my classrooms = %+v", mine)
	}
	// The account token runs its classroom as the teacher token does.
	if got := r.a.Get("/v1/classrooms/"+room.Classroom.Id.String()+"/students", auth...); got.StatusCode != http.StatusOK {
		t.Fatalf("students with the account token = %d: %s", got.StatusCode, got.Body)
	}
	// Signing in again finds the same account.
	again := r.callback(r.a, r.login(r.b, teacher{subject: "t-1", name: "Ms Rivera"}))
	var second openapi.SignedIn
	again.JSON(t, &second)
	if second.Account.Id != signed.Account.Id || second.Token == signed.Token {
		t.Fatalf("second sign-in: %+v", second)
	}
	r.noErrorLines()
}

// A callback replayed, a forged state, a wrong nonce or audience, an expired ID token: each a 400
// problem, and no ERROR line.
func TestSignInRefusals(t *testing.T) {
	t.Parallel()
	r := newSignInRig(t)

	q := r.login(r.a, teacher{subject: "t-2", name: "Mr Okafor"})
	if resp := r.callback(r.b, q); resp.StatusCode != http.StatusOK {
		t.Fatalf("callback = %d: %s", resp.StatusCode, resp.Body)
	}
	refusedSignIn(t, r.callback(r.a, q), "sign_in_state_invalid") // replayed, on the other instance
	refusedSignIn(t, r.callback(r.b, q), "sign_in_state_invalid")

	forged := r.login(r.a, teacher{subject: "t-2"})
	forged.Set("state", "forged-"+forged.Get("state"))
	refusedSignIn(t, r.callback(r.b, forged), "sign_in_state_invalid")

	refusedSignIn(t, r.callback(r.a, r.login(r.a, teacher{subject: "t-2", nonce: "not-this-sign-ins"})), "id_token_invalid")
	refusedSignIn(t, r.callback(r.a, r.login(r.a, teacher{subject: "t-2", audience: "another-client"})), "id_token_invalid")

	stolen := r.login(r.a, teacher{subject: "t-2"})
	stolen.Set("code", "a-code-the-provider-never-gave")
	refusedSignIn(t, r.callback(r.a, stolen), "sign_in_code_refused")

	denied := r.login(r.a, teacher{subject: "t-2"})
	denied.Del("code")
	denied.Set("error", "access_denied")
	refusedSignIn(t, r.callback(r.a, denied), "sign_in_denied")

	if resp := r.a.Get("/v1/auth/oidc/login?return_to=//evil.example/x"); resp.StatusCode != http.StatusBadRequest || resp.Problem(t).Code != "invalid_return_to" {
		t.Fatalf("an open redirect was not refused: %d %s", resp.StatusCode, resp.Body)
	}
	r.noErrorLines()
}

// An ID token past its exp (by the service's clock), and a state older than 10 minutes, refused.
func TestSignInExpired(t *testing.T) {
	t.Parallel()
	r := newSignInRig(t)
	r.provider.AccessTTL = time.Minute // the ID tokens' lifetime
	q := r.login(r.a, teacher{subject: "t-3"})
	r.clock.Advance(2 * time.Minute)
	resp := r.callback(r.b, q)
	refusedSignIn(t, resp, "id_token_invalid")
	if p := resp.Problem(t); !strings.Contains(p.Detail, "expired") {
		t.Fatalf("detail %q does not say the token expired", p.Detail)
	}

	late := r.login(r.a, teacher{subject: "t-3"})
	r.clock.Advance(11 * time.Minute)
	refusedSignIn(t, r.callback(r.b, late), "sign_in_state_invalid")
	r.noErrorLines()
}

// Without a provider configured, sign-in says so.
func TestSignInNotConfigured(t *testing.T) {
	t.Parallel()
	s := apitest.Start(t, newServer(t, repotest.NewDB(t)))
	resp := s.Get("/v1/auth/oidc/login")
	if resp.StatusCode != http.StatusNotFound || resp.Problem(t).Code != "sign_in_not_configured" {
		t.Fatalf("login without a provider = %d: %s", resp.StatusCode, resp.Body)
	}
}
