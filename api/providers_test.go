package api_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"primegames/api"
	"primegames/api/openapi"
)

// Two providers: the default (OIDC_ISSUER's) and a named one; both listed, each signing in its own
// people, the same subject at each a different account; an unknown name refused, naming it.
func TestSeveralProviders(t *testing.T) {
	t.Parallel()
	school := runProvider(t)
	r := newSignInRig(t, func(cfg *api.Config) {
		c := school.Config()
		cfg.OIDC.Providers = []api.OIDCProvider{{Name: "school", Issuer: c.Issuer, ClientID: c.ClientID, ClientSecret: c.ClientSecret}}
	})
	var list openapi.SignInProviderList
	r.a.Get("/v1/auth/providers").JSON(t, &list)
	if len(list.Providers) != 2 || list.Providers[0].Name != "default" || !list.Providers[0].Default ||
		list.Providers[1].Name != "school" || list.Providers[1].Issuer != school.Issuer() || list.Providers[1].Login != "/v1/auth/oidc/login?provider=school" {
		t.Fatalf("providers = %+v", list)
	}

	signIn := func(q url.Values) openapi.SignedIn {
		t.Helper()
		resp := r.callback(r.b, q)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("callback = %d: %s", resp.StatusCode, resp.Body)
		}
		var signed openapi.SignedIn
		resp.JSON(t, &signed)
		return signed
	}
	atSchool := signIn(r.loginWith(r.a, school, teacher{subject: "same-subject", name: "At school"}, url.Values{"provider": {"school"}}))
	atDefault := signIn(r.loginWith(r.a, r.provider, teacher{subject: "same-subject", name: "At default"}, nil))
	if atSchool.Account.Issuer != school.Issuer() || atDefault.Account.Issuer != r.provider.Issuer() || atSchool.Account.Id == atDefault.Account.Id {
		t.Fatalf("the same subject at two providers: %+v and %+v, want two accounts of their issuers", atSchool.Account, atDefault.Account)
	}
	explicit := signIn(r.loginWith(r.b, r.provider, teacher{subject: "same-subject"}, url.Values{"provider": {"default"}}))
	if explicit.Account.Id != atDefault.Account.Id {
		t.Fatalf("provider=default signed in %+v, want %+v", explicit.Account, atDefault.Account)
	}

	resp := r.a.Get("/v1/auth/oidc/login?provider=nope")
	if resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("unknown provider = %d: %s", resp.StatusCode, resp.Body)
	}
	if p := resp.Problem(t); p.Code != "unknown_provider" || !strings.Contains(p.Detail, `"nope"`) || !strings.Contains(p.Detail, "school") {
		t.Fatalf("unknown provider: %+v", p)
	}
	r.noErrorLines()
}

// With named providers only, one is used without a name; with several and no default, a login
// must name one. With none, the list is empty and the login says sign-in is not configured.
func TestProviderRequired(t *testing.T) {
	t.Parallel()
	one, two := runProvider(t), runProvider(t)
	r := newSignInRig(t, func(cfg *api.Config) {
		a, b := one.Config(), two.Config()
		cfg.OIDC.Issuer = ""
		cfg.OIDC.Providers = []api.OIDCProvider{{Name: "one", Issuer: a.Issuer, ClientID: a.ClientID}, {Name: "two", Issuer: b.Issuer, ClientID: b.ClientID}}
	})
	resp := r.a.Get("/v1/auth/oidc/login")
	if resp.StatusCode != http.StatusBadRequest || resp.Problem(t).Code != "provider_required" {
		t.Fatalf("login without a provider among several = %d: %s", resp.StatusCode, resp.Body)
	}
	none := newSignInRig(t, func(cfg *api.Config) { cfg.OIDC.Issuer = "" })
	var list openapi.SignInProviderList
	none.a.Get("/v1/auth/providers").JSON(t, &list)
	if len(list.Providers) != 0 {
		t.Fatalf("providers without any configured = %+v", list)
	}
	if resp := none.a.Get("/v1/auth/oidc/login?provider=x"); resp.StatusCode != http.StatusNotFound || resp.Problem(t).Code != "sign_in_not_configured" {
		t.Fatalf("login without any provider = %d: %s", resp.StatusCode, resp.Body)
	}
}
