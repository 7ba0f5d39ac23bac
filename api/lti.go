package api

import (
	"bytes"
	"context"
	"crypto/rsa"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/google/uuid"
	"github.com/labstack/echo/v4"
	openapi_types "github.com/oapi-codegen/runtime/types"
	"golang.org/x/net/publicsuffix"

	"primegames/api/openapi"
	"primegames/domain"
	"primegames/outbound"
	"primegames/play"
)

// LTI 1.3 launches (issue 41 item 3): the HTTP half. play/lti*.go keeps the registrations, logins,
// launches and keys; here the login initiation redirects to the platform, the launch's ID token is
// verified against the platform's key set (fetched through the outbound client, cached), and the
// landing page and the hand-over serve the page in the LMS's frame.

// LTIConfig configures the HTTP half of LTI.
type LTIConfig struct {
	// PublicURL is the service's public base URL (PUBLIC_URL): the launch's redirect URI is
	// PublicURL + /v1/lti/launch. Without it LTI answers 503 lti_disabled.
	PublicURL string
	// Fetcher fetches the platforms' key sets and says which URLs it may fetch (nil: an outbound
	// client to public hosts only).
	Fetcher LTIFetcher
}

// LTIFetcher sends the requests to a platform (its key set, token URL and roster) and says which
// URLs it may reach; outbound.Sender is one.
type LTIFetcher interface {
	Request(ctx context.Context, method, url string, header http.Header, body []byte) ([]byte, error)
	CheckURL(url string) error
}

// Bounds of the platforms' key sets kept: each for ltiKeySetTTL, fetched again at most every
// ltiKeySetRefetch when a token names a key the set does not hold, ltiKeySetsKept of them at most.
const (
	ltiKeySetTTL     = 10 * time.Minute
	ltiKeySetRefetch = 30 * time.Second
	ltiKeySetsKept   = play.MaxLTIPlatforms
	ltiMaxKeys       = 20
)

// ltiKeySets caches the platforms' key sets by registration.
type ltiKeySets struct {
	fetcher LTIFetcher
	mu      sync.Mutex
	sets    map[string]ltiKeySet
	// frames caches the frame-ancestors sources of the web app's LTI pages (ltiFrameAncestors).
	frames struct {
		sync.Mutex
		sources string
		at      time.Time
	}
}

type ltiKeySet struct {
	url     string
	keys    jose.JSONWebKeySet
	fetched time.Time
}

func newLTI(cfg LTIConfig) *ltiKeySets {
	if cfg.Fetcher == nil {
		sender, err := outbound.New(outbound.Config{})
		if err == nil {
			cfg.Fetcher = sender
		}
	}
	return &ltiKeySets{fetcher: cfg.Fetcher, sets: map[string]ltiKeySet{}}
}

func ltiKeysUnavailable() error {
	return domain.Errorf(domain.KindUnavailable, "lti_platform_keys_unavailable", "The platform's key set could not be fetched or read; try the launch again shortly, or have the operator check the registration's jwks_url.")
}

// key is the platform's key kid (the only key when kid is empty and the set holds one).
func (ks *ltiKeySets) key(ctx context.Context, reg *play.LTIPlatform, kid string, now time.Time) (*jose.JSONWebKey, error) {
	ks.mu.Lock()
	set, ok := ks.sets[reg.ID]
	ks.mu.Unlock()
	fresh := ok && set.url == reg.JWKSURL && now.Sub(set.fetched) < ltiKeySetTTL
	if fresh {
		if k := findKey(set.keys, kid); k != nil || now.Sub(set.fetched) < ltiKeySetRefetch {
			return k, nil
		}
	}
	body, err := ks.fetcher.Request(ctx, http.MethodGet, reg.JWKSURL, http.Header{"Accept": {"application/json"}}, nil)
	if err != nil {
		return nil, ltiKeysUnavailable()
	}
	var keys jose.JSONWebKeySet
	if err := json.Unmarshal(body, &keys); err != nil || len(keys.Keys) == 0 || len(keys.Keys) > ltiMaxKeys {
		return nil, ltiKeysUnavailable()
	}
	ks.mu.Lock()
	if len(ks.sets) >= ltiKeySetsKept {
		clear(ks.sets)
	}
	ks.sets[reg.ID] = ltiKeySet{url: reg.JWKSURL, keys: keys, fetched: now}
	ks.mu.Unlock()
	return findKey(keys, kid), nil
}

