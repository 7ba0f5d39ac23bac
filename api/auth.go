package api

import (
	"strings"

	"github.com/labstack/echo/v4"

	"primegames/domain"
	"primegames/play"
)

const principalKey = "principal"

// identified is the principal of a request, or why its Authorization header could not give one.
type identified struct {
	principal play.Principal
	err       error
	// unresolved is the principal before its lookup, kept so that a stream can look it up again
	// once the database answers.
	unresolved play.Principal
}

// queryTokenRoutes are the operations that also take the token as ?access_token=, since neither
// EventSource nor <img src> can send headers.
var queryTokenRoutes = map[string]bool{
	"/v1/games/:id/events":                true,
	"/v1/classrooms/:classroom_id/events": true,
	"/v1/me/events":                       true,
	"/v1/games/:id/picture.svg":           true,
	"/v1/games/:id/replay.svg":            true,
	"/v1/games/:id/picture.png":           true,
	"/v1/games/:id/replay.png":            true,
}

// identify works out who a request speaks for, once: it hashes the bearer token (or, without one,
// the browser session's cookie, sessions.go) and, for a teacher or student token, looks up whose it
// is. A handler that needs the principal asks principalOf,
// which returns any error only then, so requests that need no token are not refused for one.
func (s *Server) identify(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if !s.isContractRoute(c) {
			return next(c)
		}
		token, err := bearerToken(c)
		if err == nil && token == "" && queryTokenRoutes[c.Path()] {
			token = c.QueryParam("access_token")
		}
		id := identified{err: err}
		if err == nil && token == "" {
			if p, linked, err := s.pictureLinkPrincipal(c); linked { // a picture link (picture_links.go)
				id.principal, id.unresolved, id.err = p, p, err
				c.Set(principalKey, id)
				return next(c)
			}
		}
		if err == nil && token == "" {
			if token = sessionCookieOf(c); token != "" && unsafeMethod(c.Request().Method) && !s.sameOrigin(c.Request()) {
				id.err = csrfRefused() // a cross-site request the browser added the cookie to (sessions.go)
				c.Set(principalKey, id)
				return next(c)
			}
		}
		if err == nil {
			id.unresolved = play.IdentifyToken(token, s.cfg.AdminToken)
			if id.unresolved.Kind == play.AccountHolder { // the classroom or game an account token is presented for (play/teaching.go)
				id.unresolved.ClassroomID = c.Param("classroom_id")
				if strings.HasPrefix(c.Path(), "/v1/games/:id") {
					id.unresolved.GameID = c.Param("id")
				}
			}
			id.principal, id.err = s.play.Resolve(c.Request().Context(), id.unresolved)
		}
		c.Set(principalKey, id)
		return next(c)
	}
}

// principalOf is the request's principal.
func principalOf(c echo.Context) (play.Principal, error) {
	id, ok := c.Get(principalKey).(identified)
	if !ok {
		return play.Nobody, nil
	}
	return id.principal, id.err
}

// bearerToken returns the token of an "Authorization: Bearer <token>" header, "" when there is no
// header, and an error for a header of another form.
func bearerToken(c echo.Context) (string, error) {
	h := c.Request().Header.Get(echo.HeaderAuthorization)
	if h == "" {
		return "", nil
	}
	scheme, token, ok := strings.Cut(h, " ")
	token = strings.TrimSpace(token)
	if !ok || !strings.EqualFold(scheme, "Bearer") || token == "" {
		return "", domain.Errorf(domain.KindUnauthorized, "unauthorized", "The Authorization header must read: Bearer <token>.")
	}
	return token, nil
}
