package api_test

import (
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"

	"primegames/api"
	"primegames/api/apitest"
	"primegames/domain/games"
	"primegames/outbound"
	"primegames/play"
	"primegames/repo/repotest"
)

// LTI 1.3 launches against a platform simulated in the test: an httptest server serving its key
// set (JWKS), an RSA key signing real ID tokens (go-jose), two instances of the service over one
// database (the login initiated on one, the launch posted to the other).

const (
	testLTIKey    = "a secret key of at least thirty-two characters" // every test service's SECRET_KEY for LTI
	ltiPublicURL  = "https://games.example"
	ltiAdmin      = "the-operators-admin-token"
	ltiClientID   = "client-7"
	ltiDeployment = "deployment-1"
	ltiCourse     = "course-42"
)

// ltiRefusingRoutes are the LTI GET routes that refuse the fixture of TestHeadMirrorsGetOnEveryGetRoute
// (no admin token, no registered platform); their HEAD still mirrors their GET's refusal.
var ltiRefusingRoutes = map[string]bool{"/v1/lti/platforms": true, "/v1/lti/platforms/" + testPlatformID: true, "/v1/lti/login": true}

// testPlatformID is a platform id the fixtures fill in where one is needed.
const testPlatformID = "0b5e7f4e-3c1a-4d2e-9f6b-8a7c5d4e3f21"

type ltiPlatform struct {
	mu     sync.Mutex // guards key and kid, which rotate changes
	key    *rsa.PrivateKey
	kid    string
	server *httptest.Server
	issuer string
	// toolKeys is the service's GET /v1/lti/jwks, which the token URL verifies assertions with;
	// granted counts the assertions it took.
	toolKeys string
	granted  atomic.Int32
	// grades is the platform's gradebook (lti_grades_test.go).
	grades gradebook
}

func newLTIPlatform(t *testing.T) *ltiPlatform {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	p := &ltiPlatform{key: key, kid: "platform-key-1"}
	p.server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/jwks":
			p.mu.Lock()
			set := jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: &p.key.PublicKey, KeyID: p.kid, Algorithm: "RS256", Use: "sig"}}}
			p.mu.Unlock()
			_ = json.NewEncoder(w).Encode(set)
		case "/token":
			p.token(w, r)
		case "/memberships":
			p.memberships(w, r)
		case "/lineitems":
			p.grades.lineItem(w, r)
		default:
			if strings.HasPrefix(r.URL.Path, "/lineitems/") && strings.HasSuffix(r.URL.Path, "/scores") {
				p.grades.score(w, r)
				return
			}
			if strings.HasPrefix(r.URL.Path, "/lineitems/") && r.Method == http.MethodPut {
				p.grades.lineItem(w, r)
				return
			}
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(p.server.Close)
	p.issuer = "https://lms.school.example"
	return p
}

// token is the platform's token URL: the client credentials grant with the tool's JWT, verified
// against the tool's published keys (RFC 7523; Security Framework §4.1).
func (p *ltiPlatform) token(w http.ResponseWriter, r *http.Request) {
	scope := r.PostFormValue("scope")
	if r.PostFormValue("grant_type") != "client_credentials" || (scope != play.LTIScopeMemberships && scope != play.LTIScopeLineItem && scope != play.LTIScopeScore) ||
		r.PostFormValue("client_assertion_type") != "urn:ietf:params:oauth:client-assertion-type:jwt-bearer" {
		http.Error(w, `{"error":"invalid_request"}`, http.StatusBadRequest)
		return
	}
	resp, err := http.Get(p.toolKeys)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	var keys jose.JSONWebKeySet
	_ = json.NewDecoder(resp.Body).Decode(&keys)
	assertion, err := jwt.ParseSigned(r.PostFormValue("client_assertion"), []jose.SignatureAlgorithm{jose.RS256})
	if err != nil || len(assertion.Headers) != 1 || len(keys.Key(assertion.Headers[0].KeyID)) != 1 {
		http.Error(w, `{"error":"invalid_client"}`, http.StatusUnauthorized)
		return
	}
	var claims jwt.Claims
	if err := assertion.Claims(keys.Key(assertion.Headers[0].KeyID)[0].Key, &claims); err != nil ||
		claims.Issuer != ltiClientID || claims.Subject != ltiClientID || !claims.Audience.Contains(p.server.URL+"/token") || claims.ID == "" {
		http.Error(w, `{"error":"invalid_client"}`, http.StatusUnauthorized)
		return
	}
	if p.grades.failTokens.Load() > 0 {
		p.grades.failTokens.Add(-1)
		http.Error(w, `{"error":"temporarily_unavailable"}`, http.StatusServiceUnavailable)
		return
	}
	p.granted.Add(1)
	token := "access-1"
	if scope != play.LTIScopeMemberships {
		token = accessTokenFor(scope)
	}
	_, _ = w.Write([]byte(`{"access_token":"` + token + `","token_type":"bearer","expires_in":3600}`))
}

