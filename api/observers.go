package api

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"primegames/api/openapi"
	"primegames/play"
)

// MintGameObserver issues a read-only token for a game.
func (s *Server) MintGameObserver(c echo.Context, id openapi.GameID, params openapi.MintGameObserverParams) error {
	return s.mintObserver(c, play.ObserverTarget{GameID: id.String()}, params.ExpiresIn)
}

// MintClassroomObserver issues a read-only token for a classroom's games.
func (s *Server) MintClassroomObserver(c echo.Context, classroomID openapi.ClassroomID, params openapi.MintClassroomObserverParams) error {
	return s.mintObserver(c, play.ObserverTarget{ClassroomID: classroomID.String()}, params.ExpiresIn)
}

// RevokeGameObserver ends a game's observer token.
func (s *Server) RevokeGameObserver(c echo.Context, id openapi.GameID, observerID openapi.ObserverID) error {
	return s.revokeObserver(c, play.ObserverTarget{GameID: id.String()}, observerID.String())
}

// RevokeClassroomObserver ends a classroom's observer token.
func (s *Server) RevokeClassroomObserver(c echo.Context, classroomID openapi.ClassroomID, observerID openapi.ObserverID) error {
	return s.revokeObserver(c, play.ObserverTarget{ClassroomID: classroomID.String()}, observerID.String())
}

func (s *Server) mintObserver(c echo.Context, target play.ObserverTarget, expiresIn *openapi.ExpiresIn) error {
	principal, err := principalOf(c)
	if err != nil {
		return err
	}
	var lifetime time.Duration
	if expiresIn != nil {
		lifetime = time.Duration(*expiresIn) * time.Second
	}
	issued, err := s.play.MintObserver(c.Request().Context(), principal, target, lifetime)
	if err != nil {
		return err
	}
	body := openapi.ObserverToken{Id: mustUUID(issued.ID), Token: issued.Token, CreatedAt: issued.CreatedAt, ExpiresAt: issued.ExpiresAt}
	if issued.GameID != "" {
		body.GameId = ptr(mustUUID(issued.GameID))
	}
	if issued.ClassroomID != "" {
		body.ClassroomId = ptr(mustUUID(issued.ClassroomID))
	}
	return c.JSON(http.StatusCreated, body)
}

func (s *Server) revokeObserver(c echo.Context, target play.ObserverTarget, observerID string) error {
	principal, err := principalOf(c)
	if err != nil {
		return err
	}
	if err := s.play.RevokeObserver(c.Request().Context(), principal, target, observerID); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}
