package api

import (
	"net/http"
	"net/url"
	"sort"

	"github.com/labstack/echo/v4"

	"primegames/api/openapi"
	"primegames/domain"
	"primegames/play"
)

// Several OpenID providers (issue 41): the one OIDC_ISSUER names is the default, named `default`;
// the operator names others in OIDC_PROVIDERS (cmd/primegames/config.go), each with its own issuer
// and client. GET /v1/auth/oidc/login?provider=NAME signs in with one; GET /v1/auth/providers lists
// them for a sign-in page. The redirect URI is the same for all; a sign-in under way remembers its
// provider. Accounts are keyed by (issuer, subject), so two providers' people never meet.

// DefaultProvider is the name of the provider OIDC_ISSUER configures.
const DefaultProvider = "default"

// OIDCProvider is a named OpenID provider besides the default one.
type OIDCProvider struct {
	Name         string // as in OIDC_PROVIDERS: lower-case letters, digits and dashes
	Issuer       string // OIDC_<NAME>_ISSUER
	ClientID     string // OIDC_<NAME>_CLIENT_ID
	ClientSecret string // OIDC_<NAME>_CLIENT_SECRET
}

// newSignIns makes the OpenID client of each configured provider, by name.
func newSignIns(cfg OIDCConfig) map[string]*signIn {
	all := map[string]*signIn{}
	if si := newSignIn(cfg, DefaultProvider); si != nil {
		all[DefaultProvider] = si
	}
	for _, p := range cfg.Providers {
		named := cfg
		named.Issuer, named.ClientID, named.ClientSecret, named.Providers = p.Issuer, p.ClientID, p.ClientSecret, nil
		if si := newSignIn(named, p.Name); si != nil {
			all[p.Name] = si
		}
	}
	return all
}

// providerNames lists the configured providers' names, the default first.
func (s *Server) providerNames() []string {
	names := make([]string, 0, len(s.signIns))
	for name := range s.signIns {
		if name != DefaultProvider {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	if s.signIns[DefaultProvider] != nil {
		names = append([]string{DefaultProvider}, names...)
	}
	return names
}

// signInProvider is the provider a login names; without a name, the default one, or the only one.
func (s *Server) signInProvider(name *string) (*signIn, error) {
	if len(s.signIns) == 0 {
		return nil, signInNotConfigured()
	}
	if name == nil || *name == "" {
		if si := s.signIns[DefaultProvider]; si != nil {
			return si, nil
		}
		if len(s.signIns) == 1 {
			for _, si := range s.signIns {
				return si, nil
			}
		}
		return nil, domain.Invalid("provider_required", "This service signs in with several providers and none is the default: name one with ?provider= (GET /v1/auth/providers lists them: %v).", s.providerNames())
	}
	if si := s.signIns[*name]; si != nil {
		return si, nil
	}
	return nil, domain.Invalid("unknown_provider", "No sign-in provider is named %q on this service; GET /v1/auth/providers lists them (%v).", *name, s.providerNames())
}

// pendingProvider is the provider a sign-in under way went to.
func (s *Server) pendingProvider(p *play.PendingSignIn) (*signIn, error) {
	name := p.Provider
	if name == "" {
		name = DefaultProvider
	}
	if si := s.signIns[name]; si != nil {
		return si, nil
	}
	return nil, domain.Invalid("unknown_provider", "This sign-in went to the provider %q, which this service no longer signs in with. Start again at GET /v1/auth/oidc/login.", name)
}

// ListSignInProviders lists the providers teachers may sign in with, for a sign-in page.
func (s *Server) ListSignInProviders(c echo.Context) error {
	list := openapi.SignInProviderList{Providers: []openapi.SignInProvider{}}
	for _, name := range s.providerNames() {
		list.Providers = append(list.Providers, openapi.SignInProvider{
			Name:    name,
			Issuer:  s.signIns[name].cfg.Issuer,
			Default: name == DefaultProvider,
			Login:   "/v1/auth/oidc/login?provider=" + url.QueryEscape(name),
		})
	}
	return c.JSON(http.StatusOK, list)
}