// memberships is the course's roster: an instructor, two active learners (one launched already)
// and an inactive one.
func (p *ltiPlatform) memberships(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("Authorization") != "Bearer access-1" || r.Header.Get("Accept") != play.LTIMembershipMediaType {
		http.Error(w, "unauthorized", http.StatusUnauthorized)
		return
	}
	member := func(id, role, status string) map[string]any {
		return map[string]any{"user_id": id, "status": status, "name": "Full Name " + id, "given_name": "Given" + id, "email": id + "@school.example",
			"roles": []string{"http://purl.imsglobal.org/vocab/lis/v2/membership#" + role}}
	}
	w.Header().Set("Content-Type", play.LTIMembershipMediaType)
	_ = json.NewEncoder(w).Encode(map[string]any{"id": p.server.URL + "/memberships", "context": map[string]string{"id": ltiCourse, "title": "Maths 4B"},
		"members": []any{member("teacher-1", "Instructor", "Active"), member("learner-1", "Learner", "Active"), member("learner-2", "Learner", "Active"), member("learner-3", "Learner", "Inactive")}})
}

// sign signs claims with key (the platform's, or a forger's) under the platform's kid.
func (p *ltiPlatform) sign(t *testing.T, key *rsa.PrivateKey, claims map[string]any) string {
	t.Helper()
	p.mu.Lock()
	kid := p.kid
	p.mu.Unlock()
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.RS256, Key: jose.JSONWebKey{Key: key, KeyID: kid}}, (&jose.SignerOptions{}).WithType("JWT"))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := jwt.Signed(signer).Claims(claims).Serialize()
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

type ltiRig struct {
	*twoInstances
	platform *ltiPlatform
}

