package api

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"primegames/api/openapi"
	"primegames/play"
)

// GetMe says who the request's token is and what it may do.
func (s *Server) GetMe(c echo.Context) error {
	principal, err := principalOf(c)
	if err != nil {
		return err
	}
	id, err := s.play.Identify(c.Request().Context(), principal)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, renderIdentity(id))
}

func renderIdentity(id *play.Identity) openapi.Me {
	me := openapi.Me{Kind: openapi.MeKind(id.Kind), ExpiresAt: id.ExpiresAt, May: make([]openapi.MeMay, len(id.May))}
	for i, m := range id.May {
		me.May[i] = openapi.MeMay(m)
	}
	if id.ClassroomID != "" {
		classroom := mustUUID(id.ClassroomID)
		me.ClassroomId = &classroom
	}
	if id.Account != nil {
		account := accountBody(*id.Account)
		me.Account = &account
	}
	if id.GameID != "" {
		game := mustUUID(id.GameID)
		me.GameId = &game
	}
	if id.StudentID != "" {
		student := mustUUID(id.StudentID)
		me.StudentId = &student
	}
	if id.Games != nil {
		games := make([]openapi.TokenGame, len(id.Games))
		for i, g := range id.Games {
			games[i] = openapi.TokenGame{GameId: mustUUID(g.GameID)}
			if g.Seat >= 0 {
				games[i].Seat = &g.Seat
			}
		}
		me.Games = &games
	}
	return me
}
