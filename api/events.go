package api

import (
	"github.com/labstack/echo/v4"

	"primegames/api/openapi"
	"primegames/domain"
)

// StreamGameEvents is being written (issue 7).
func (s *Server) StreamGameEvents(c echo.Context, id openapi.GameID, params openapi.StreamGameEventsParams) error {
	return domain.Errorf(domain.KindUnavailable, "unavailable", "Live updates are not available yet.")
}