func newLTIRig(t *testing.T) *ltiRig {
	t.Helper()
	sender, err := outbound.New(outbound.Config{AllowedHosts: []string{"127.0.0.1"}, Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	cfg := testConfig()
	cfg.BodyLimitBytes = 64 << 10
	cfg.AdminToken = ltiAdmin
	cfg.LTI = api.LTIConfig{PublicURL: ltiPublicURL, Fetcher: sender}
	r := &ltiRig{twoInstances: newTwoInstances(t, cfg), platform: newLTIPlatform(t)}
	r.platform.toolKeys = r.a.URL + "/v1/lti/jwks"
	resp := r.a.Post("/v1/lti/platforms", map[string]any{
		"issuer": r.platform.issuer, "client_id": ltiClientID, "deployment_ids": []string{ltiDeployment},
		"jwks_url": r.platform.server.URL + "/jwks", "auth_url": r.platform.server.URL + "/auth?tenant=1", "token_url": r.platform.server.URL + "/token",
	}, bearer(ltiAdmin)...)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("registering the platform = %d: %s", resp.StatusCode, resp.Body)
	}
	return r
}

func (r *ltiRig) form(s *apitest.Server, path string, form url.Values) (*http.Response, []byte) {
	r.t.Helper()
	req := s.Request(http.MethodPost, path, form.Encode(), "Content-Type", "application/x-www-form-urlencoded")
	return r.browse(req)
}

// login initiates a login on s (by form post when post) and answers the state and nonce of the
// authentication request it redirects to.
func (r *ltiRig) login(s *apitest.Server, post bool) (state, nonce string) {
	r.t.Helper()
	q := url.Values{"iss": {r.platform.issuer}, "login_hint": {"hint-1"}, "target_link_uri": {ltiPublicURL + "/v1/lti/launch"},
		"lti_message_hint": {"msg-1"}, "client_id": {ltiClientID}, "lti_deployment_id": {ltiDeployment}}
	var resp *http.Response
	var body []byte
	if post {
		resp, body = r.form(s, "/v1/lti/login", q)
	} else {
		resp, body = r.browse(s.Request(http.MethodGet, "/v1/lti/login?"+q.Encode(), nil))
	}
	if resp.StatusCode != http.StatusFound {
		r.t.Fatalf("login = %d: %s", resp.StatusCode, body)
	}
	to, err := url.Parse(resp.Header.Get("Location"))
	if err != nil || !strings.HasPrefix(to.String(), r.platform.server.URL+"/auth?") {
		r.t.Fatalf("login redirects to %q", resp.Header.Get("Location"))
	}
	a := to.Query()
	for k, want := range map[string]string{"scope": "openid", "response_type": "id_token", "response_mode": "form_post", "prompt": "none",
		"client_id": ltiClientID, "redirect_uri": ltiPublicURL + "/v1/lti/launch", "login_hint": "hint-1", "lti_message_hint": "msg-1", "tenant": "1"} {
		if a.Get(k) != want {
			r.t.Errorf("authentication request %s = %q, want %q", k, a.Get(k), want)
		}
	}
	if a.Get("state") == "" || a.Get("nonce") == "" || a.Get("state") == a.Get("nonce") {
		r.t.Fatalf("authentication request without a state and a nonce: %s", a)
	}
	return a.Get("state"), a.Get("nonce")
}

// claims are a launch's claims for the person sub with role, which change may alter.
func (r *ltiRig) claims(sub, role, nonce string) map[string]any {
	now := r.clock.Now()
	return map[string]any{
		"iss": r.platform.issuer, "sub": sub, "aud": ltiClientID, "exp": now.Add(5 * time.Minute).Unix(), "iat": now.Unix(), "nonce": nonce,
		"name": "Full Name " + sub, "given_name": "Given" + sub, "email": sub + "@school.example",
		"https://purl.imsglobal.org/spec/lti/claim/message_type":    "LtiResourceLinkRequest",
		"https://purl.imsglobal.org/spec/lti/claim/version":         "1.3.0",
		"https://purl.imsglobal.org/spec/lti/claim/deployment_id":   ltiDeployment,
		"https://purl.imsglobal.org/spec/lti/claim/roles":           []string{"http://purl.imsglobal.org/vocab/lis/v2/membership#" + role},
		"https://purl.imsglobal.org/spec/lti/claim/context":         map[string]any{"id": ltiCourse, "title": "Maths 4B", "label": "M4B"},
		"https://purl.imsglobal.org/spec/lti/claim/resource_link":   map[string]any{"id": "link-1"},
		"https://purl.imsglobal.org/spec/lti/claim/target_link_uri": ltiPublicURL + "/v1/lti/launch",
	}
}

func (r *ltiRig) launch(s *apitest.Server, idToken, state string) (*http.Response, []byte) {
	r.t.Helper()
	return r.form(s, "/v1/lti/launch", url.Values{"id_token": {idToken}, "state": {state}})
}

// handover follows a launch's redirect: the web app's LTI page (the service's own landing page
// still served), and the code of its fragment traded.
func (r *ltiRig) handover(s *apitest.Server, resp *http.Response, body []byte) (handover struct {
	Role      string
	Token     string
	TokenID   string `json:"token_id"`
	Classroom struct{ ID, Name string }
	Account   *struct{ Name, Issuer string }
	Student   *struct{ ID, Name string }
}) {
	r.t.Helper()
	if resp.StatusCode != http.StatusSeeOther {
		r.t.Fatalf("launch = %d: %s", resp.StatusCode, body)
	}
	to, err := url.Parse(resp.Header.Get("Location"))
	if err != nil || to.Path != "/app/lti" || !strings.HasPrefix(to.String(), ltiPublicURL) || !strings.HasPrefix(to.Fragment, "code=") || to.RawQuery != "" {
		r.t.Fatalf("launch redirects to %q, want the web app's LTI page with the code in the fragment", resp.Header.Get("Location"))
	}
	landing, page := r.browse(s.Request(http.MethodGet, "/v1/lti/landing", nil))
	if landing.StatusCode != http.StatusOK || !strings.Contains(landing.Header.Get("Content-Security-Policy"), "default-src 'none'") || strings.Contains(string(page), "<script") {
		r.t.Errorf("landing = %d, CSP %q", landing.StatusCode, landing.Header.Get("Content-Security-Policy"))
	}
	code := strings.TrimPrefix(to.Fragment, "code=")
	got := s.Post("/v1/lti/handover", map[string]string{"code": code})
	if got.StatusCode != http.StatusOK {
		r.t.Fatalf("handover = %d: %s", got.StatusCode, got.Body)
	}
	got.JSON(r.t, &handover)
	if again := s.Post("/v1/lti/handover", map[string]string{"code": code}); again.StatusCode != http.StatusBadRequest || again.Problem(r.t).Code != "lti_handover_invalid" {
		r.t.Errorf("a second handover of the code = %d: %s", again.StatusCode, again.Body)
	}
	return handover
}

func (r *ltiRig) refused(resp *http.Response, body []byte, status int, code string) {
	r.t.Helper()
	var p apitest.Problem
	_ = json.Unmarshal(body, &p)
	if resp.StatusCode != status || p.Code != code {
		r.t.Errorf("answered %d %q, want %d %s: %s", resp.StatusCode, p.Code, status, code, body)
	}
}

// An instructor's launch (login on one instance, launch on the other) makes their account and the
// course's classroom; a learner's launch makes the classroom's student under their given name; the
// tokens handed over run the classroom and play as the student; a second launch finds the same.
func TestLTILaunchesAnInstructorAndALearnerAcrossInstances(t *testing.T) {
	t.Parallel()
	r := newLTIRig(t)
	state, nonce := r.login(r.a, false)
	resp, body := r.launch(r.b, r.platform.sign(t, r.platform.key, r.claims("teacher-1", "Instructor", nonce)), state)
	teacher := r.handover(r.a, resp, body)
	if teacher.Role != "teacher" || !strings.HasPrefix(teacher.Token, "pga_") || teacher.Classroom.Name != "Maths 4B" || teacher.Account == nil || teacher.Account.Name != "Full Name teacher-1" {
		t.Fatalf("instructor's handover: %+v", teacher)
	}
	if got := r.a.Get("/v1/classrooms/"+teacher.Classroom.ID, bearer(teacher.Token)...); got.StatusCode != http.StatusOK {
		t.Errorf("the instructor's token on the course's classroom = %d: %s", got.StatusCode, got.Body)
	}

	state, nonce = r.login(r.b, true)
	resp, body = r.launch(r.a, r.platform.sign(t, r.platform.key, r.claims("learner-1", "Learner", nonce)), state)
	learner := r.handover(r.b, resp, body)
	if learner.Role != "student" || !strings.HasPrefix(learner.Token, "pgl_") || learner.Classroom.ID != teacher.Classroom.ID || learner.Student == nil || learner.Student.Name != "Givenlearner-1" {
		t.Fatalf("learner's handover: %+v", learner)
	}
	if got := r.a.Get("/v1/me", bearer(learner.Token)...); got.StatusCode != http.StatusOK || !strings.Contains(string(got.Body), `"student"`) {
		t.Errorf("the learner's token = %d: %s", got.StatusCode, got.Body)
	}
	for _, leak := range []string{"learner-1@", "learner-1\"", ltiCourse, "Full Name learner-1"} {
		if strings.Contains(r.logs.String(), leak) {
			t.Errorf("the log holds %q", leak)
		}
	}

	// Again: the same classroom, the same student; a new student token, the old one no longer works.
	state, nonce = r.login(r.a, false)
	resp, body = r.launch(r.a, r.platform.sign(t, r.platform.key, r.claims("learner-1", "Learner", nonce)), state)
	again := r.handover(r.a, resp, body)
	if again.Student == nil || again.Student.ID != learner.Student.ID || again.Token == learner.Token {
		t.Errorf("second launch of the learner: %+v, first %+v", again, learner)
	}
	if got := r.a.Get("/v1/me", bearer(learner.Token)...); got.StatusCode != http.StatusUnauthorized {
		t.Errorf("the learner's replaced token = %d, want 401", got.StatusCode)
	}
	students := r.a.Get("/v1/classrooms/"+teacher.Classroom.ID+"/students", bearer(teacher.Token)...)
	if students.StatusCode != http.StatusOK || strings.Count(string(students.Body), `"name"`) != 1 {
		t.Errorf("students = %d: %s", students.StatusCode, students.Body)
	}

	// Another instructor of the course: a co-teacher of the first one's classroom.
	state, nonce = r.login(r.a, false)
	resp, body = r.launch(r.a, r.platform.sign(t, r.platform.key, r.claims("teacher-2", "Instructor", nonce)), state)
	coTeacher := r.handover(r.b, resp, body)
	if coTeacher.Role != "teacher" || coTeacher.Classroom.ID != teacher.Classroom.ID {
		t.Fatalf("second instructor's launch: %+v", coTeacher)
	}
	if got := r.b.Get("/v1/classrooms/"+teacher.Classroom.ID+"/students", bearer(coTeacher.Token)...); got.StatusCode != http.StatusOK {
		t.Errorf("the co-teacher reads the students = %d: %s", got.StatusCode, got.Body)
	}
	var teachers struct {
		Teachers []struct {
			Owner bool `json:"owner"`
		} `json:"teachers"`
	}
	r.a.Get("/v1/classrooms/"+teacher.Classroom.ID+"/teachers", bearer(teacher.Token)...).JSON(t, &teachers)
	if len(teachers.Teachers) != 2 || !teachers.Teachers[0].Owner || teachers.Teachers[1].Owner {
		t.Errorf("teachers after the second instructor's launch: %+v", teachers)
	}
	// Launching again adds nobody.
	state, nonce = r.login(r.a, false)
	resp, body = r.launch(r.a, r.platform.sign(t, r.platform.key, r.claims("teacher-2", "Instructor", nonce)), state)
	r.handover(r.a, resp, body)
	r.a.Get("/v1/classrooms/"+teacher.Classroom.ID+"/teachers", bearer(teacher.Token)...).JSON(t, &teachers)
	if len(teachers.Teachers) != 2 {
		t.Errorf("teachers after a second launch of the co-teacher: %+v", teachers)
	}

	// Signing out of a shared device: the token handed over names its id, which revokes it.
	if teacher.TokenID == "" {
		t.Fatal("the instructor's handover names no token_id")
	}
	if got := r.b.Do(r.b.Request(http.MethodDelete, "/v1/me/tokens/"+teacher.TokenID, nil, bearer(teacher.Token)...)); got.StatusCode != http.StatusNoContent {
		t.Fatalf("revoking the handed-over token = %d: %s", got.StatusCode, got.Body)
	}
	if got := r.a.Get("/v1/classrooms/"+teacher.Classroom.ID, bearer(teacher.Token)...); got.StatusCode != http.StatusUnauthorized {
		t.Errorf("the revoked handed-over token = %d, want 401", got.StatusCode)
	}
	noErrorLine(t, r.logs)
}

// Refused launches are 4xx problems with their codes and write no ERROR line; the state is
// taken by the refused launch (a replay is refused too).
func TestLTIRefusesForgedReplayedExpiredAndForeignLaunches(t *testing.T) {
	t.Parallel()
	r := newLTIRig(t)
	forger, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		change func(c map[string]any)
		key    *rsa.PrivateKey
		status int
		code   string
	}{
		{"forged signature", nil, forger, 400, "lti_id_token_invalid"},
		{"expired", func(c map[string]any) {
			c["exp"] = r.clock.Now().Add(-2 * time.Minute).Unix()
			c["iat"] = r.clock.Now().Add(-7 * time.Minute).Unix()
		}, nil, 400, "lti_id_token_invalid"},
		{"wrong audience", func(c map[string]any) { c["aud"] = "another-tool" }, nil, 400, "lti_id_token_invalid"},
		{"audiences without azp", func(c map[string]any) { c["aud"] = []string{ltiClientID, "another-tool"} }, nil, 400, "lti_id_token_invalid"},
		{"wrong issuer", func(c map[string]any) { c["iss"] = "https://elsewhere.example" }, nil, 400, "lti_id_token_invalid"},
		{"wrong nonce", func(c map[string]any) { c["nonce"] = "made-up" }, nil, 400, "lti_id_token_invalid"},
		{"unknown deployment", func(c map[string]any) { c["https://purl.imsglobal.org/spec/lti/claim/deployment_id"] = "deployment-9" }, nil, 403, "lti_deployment_unknown"},
		{"wrong message type", func(c map[string]any) {
			c["https://purl.imsglobal.org/spec/lti/claim/message_type"] = "LtiDeepLinkingRequest"
		}, nil, 400, "lti_message_unsupported"},
		{"wrong version", func(c map[string]any) { c["https://purl.imsglobal.org/spec/lti/claim/version"] = "1.1.0" }, nil, 400, "lti_message_unsupported"},
		{"mentor", func(c map[string]any) {
			c["https://purl.imsglobal.org/spec/lti/claim/roles"] = []string{"http://purl.imsglobal.org/vocab/lis/v2/membership#Mentor"}
		}, nil, 403, "lti_role_unsupported"},
		{"learner before any instructor", func(c map[string]any) {
			c["https://purl.imsglobal.org/spec/lti/claim/roles"] = []string{"http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"}
		}, nil, 409, "lti_classroom_not_ready"},
	} {
		state, nonce := r.login(r.a, false)
		claims := r.claims("person-1", "Instructor", nonce)
		if tc.change != nil {
			tc.change(claims)
		}
		key := tc.key
		if key == nil {
			key = r.platform.key
		}
		token := r.platform.sign(t, key, claims)
		resp, body := r.launch(r.b, token, state)
		r.refused(resp, body, tc.status, tc.code)
		// The same launch again: its state was taken.
		resp, body = r.launch(r.a, token, state)
		r.refused(resp, body, http.StatusBadRequest, "lti_state_invalid")
	}

	// A good launch replayed: the state (and with it the nonce) is used once.
	state, nonce := r.login(r.a, false)
	token := r.platform.sign(t, r.platform.key, r.claims("person-1", "Instructor", nonce))
	resp, body := r.launch(r.b, token, state)
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("good launch = %d: %s", resp.StatusCode, body)
	}
	resp, body = r.launch(r.a, token, state)
	r.refused(resp, body, http.StatusBadRequest, "lti_state_invalid")
	// Its token with another login's state: that login's nonce is not the token's.
	state2, _ := r.login(r.a, false)
	resp, body = r.launch(r.a, token, state2)
	r.refused(resp, body, http.StatusBadRequest, "lti_id_token_invalid")

	// A state older than ten minutes.
	state, nonce = r.login(r.a, false)
	r.clock.Advance(11 * time.Minute)
	resp, body = r.launch(r.a, r.platform.sign(t, r.platform.key, r.claims("person-1", "Instructor", nonce)), state)
	r.refused(resp, body, http.StatusBadRequest, "lti_state_invalid")

	// A login from an issuer nobody registered.
	resp, body = r.browse(r.a.Request(http.MethodGet, "/v1/lti/login?iss=https://nobody.example&login_hint=x&target_link_uri=y", nil))
	r.refused(resp, body, http.StatusBadRequest, "lti_platform_unknown")
	noErrorLine(t, r.logs)
}