func findKey(set jose.JSONWebKeySet, kid string) *jose.JSONWebKey {
	if kid == "" {
		if len(set.Keys) == 1 {
			return &set.Keys[0]
		}
		return nil
	}
	if found := set.Key(kid); len(found) > 0 {
		return &found[0]
	}
	return nil
}

// verifyLTIToken checks the ID token's signature (RS256, by the platform's key its kid names) and
// answers its claims, which play checks.
func (s *Server) verifyLTIToken(ctx context.Context, reg *play.LTIPlatform, raw string) ([]byte, error) {
	if raw == "" {
		return nil, play.LTIRefusedToken("the launch carries no id_token")
	}
	jws, err := jose.ParseSignedCompact(raw, []jose.SignatureAlgorithm{jose.RS256})
	if err != nil || len(jws.Signatures) != 1 {
		return nil, play.LTIRefusedToken("it is not a JWT signed with RS256")
	}
	key, err := s.ltiKeys.key(ctx, reg, jws.Signatures[0].Header.KeyID, s.play.Clock().Now())
	if err != nil {
		return nil, err
	}
	if key == nil {
		return nil, play.LTIRefusedToken("the platform's key set holds no key of its kid")
	}
	if _, ok := key.Key.(*rsa.PublicKey); !ok || key.Use == "enc" {
		return nil, play.LTIRefusedToken("the platform's key of its kid is not an RSA signing key")
	}
	payload, err := jws.Verify(key.Key)
	if err != nil {
		return nil, play.LTIRefusedToken("its signature is not the platform's")
	}
	return payload, nil
}

func (s *Server) ltiOn() error {
	if !s.play.LTIEnabled() || s.cfg.LTI.PublicURL == "" || s.ltiKeys.fetcher == nil {
		return domain.Errorf(domain.KindUnavailable, "lti_disabled", "LTI is off on this service: the operator sets SECRET_KEY and PUBLIC_URL to turn it on.")
	}
	return nil
}

// ltiFormRoutes take a form-encoded body (the platform's browser posts them), not JSON.
var ltiFormRoutes = map[string]bool{"POST /v1/lti/login": true, "POST /v1/lti/launch": true}

// formBody is the body gate of a form route: at most BodyLimitBytes of
// application/x-www-form-urlencoded, which the contract's validator then checks.
func (s *Server) formBody(c echo.Context, next echo.HandlerFunc) error {
	req := c.Request()
	if mediaType, _, err := mime.ParseMediaType(req.Header.Get(echo.HeaderContentType)); err != nil || mediaType != echo.MIMEApplicationForm {
		return refuse(http.StatusUnsupportedMediaType, "unsupported_media_type", "This request's body must be sent as Content-Type: application/x-www-form-urlencoded.")
	}
	body, err := s.readLimited(c)
	if err != nil {
		return err
	}
	form, err := url.ParseQuery(string(body))
	if err != nil {
		return domain.Invalid("invalid", "The form body could not be read: %v.", err)
	}
	req.Form, req.PostForm = form, form
	req.ContentLength = int64(len(body))
	req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	req.Body, _ = req.GetBody()
	return next(c)
}

