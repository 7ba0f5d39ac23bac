package api

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"github.com/labstack/echo/v4"
	"golang.org/x/oauth2"

	"primegames/api/openapi"
	"primegames/domain"
	"primegames/play"
)

// Teachers sign in with an OpenID provider (issue 41): GET /v1/auth/oidc/login sends them there
// with the authorization code flow (PKCE S256, state, nonce); the provider sends them back to GET
// /v1/auth/oidc/callback, which verifies the ID token and answers the account with an account
// token. What a sign-in under way must come back with is kept in the database under the hash of
// its state (play.BeginSignIn), so the callback may reach any instance, and is taken once.

// OIDCConfig names the OpenID provider teachers sign in with; an empty Issuer turns sign-in off.
type OIDCConfig struct {
	Issuer       string // OIDC_ISSUER
	ClientID     string // OIDC_CLIENT_ID
	ClientSecret string // OIDC_CLIENT_SECRET
	PublicURL    string // PUBLIC_URL: the redirect URI is PublicURL + /v1/auth/oidc/callback
	// HTTPClient talks to the provider (nil: one with a 10 s timeout).
	HTTPClient *http.Client
	// Providers are the named providers besides the default one (OIDC_PROVIDERS, providers.go).
	Providers []OIDCProvider
}

// oidcScopes are the scopes a sign-in asks for; of what they give, only the name is kept.
var oidcScopes = []string{oidc.ScopeOpenID, "profile", "email"}

// signIn is the server's OpenID client: the provider is discovered on the first sign-in (and again
// after a discovery that failed), so a provider down at start does not stop the service.
type signIn struct {
	cfg      OIDCConfig
	name     string // the provider's name: "default" for OIDC_ISSUER's (providers.go)
	client   *http.Client
	mu       sync.Mutex
	provider *oidc.Provider
}

func newSignIn(cfg OIDCConfig, name string) *signIn {
	if cfg.Issuer == "" {
		return nil
	}
	client := cfg.HTTPClient
	if client == nil {
		client = &http.Client{Timeout: 10 * time.Second}
	}
	return &signIn{cfg: cfg, name: name, client: client}
}

// discover finds the provider's endpoints and keys, once it succeeds.
func (si *signIn) discover(ctx context.Context) (*oidc.Provider, error) {
	si.mu.Lock()
	defer si.mu.Unlock()
	if si.provider != nil {
		return si.provider, nil
	}
	p, err := oidc.NewProvider(si.providerContext(ctx), si.cfg.Issuer)
	if err != nil {
		return nil, domain.Errorf(domain.KindUnavailable, "sign_in_provider_unavailable", "The sign-in provider could not be reached; try again shortly.")
	}
	si.provider = p
	return p, nil
}

// providerContext makes the provider's HTTP calls go through the bounded client. go-oidc keeps
// the context it discovers with for fetching the provider's keys later (its remote key set), so it
// is none of a request's, which would be cancelled when that request ends.
func (si *signIn) providerContext(context.Context) context.Context {
	return oidc.ClientContext(context.Background(), si.client)
}

func (si *signIn) oauth2Config(p *oidc.Provider) *oauth2.Config {
	return &oauth2.Config{
		ClientID:     si.cfg.ClientID,
		ClientSecret: si.cfg.ClientSecret,
		Endpoint:     p.Endpoint(),
		RedirectURL:  strings.TrimRight(si.cfg.PublicURL, "/") + "/v1/auth/oidc/callback",
		Scopes:       oidcScopes,
	}
}

func signInNotConfigured() error {
	return domain.Errorf(domain.KindNotFound, "sign_in_not_configured", "Teacher sign-in is not configured on this service: the operator sets OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET and PUBLIC_URL to turn it on.")
}

// BeginSignIn sends the teacher to the provider.
func (s *Server) BeginSignIn(c echo.Context, params openapi.BeginSignInParams) error {
	si, err := s.signInProvider(params.Provider)
	if err != nil {
		return err
	}
	returnTo := ""
	if params.ReturnTo != nil {
		if err := checkReturnTo(*params.ReturnTo); err != nil {
			return err
		}
		returnTo = *params.ReturnTo // the callback begins a browser session and sends it there (sessions.go)
	}
	ctx := c.Request().Context()
	provider, err := si.discover(ctx)
	if err != nil {
		return err
	}
	state, nonce, verifier := randomValue(), randomValue(), oauth2.GenerateVerifier()
	if err := s.play.BeginSignIn(ctx, state, play.PendingSignIn{Nonce: nonce, Verifier: verifier, ReturnTo: returnTo, Provider: si.name}); err != nil {
		return err
	}
	url := si.oauth2Config(provider).AuthCodeURL(state, oidc.Nonce(nonce), oauth2.S256ChallengeOption(verifier))
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.Redirect(http.StatusFound, url)
}