// Registrations need the admin token, are unique by issuer and client id, and change and go; the
// tool's key set is published and rotated, the previous key kept published.
func TestLTIRegistrationsAndToolKeys(t *testing.T) {
	t.Parallel()
	r := newLTIRig(t)
	reg := map[string]any{"issuer": r.platform.issuer, "client_id": ltiClientID, "deployment_ids": []string{"d"},
		"jwks_url": r.platform.server.URL + "/jwks", "auth_url": "https://lms.example/auth", "token_url": "https://lms.example/token"}
	if got := r.a.Post("/v1/lti/platforms", reg); got.StatusCode != http.StatusUnauthorized {
		t.Errorf("registering without a token = %d", got.StatusCode)
	}
	if got := r.a.Post("/v1/lti/platforms", reg, bearer(ltiAdmin)...); got.StatusCode != http.StatusConflict || got.Problem(t).Code != "lti_platform_exists" {
		t.Errorf("registering twice = %d: %s", got.StatusCode, got.Body)
	}
	reg["client_id"], reg["jwks_url"] = "other", "http://10.0.0.1/jwks"
	if got := r.a.Post("/v1/lti/platforms", reg, bearer(ltiAdmin)...); got.StatusCode != http.StatusBadRequest || got.Problem(t).Code != "invalid_lti_platform" {
		t.Errorf("registering a key set on a private address = %d: %s", got.StatusCode, got.Body)
	}
	var list struct{ Platforms []struct{ ID string } }
	r.a.Get("/v1/lti/platforms", bearer(ltiAdmin)...).JSON(t, &list)
	if len(list.Platforms) != 1 {
		t.Fatalf("platforms: %+v", list)
	}
	id := list.Platforms[0].ID
	patch := r.a.Request(http.MethodPatch, "/v1/lti/platforms/"+id, map[string]any{"deployment_ids": []string{ltiDeployment, "deployment-2"}}, bearer(ltiAdmin)...)
	if got := r.a.Do(patch); got.StatusCode != http.StatusOK || !strings.Contains(string(got.Body), "deployment-2") {
		t.Errorf("patch = %d: %s", got.StatusCode, got.Body)
	}

	var before, after struct {
		Keys []struct{ Kid, Kty, Alg string }
	}
	r.b.Get("/v1/lti/jwks").JSON(t, &before)
	if len(before.Keys) != 1 || before.Keys[0].Kty != "RSA" || before.Keys[0].Alg != "RS256" || before.Keys[0].Kid == "" {
		t.Fatalf("key set: %+v", before)
	}
	var rotated struct{ Kid string }
	if got := r.a.Post("/v1/lti/keys/rotate", nil, bearer(ltiAdmin)...); got.StatusCode != http.StatusOK {
		t.Fatalf("rotate = %d: %s", got.StatusCode, got.Body)
	} else {
		got.JSON(t, &rotated)
	}
	r.b.Get("/v1/lti/jwks").JSON(t, &after)
	if len(after.Keys) != 2 || after.Keys[0].Kid != rotated.Kid || after.Keys[1].Kid != before.Keys[0].Kid {
		t.Errorf("after rotation: %+v (new %s, before %+v)", after, rotated.Kid, before)
	}
	r.clock.Advance(8 * 24 * time.Hour)
	r.b.Get("/v1/lti/jwks").JSON(t, &after)
	if len(after.Keys) != 1 || after.Keys[0].Kid != rotated.Kid {
		t.Errorf("a week after rotation: %+v", after)
	}

	del := r.a.Request(http.MethodDelete, "/v1/lti/platforms/"+id, nil, bearer(ltiAdmin)...)
	if got := r.a.Do(del); got.StatusCode != http.StatusNoContent {
		t.Errorf("delete = %d: %s", got.StatusCode, got.Body)
	}
	if got := r.a.Get("/v1/lti/platforms/"+id, bearer(ltiAdmin)...); got.StatusCode != http.StatusNotFound {
		t.Errorf("deleted registration = %d", got.StatusCode)
	}
	noErrorLine(t, r.logs)
}

