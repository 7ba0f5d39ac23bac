package api

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"primegames/api/openapi"
)

// GetHint answers with the expert's suggested action for the caller's seat now.
func (s *Server) GetHint(c echo.Context, id openapi.GameID) error {
	principal, err := principalOf(c)
	if err != nil {
		return err
	}
	hint, err := s.play.Hint(c.Request().Context(), id.String(), principal)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, openapi.Hint{
		Game: openapi.GameKind(hint.Game), Seat: hint.Seat, Seq: hint.Seq, Version: hint.Version,
		Action: hint.Action, Explanation: lang(c).Text(hint.Explanation),
	})
}