// checkReturnTo accepts a path of this service only: one leading slash, no "//" (so no scheme or
// host), no backslash or control character, so that a sign-in cannot be made to send its holder elsewhere.
func checkReturnTo(to string) error {
	if !strings.HasPrefix(to, "/") || strings.Contains(to, "//") || strings.ContainsFunc(to, func(r rune) bool { return r == '\\' || r < 0x20 || r == 0x7f }) {
		return domain.Invalid("invalid_return_to", "return_to must be a path of this service, starting with a single /.")
	}
	return nil
}

// FinishSignIn takes the sign-in back from the provider and answers the account and its token.
func (s *Server) FinishSignIn(c echo.Context, params openapi.FinishSignInParams) error {
	if len(s.signIns) == 0 {
		return signInNotConfigured()
	}
	ctx := c.Request().Context()
	pending, err := s.play.TakeSignIn(ctx, deref(params.State))
	if err != nil {
		return err
	}
	si, err := s.pendingProvider(pending)
	if err != nil {
		return err
	}
	if params.Error != nil {
		return domain.Invalid("sign_in_denied", "The provider did not sign you in (%s). Start again at GET /v1/auth/oidc/login.", *params.Error)
	}
	if deref(params.Code) == "" {
		return domain.Invalid("sign_in_code_missing", "The provider sent no code back. Start again at GET /v1/auth/oidc/login.")
	}
	provider, err := si.discover(ctx)
	if err != nil {
		return err
	}
	claims, err := si.verify(ctx, provider, *params.Code, pending, s.play.Clock().Now)
	if err != nil {
		return err
	}
	if pending.ReturnTo != "" {
		browser, err := s.play.SignInBrowser(ctx, claims.issuer, claims.subject, claims.name)
		if err != nil {
			return err
		}
		s.setSessionCookie(c, browser.Token, browser.ExpiresAt)
		c.Response().Header().Set("Cache-Control", "no-store")
		return c.Redirect(http.StatusFound, pending.ReturnTo)
	}
	signed, err := s.play.SignIn(ctx, claims.issuer, claims.subject, claims.name)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, openapi.SignedIn{Account: accountBody(signed.Account), Token: signed.Token, TokenInfo: accountTokenBody(signed.Info)})
}

type idClaims struct {
	issuer, subject, name string
}

// verify exchanges the code with the PKCE verifier and checks the ID token: the provider's
// signature (its discovery keys), iss, aud, exp (by the service's clock) and the nonce.
func (si *signIn) verify(ctx context.Context, provider *oidc.Provider, code string, pending *play.PendingSignIn, now func() time.Time) (*idClaims, error) {
	pctx := context.WithValue(ctx, oauth2.HTTPClient, si.client)
	tok, err := si.oauth2Config(provider).Exchange(pctx, code, oauth2.VerifierOption(pending.Verifier))
	if err != nil {
		var refused *oauth2.RetrieveError
		if errors.As(err, &refused) {
			return nil, domain.Invalid("sign_in_code_refused", "The provider refused the sign-in's code (used already, expired, or not this sign-in's). Start again at GET /v1/auth/oidc/login.")
		}
		return nil, domain.Errorf(domain.KindUnavailable, "sign_in_provider_unavailable", "The sign-in provider could not be reached; try again shortly.")
	}
	raw, _ := tok.Extra("id_token").(string)
	if raw == "" {
		return nil, domain.Invalid("id_token_invalid", "The provider answered no ID token.")
	}
	verifier := provider.VerifierContext(si.providerContext(ctx), &oidc.Config{ClientID: si.cfg.ClientID, Now: now})
	idToken, err := verifier.Verify(ctx, raw)
	if err != nil {
		return nil, domain.Invalid("id_token_invalid", "The provider's ID token did not verify (%s).", idTokenFault(err))
	}
	if idToken.Nonce != pending.Nonce {
		return nil, domain.Invalid("id_token_invalid", "The provider's ID token did not verify (its nonce is not this sign-in's).")
	}
	var profile struct {
		Name              string `json:"name"`
		PreferredUsername string `json:"preferred_username"`
	}
	_ = idToken.Claims(&profile)
	name := profile.Name
	if name == "" {
		name = profile.PreferredUsername
	}
	return &idClaims{issuer: idToken.Issuer, subject: idToken.Subject, name: name}, nil
}

// idTokenFault says which check an ID token failed, without repeating the token.
func idTokenFault(err error) string {
	var expired *oidc.TokenExpiredError
	switch msg := err.Error(); {
	case errors.As(err, &expired):
		return "it has expired"
	case strings.Contains(msg, "audience"):
		return "it is not for this service's client id"
	case strings.Contains(msg, "issuer"):
		return "it is not from the configured issuer"
	case strings.Contains(msg, "signature"):
		return "its signature is not the provider's"
	}
	return "it is malformed"
}

func randomValue() string {
	var b [32]byte
	_, _ = rand.Read(b[:])
	return base64.RawURLEncoding.EncodeToString(b[:])
}
