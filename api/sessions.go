package api

import (
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"primegames/domain"
	"primegames/play"
)

// Browser sessions (issue 41): a sign-in with return_to ends with an HttpOnly cookie holding a
// session token (play/sessions.go), which then works as the account's token does for the
// browser's requests to this service. A request that changes something (POST, PUT, PATCH,
// DELETE) and carries only the cookie must come from a page of this service (Sec-Fetch-Site
// same-origin or none, or else an Origin equal to PUBLIC_URL's): a cross-site one is refused with
// 403 csrf_refused. A bearer token needs no such check: no browser sends one on its own.

// sessionCookie is the name of the session's cookie.
const sessionCookie = "pg_session"

// sessionCookieOf is the session token of the request's cookie, "" for none.
func sessionCookieOf(c echo.Context) string {
	ck, err := c.Cookie(sessionCookie)
	if err != nil || !play.IsSessionToken(ck.Value) {
		return ""
	}
	return ck.Value
}

// unsafeMethod reports whether a request with method may change something.
func unsafeMethod(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return false
	}
	return true
}

// sameOrigin reports whether the browser says the request comes from a page of this service.
func (s *Server) sameOrigin(r *http.Request) bool {
	switch r.Header.Get("Sec-Fetch-Site") {
	case "same-origin", "none":
		return true
	case "":
	default:
		return false
	}
	origin := r.Header.Get("Origin")
	return origin != "" && origin != "null" && origin == publicOrigin(s.cfg.OIDC.PublicURL)
}

// publicOrigin is the origin (scheme://host[:port]) of PUBLIC_URL, "" when it has none.
func publicOrigin(publicURL string) string {
	u, err := url.Parse(publicURL)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return ""
	}
	return strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Host)
}

func csrfRefused() error {
	return domain.Errorf(domain.KindForbidden, "csrf_refused", "This request changes something and carries only a session cookie, but does not come from a page of this service (Sec-Fetch-Site or Origin): refused. A script elsewhere sends an account token as Authorization: Bearer <token>.")
}

// setSessionCookie gives the browser the session's cookie, Secure when PUBLIC_URL is https.
func (s *Server) setSessionCookie(c echo.Context, token string, expires time.Time) {
	maxAge := int(expires.Sub(s.play.Clock().Now()).Seconds())
	if token == "" {
		maxAge = -1
	}
	c.SetCookie(&http.Cookie{
		Name:     sessionCookie,
		Value:    token,
		Path:     "/",
		MaxAge:   maxAge,
		HttpOnly: true,
		Secure:   strings.HasPrefix(strings.ToLower(s.cfg.OIDC.PublicURL), "https://"),
		SameSite: http.SameSiteLaxMode,
	})
}

// SignOut ends the browser session of the request's cookie (its streams end) and clears the
// cookie; without a session it only clears the cookie.
func (s *Server) SignOut(c echo.Context) error {
	if token := sessionCookieOf(c); token != "" {
		if !s.sameOrigin(c.Request()) { // whatever else the request carries
			return csrfRefused()
		}
		if err := s.play.SignOut(c.Request().Context(), token); err != nil {
			return err
		}
	}
	s.setSessionCookie(c, "", time.Time{})
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.NoContent(http.StatusNoContent)
}