// ListLtiPlatforms lists the registrations.
func (s *Server) ListLtiPlatforms(c echo.Context) error {
	principal, err := principalOf(c)
	if err != nil {
		return err
	}
	regs, err := s.play.LTIPlatforms(c.Request().Context(), principal)
	if err != nil {
		return err
	}
	list := openapi.LtiPlatformList{Platforms: make([]openapi.LtiPlatform, len(regs))}
	for i, r := range regs {
		list.Platforms[i] = ltiPlatformBody(r)
	}
	return c.JSON(http.StatusOK, list)
}

// RegisterLtiPlatform registers an LMS.
func (s *Server) RegisterLtiPlatform(c echo.Context) error {
	principal, err := principalOf(c)
	if err != nil {
		return err
	}
	var req openapi.LtiPlatformRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	reg, err := s.play.RegisterLTIPlatform(c.Request().Context(), principal, play.LTIPlatform{
		Issuer: req.Issuer, ClientID: req.ClientId, DeploymentIDs: req.DeploymentIds,
		JWKSURL: req.JwksUrl, AuthURL: req.AuthUrl, TokenURL: req.TokenUrl,
	}, s.ltiCheckURL)
	if err != nil {
		return err
	}
	s.forgetLTIFrames()
	c.Response().Header().Set("Location", "/v1/lti/platforms/"+reg.ID)
	return c.JSON(http.StatusCreated, ltiPlatformBody(*reg))
}

func (s *Server) ltiCheckURL(raw string) error {
	if s.ltiKeys.fetcher == nil {
		return nil
	}
	return s.ltiKeys.fetcher.CheckURL(raw)
}

// GetLtiPlatform reads a registration.
func (s *Server) GetLtiPlatform(c echo.Context, platformID openapi_types.UUID) error {
	principal, err := principalOf(c)
	if err != nil {
		return err
	}
	reg, err := s.play.LTIPlatform(c.Request().Context(), principal, platformID.String())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, ltiPlatformBody(*reg))
}

// UpdateLtiPlatform changes a registration.
func (s *Server) UpdateLtiPlatform(c echo.Context, platformID openapi_types.UUID) error {
	principal, err := principalOf(c)
	if err != nil {
		return err
	}
	var req openapi.LtiPlatformPatch
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	reg, err := s.play.UpdateLTIPlatform(c.Request().Context(), principal, platformID.String(), func(p *play.LTIPlatform) {
		setIf(&p.Issuer, req.Issuer)
		setIf(&p.ClientID, req.ClientId)
		setIf(&p.DeploymentIDs, req.DeploymentIds)
		setIf(&p.JWKSURL, req.JwksUrl)
		setIf(&p.AuthURL, req.AuthUrl)
		setIf(&p.TokenURL, req.TokenUrl)
	}, s.ltiCheckURL)
	if err != nil {
		return err
	}
	s.forgetLTIFrames()
	return c.JSON(http.StatusOK, ltiPlatformBody(*reg))
}

func setIf[T any](to *T, from *T) {
	if from != nil {
		*to = *from
	}
}

// DeleteLtiPlatform deletes a registration.
func (s *Server) DeleteLtiPlatform(c echo.Context, platformID openapi_types.UUID) error {
	principal, err := principalOf(c)
	if err != nil {
		return err
	}
	if err := s.play.DeleteLTIPlatform(c.Request().Context(), principal, platformID.String()); err != nil {
		return err
	}
	s.forgetLTIFrames()
	return c.NoContent(http.StatusNoContent)
}

func ltiPlatformBody(p play.LTIPlatform) openapi.LtiPlatform {
	return openapi.LtiPlatform{Id: mustUUID(p.ID), Issuer: p.Issuer, ClientId: p.ClientID, DeploymentIds: p.DeploymentIDs,
		JwksUrl: p.JWKSURL, AuthUrl: p.AuthURL, TokenUrl: p.TokenURL, CreatedAt: p.CreatedAt}
}