// Without SECRET_KEY, LTI answers 503 lti_disabled, logged as a warning, not an error.
func TestLTIWithoutSecretKeyIsOff(t *testing.T) {
	t.Parallel()
	logs := &lockedBuffer{}
	cfg := testConfig()
	cfg.LTI = api.LTIConfig{PublicURL: ltiPublicURL}
	db := repotest.NewDB(t)
	srv, err := api.New(cfg, api.Deps{Play: play.New(db.Games().Stores(), games.All()), Database: db, Feed: db},
		slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelInfo})))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	s := apitest.Start(t, srv)
	if got := s.Get("/v1/lti/jwks"); got.StatusCode != http.StatusServiceUnavailable || got.Problem(t).Code != "lti_disabled" {
		t.Errorf("jwks without SECRET_KEY = %d: %s", got.StatusCode, got.Body)
	}
	noErrorLine(t, logs)
}

// A course's roster (Names and Role Provisioning): the instructor's launch names its URL; the
// teacher's sync signs in at the platform's token URL with the tool's key (which the platform
// verifies against GET /v1/lti/jwks) and makes a student of each active learner not yet one.
func TestLTIRosterSyncMakesTheCoursesLearnersStudents(t *testing.T) {
	t.Parallel()
	r := newLTIRig(t)
	state, nonce := r.login(r.a, false)
	claims := r.claims("teacher-1", "Instructor", nonce)
	claims["https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"] = map[string]any{
		"context_memberships_url": r.platform.server.URL + "/memberships", "service_versions": []string{"2.0"}}
	resp, body := r.launch(r.a, r.platform.sign(t, r.platform.key, claims), state)
	teacher := r.handover(r.a, resp, body)
	state, nonce = r.login(r.a, false)
	resp, body = r.launch(r.a, r.platform.sign(t, r.platform.key, r.claims("learner-1", "Learner", nonce)), state)
	learner := r.handover(r.a, resp, body)

	path := "/v1/classrooms/" + teacher.Classroom.ID + "/lti/roster"
	if got := r.b.Post(path, nil, bearer(learner.Token)...); got.StatusCode != http.StatusUnauthorized {
		t.Errorf("a learner's sync = %d: %s", got.StatusCode, got.Body)
	}
	got := r.b.Post(path, nil, bearer(teacher.Token)...)
	var synced struct {
		Learners     int `json:"learners"`
		StudentCount int `json:"student_count"`
	}
	if got.StatusCode != http.StatusOK {
		t.Fatalf("sync = %d: %s\n%s", got.StatusCode, got.Body, r.logs.String())
	}
	got.JSON(t, &synced)
	if synced.Learners != 2 || synced.StudentCount != 2 || r.platform.granted.Load() != 1 {
		t.Errorf("sync: %+v, %d assertions granted", synced, r.platform.granted.Load())
	}
	students := r.a.Get("/v1/classrooms/"+teacher.Classroom.ID+"/students", bearer(teacher.Token)...)
	if !strings.Contains(string(students.Body), `"Givenlearner-2"`) || strings.Contains(string(students.Body), "learner-3") || strings.Contains(string(students.Body), "@") {
		t.Errorf("students after the sync: %s", students.Body)
	}
	// Again: nobody new.
	r.b.Post(path, nil, bearer(teacher.Token)...).JSON(t, &synced)
	if synced.StudentCount != 2 {
		t.Errorf("second sync: %+v", synced)
	}
	// A classroom no launch made has no roster.
	class := r.a.Post("/v1/classrooms", map[string]string{"name": "4C"}, bearer(ltiAdmin)...)
	var made struct {
		Classroom    struct{ ID string } `json:"classroom"`
		TeacherToken string              `json:"teacher_token"`
	}
	class.JSON(t, &made)
	if got := r.a.Post("/v1/classrooms/"+made.Classroom.ID+"/lti/roster", nil, bearer(made.TeacherToken)...); got.StatusCode != http.StatusConflict || got.Problem(t).Code != "lti_roster_unavailable" {
		t.Errorf("sync of a classroom no launch made = %d: %s", got.StatusCode, got.Body)
	}
	noErrorLine(t, r.logs)
}

