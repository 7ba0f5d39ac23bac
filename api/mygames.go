package api

import (
	"github.com/labstack/echo/v4"

	"primegames/api/openapi"
	"primegames/play"
)

// ListMyGames lists the games the caller's token plays in.
func (s *Server) ListMyGames(c echo.Context, params openapi.ListMyGamesParams) error {
	principal, err := principalOf(c)
	if err != nil {
		return err
	}
	f := play.GameFilter{Limit: pageSize(params.Limit), MyTurn: params.Turn != nil && *params.Turn == openapi.Mine}
	if params.Status != nil {
		f.Status = play.Status(*params.Status)
	}
	if params.Cursor != nil {
		f.Cursor = *params.Cursor
	}
	list, next, err := s.play.MyGames(c.Request().Context(), principal, f)
	if err != nil {
		return err
	}
	return sendGames(c, list, next)
}
