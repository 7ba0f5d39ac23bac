package api

import (
	"strings"

	"github.com/labstack/echo/v4"

	"primegames/domain"
	"primegames/repo"
)

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

// viewerFor decides how much of a game the caller may see: everything for the game's teacher and
// once it is over (PR-8), a player's own view for a seat, the public view otherwise.
func viewerFor(g *repo.Game, caller repo.Caller) domain.Viewer {
	switch {
	case g.Status.Over() || caller.Teacher:
		return domain.Full
	case caller.HasSeat():
		return domain.Player(caller.Seat)
	default:
		return domain.Public
	}
}