// A platform whose key set cannot be fetched: the launch answers 503 lti_platform_keys_unavailable,
// logged as a warning, not an error.
func TestLTIPlatformKeysOutOfReachAreAWarning(t *testing.T) {
	t.Parallel()
	r := newLTIRig(t)
	var list struct{ Platforms []struct{ ID string } }
	r.a.Get("/v1/lti/platforms", bearer(ltiAdmin)...).JSON(t, &list)
	patch := r.a.Request(http.MethodPatch, "/v1/lti/platforms/"+list.Platforms[0].ID, map[string]any{"jwks_url": r.platform.server.URL + "/gone"}, bearer(ltiAdmin)...)
	if got := r.a.Do(patch); got.StatusCode != http.StatusOK {
		t.Fatalf("patch = %d: %s", got.StatusCode, got.Body)
	}
	state, nonce := r.login(r.a, false)
	resp, body := r.launch(r.a, r.platform.sign(t, r.platform.key, r.claims("teacher-1", "Instructor", nonce)), state)
	r.refused(resp, body, http.StatusServiceUnavailable, "lti_platform_keys_unavailable")
	if !strings.Contains(r.logs.String(), `"level":"WARN"`) {
		t.Errorf("no warning logged:\n%s", r.logs.String())
	}
	noErrorLine(t, r.logs)
}

