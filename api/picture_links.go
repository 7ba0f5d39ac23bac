package api

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"primegames/api/openapi"
	"primegames/play"
)

// pictureRoutes take a picture link (exp and sig, play/picture_links.go) in place of a token.
var pictureRoutes = map[string]bool{
	"/v1/games/:id/picture.svg": true,
	"/v1/games/:id/replay.svg":  true,
	"/v1/games/:id/picture.png": true,
	"/v1/games/:id/replay.png":  true,
}

// GetPictureLinks makes the caller's links to the game's pictures.
func (s *Server) GetPictureLinks(c echo.Context, id openapi.GameID) error {
	if _, err := s.readGame(c, id); err != nil {
		return err
	}
	principal, err := principalOf(c)
	if err != nil {
		return err
	}
	link, err := s.play.NewPictureLink(principal, id.String())
	if err != nil {
		return err
	}
	base := "/v1/games/" + id.String() + "/"
	return c.JSON(http.StatusOK, openapi.PictureLinks{
		ExpiresAt: link.ExpiresAt.UTC(), Query: link.Query,
		PictureSvg: base + "picture.svg?" + link.Query, PicturePng: base + "picture.png?" + link.Query,
		ReplaySvg: base + "replay.svg?" + link.Query, ReplayPng: base + "replay.png?" + link.Query,
	})
}

// pictureLinkPrincipal is the principal a picture route's link names, when the request brings one.
func (s *Server) pictureLinkPrincipal(c echo.Context) (p play.Principal, ok bool, err error) {
	sig := c.QueryParam("sig")
	if sig == "" || !pictureRoutes[c.Path()] {
		return play.Nobody, false, nil
	}
	p, err = s.play.PictureLinkPrincipal(c.Request().Context(), c.Param("id"), c.QueryParam("exp"), sig)
	return p, true, err
}

// linkQueryFor is the query of a fresh picture link for the request's viewer, for the Link header
// of a replay; "" when the request has no token to make one for.
func (s *Server) linkQueryFor(c echo.Context, gameID string) string {
	principal, err := principalOf(c)
	if err != nil || len(principal.TokenHash) == 0 {
		return ""
	}
	link, err := s.play.NewPictureLink(principal, gameID)
	if err != nil {
		return ""
	}
	return link.Query
}