// BeginLtiLogin is the login initiation by GET.
func (s *Server) BeginLtiLogin(c echo.Context, params openapi.BeginLtiLoginParams) error {
	return s.beginLTILogin(c, play.LTILoginRequest{
		Issuer: deref(params.Iss), LoginHint: deref(params.LoginHint), TargetLinkURI: deref(params.TargetLinkUri),
		MessageHint: deref(params.LtiMessageHint), ClientID: deref(params.ClientId), DeploymentID: deref(params.LtiDeploymentId),
	})
}

// BeginLtiLoginPost is the login initiation by form post.
func (s *Server) BeginLtiLoginPost(c echo.Context) error {
	f := c.Request().PostForm
	return s.beginLTILogin(c, play.LTILoginRequest{
		Issuer: f.Get("iss"), LoginHint: f.Get("login_hint"), TargetLinkURI: f.Get("target_link_uri"),
		MessageHint: f.Get("lti_message_hint"), ClientID: f.Get("client_id"), DeploymentID: f.Get("lti_deployment_id"),
	})
}

// beginLTILogin keeps the login's state and nonce and sends the browser to the platform's
// authorization URL with the authentication request (Security Framework §5.1.1.2).
func (s *Server) beginLTILogin(c echo.Context, req play.LTILoginRequest) error {
	if err := s.ltiOn(); err != nil {
		return err
	}
	started, err := s.play.BeginLTILogin(c.Request().Context(), req)
	if err != nil {
		return err
	}
	to, err := url.Parse(started.Platform.AuthURL)
	if err != nil {
		return domain.Invalid("invalid_lti_platform", "The platform's auth_url is not a URL.")
	}
	q := to.Query()
	q.Set("scope", "openid")
	q.Set("response_type", "id_token")
	q.Set("response_mode", "form_post")
	q.Set("prompt", "none")
	q.Set("client_id", started.Platform.ClientID)
	q.Set("redirect_uri", strings.TrimRight(s.cfg.LTI.PublicURL, "/")+"/v1/lti/launch")
	q.Set("login_hint", req.LoginHint)
	if req.MessageHint != "" {
		q.Set("lti_message_hint", req.MessageHint)
	}
	q.Set("state", started.State)
	q.Set("nonce", started.Nonce)
	to.RawQuery = q.Encode()
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.Redirect(http.StatusFound, to.String())
}

