package api

import (
	"context"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"primegames/api/middleware"
	"primegames/api/openapi"
	"primegames/domain"
)

const readinessTimeout = 2 * time.Second

// GetHealthz answers as long as the process runs.
func (s *Server) GetHealthz(c echo.Context) error {
	return c.JSON(http.StatusOK, openapi.Health{Status: "ok"})
}

// GetReadyz answers 200 only when the database does.
func (s *Server) GetReadyz(c echo.Context) error {
	ctx, cancel := context.WithTimeout(c.Request().Context(), readinessTimeout)
	defer cancel()
	if err := s.database.Ping(ctx); err != nil {
		s.logger.Warn("not ready", "request_id", middleware.RequestIDOf(c), "error", err)
		return domain.Errorf(domain.KindUnavailable, "unavailable", "The database is not reachable.")
	}
	return c.JSON(http.StatusOK, openapi.Health{Status: "ready"})
}