// The platform rotates its key: a token under the new kid is refused while the key set was fetched
// less than 30 s ago, and verifies once it is fetched again.
func TestLTIPlatformKeyRotationIsFetchedAgain(t *testing.T) {
	t.Parallel()
	r := newLTIRig(t)
	state, nonce := r.login(r.a, false)
	if resp, body := r.launch(r.a, r.platform.sign(t, r.platform.key, r.claims("teacher-1", "Instructor", nonce)), state); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("launch = %d: %s", resp.StatusCode, body)
	}
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	r.platform.mu.Lock()
	r.platform.key, r.platform.kid = key, "platform-key-2"
	r.platform.mu.Unlock()
	state, nonce = r.login(r.a, false)
	resp, body := r.launch(r.a, r.platform.sign(t, key, r.claims("teacher-1", "Instructor", nonce)), state)
	r.refused(resp, body, http.StatusBadRequest, "lti_id_token_invalid")
	r.clock.Advance(31 * time.Second)
	state, nonce = r.login(r.a, false)
	if resp, body := r.launch(r.a, r.platform.sign(t, key, r.claims("teacher-1", "Instructor", nonce)), state); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("launch under the rotated key 31 s later = %d: %s", resp.StatusCode, body)
	}
	noErrorLine(t, r.logs)
}