// LaunchLti verifies the launch and sends the browser to the web app's LTI page (/app/lti, see
// web/src/lti.ts) with a one-time code in the fragment, which the page trades at the hand-over.
func (s *Server) LaunchLti(c echo.Context) error {
	if err := s.ltiOn(); err != nil {
		return err
	}
	ctx := c.Request().Context()
	f := c.Request().PostForm
	if f.Get("error") != "" && f.Get("id_token") == "" {
		return domain.Invalid("lti_launch_denied", "The platform did not launch the tool (%s): open it from the LMS again.", truncate(f.Get("error"), 64))
	}
	reg, login, err := s.play.TakeLTILogin(ctx, f.Get("state"))
	if err != nil {
		return err
	}
	claims, err := s.verifyLTIToken(ctx, reg, f.Get("id_token"))
	if err != nil {
		return err
	}
	launched, err := s.play.LTILaunch(ctx, reg, login, claims)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	c.Response().Header().Set("Referrer-Policy", "no-referrer")
	return c.Redirect(http.StatusSeeOther, strings.TrimRight(s.cfg.LTI.PublicURL, "/")+"/app/lti#code="+launched.Code)
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// ltiLanding is the service's own landing page, kept for apps of its API that launched to it
// before the web app's /app/lti took over: no script, nothing fetched.
const ltiLanding = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Prime games</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem;line-height:1.5}code{background:#eee;padding:0 .2rem}</style>
</head>
<body>
<h1>Prime games opened from your course</h1>
<p>Your launch worked. Launches now open the Prime games web app at <code>/app/lti</code>.</p>
<p>For developers: a one-time code after <code>#code=</code> in the address of <code>/app/lti</code> (or of
this page) is traded within two minutes with <code>POST /v1/lti/handover</code> and the body
<code>{"code": "…"}</code> for a token: a teacher's account token, or a student's token.</p>
</body>
</html>
`

// GetLtiLanding serves the landing page.
func (s *Server) GetLtiLanding(c echo.Context) error {
	h := c.Response().Header()
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors *")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-store")
	return c.HTMLBlob(http.StatusOK, []byte(ltiLanding))
}

// TakeLtiHandover trades a launch's one-time code for a token.
func (s *Server) TakeLtiHandover(c echo.Context) error {
	var req openapi.LtiHandoverRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	var signed *play.LTISignedIn
	err := s.guesses.Attempt(c, func() (err error) {
		signed, err = s.play.TakeLTIHandover(c.Request().Context(), req.Code)
		return err
	})
	if err != nil {
		return err
	}
	body := openapi.LtiHandover{Role: openapi.LtiHandoverRoleStudent, Token: signed.Token, Classroom: classroomBody(&signed.Classroom)}
	if signed.Teacher {
		body.Role, body.ExpiresAt = openapi.LtiHandoverRoleTeacher, signed.ExpiresAt
		if id, err := uuid.Parse(signed.TokenID); err == nil {
			body.TokenId = &id
		}
		body.Account = ptr(accountBody(*signed.Account))
	} else {
		body.Student = ptr(studentBody(*signed.Student))
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, body)
}

// GetLtiKeys serves the tool's public keys.
func (s *Server) GetLtiKeys(c echo.Context) error {
	set, err := s.play.LTIKeySet(c.Request().Context())
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "public, max-age=300")
	return c.JSONBlob(http.StatusOK, set)
}

// RotateLtiKey makes a new current tool key.
func (s *Server) RotateLtiKey(c echo.Context) error {
	principal, err := principalOf(c)
	if err != nil {
		return err
	}
	kid, err := s.play.RotateLTIToolKey(c.Request().Context(), principal)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, openapi.LtiKeyRotated{Kid: kid})
}

// SyncLtiRoster makes a student of every active learner of the classroom's course (Names and Role
// Provisioning Services): the tool's access token from the platform's token URL, then the roster.
func (s *Server) SyncLtiRoster(c echo.Context, classroomID openapi.ClassroomID) error {
	principal, err := principalOf(c)
	if err != nil {
		return err
	}
	if err := s.ltiOn(); err != nil {
		return err
	}
	ctx := c.Request().Context()
	synced, err := s.play.SyncLTIRoster(ctx, principal, classroomID.String(), s.ltiRosterExchange)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, openapi.LtiRosterSynced{Learners: synced.Learners, StudentCount: synced.StudentCount})
}

// ltiRosterExchange trades the client assertion for an access token (the client credentials grant
// with a JWT, RFC 7523) and reads the roster with it.
func (s *Server) ltiRosterExchange(ctx context.Context, reg *play.LTIPlatform, assertion, membershipsURL string) ([]byte, error) {
	token, err := ltiAccessToken(ctx, s.ltiKeys.fetcher, reg, assertion, play.LTIScopeMemberships)
	if err != nil {
		return nil, err
	}
	return s.ltiKeys.fetcher.Request(ctx, http.MethodGet, membershipsURL,
		http.Header{"Accept": {play.LTIMembershipMediaType}, "Authorization": {"Bearer " + token}}, nil)
}

// ltiAccessToken trades the tool's client assertion at the platform's token URL for an access
// token with scope (the client credentials grant with a JWT, RFC 7523).
func ltiAccessToken(ctx context.Context, fetcher LTIFetcher, reg *play.LTIPlatform, assertion, scope string) (string, error) {
	form := url.Values{
		"grant_type":            {"client_credentials"},
		"client_assertion_type": {"urn:ietf:params:oauth:client-assertion-type:jwt-bearer"},
		"client_assertion":      {assertion},
		"scope":                 {scope},
	}
	body, err := fetcher.Request(ctx, http.MethodPost, reg.TokenURL,
		http.Header{"Content-Type": {echo.MIMEApplicationForm}, "Accept": {"application/json"}}, []byte(form.Encode()))
	if err != nil {
		return "", err
	}
	var token struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.Unmarshal(body, &token); err != nil || token.AccessToken == "" {
		return "", errors.New("the token URL answered no access token")
	}
	return token.AccessToken, nil
}

// LTIGradeTransport is the HTTP of grades to the LMSs (play.LTIGradeTransport) through fetcher:
// the worker's (RunLTIGrades).
func LTIGradeTransport(fetcher LTIFetcher) play.LTIGradeTransport { return ltiGrades{fetcher} }

type ltiGrades struct{ fetcher LTIFetcher }

func (g ltiGrades) AccessToken(ctx context.Context, reg *play.LTIPlatform, assertion, scope string) (string, error) {
	return ltiAccessToken(ctx, g.fetcher, reg, assertion, scope)
}

func (g ltiGrades) Send(ctx context.Context, method, to, mediaType, accessToken string, body []byte) ([]byte, error) {
	return g.fetcher.Request(ctx, method, to,
		http.Header{"Content-Type": {mediaType}, "Accept": {"application/json"}, "Authorization": {"Bearer " + accessToken}}, body)
}

// ltiFrameTTL is how long the framing sources of the registrations are kept before they are read again.
const ltiFrameTTL = 30 * time.Second

// ltiFrameSource is a CSP source expression made of a URL's scheme and host (a port allowed).
var ltiFrameSource = regexp.MustCompile(`^https?://(\*\.)?[A-Za-z0-9.-]+(:[0-9]+)?$`)

// forgetLTIFrames drops this instance's framing sources after a registration changed (another
// instance reads them again within ltiFrameTTL).
func (s *Server) forgetLTIFrames() {
	f := &s.ltiKeys.frames
	f.Lock()
	f.sources = ""
	f.Unlock()
}

// ltiFrameAncestors is the frame-ancestors directive of the web app's pages an LTI launch opens:
// the origins of the registered platforms' issuers and authorization URLs, each with the
// subdomains of its registrable domain (an LMS in the cloud frames the tool from the school's own
// host, e.g. school.instructure.com for the issuer canvas.instructure.com); 'none' when no
// platform is registered or LTI is off. Read from the store at most every ltiFrameTTL.
func (s *Server) ltiFrameAncestors(ctx context.Context) string {
	f := &s.ltiKeys.frames
	now := s.play.Clock().Now()
	f.Lock()
	defer f.Unlock()
	if f.sources != "" && now.Sub(f.at) < ltiFrameTTL && !now.Before(f.at) {
		return f.sources
	}
	regs, err := s.play.LTIFramingPlatforms(ctx)
	if err != nil {
		if f.sources != "" {
			return f.sources // a passing outage keeps the last sources
		}
		return "frame-ancestors 'none'"
	}
	seen := map[string]bool{}
	var sources []string
	add := func(src string) {
		if !seen[src] && ltiFrameSource.MatchString(src) {
			seen[src] = true
			sources = append(sources, src)
		}
	}
	for _, reg := range regs {
		for _, raw := range []string{reg.Issuer, reg.AuthURL} {
			u, err := url.Parse(raw)
			if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Hostname() == "" {
				continue
			}
			add(u.Scheme + "://" + u.Host)
			host := u.Hostname()
			if net.ParseIP(host) != nil {
				continue
			}
			if domain, err := publicsuffix.EffectiveTLDPlusOne(host); err == nil {
				add(u.Scheme + "://*." + domain)
			}
		}
	}
	directive := "frame-ancestors 'none'"
	if len(sources) > 0 {
		directive = "frame-ancestors " + strings.Join(sources, " ")
	}
	f.sources, f.at = directive, now
	return directive
}
