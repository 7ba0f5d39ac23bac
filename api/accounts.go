package api

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
	openapi_types "github.com/oapi-codegen/runtime/types"

	"primegames/api/openapi"
	"primegames/play"
)

// The account's own endpoints (/v1/me/classrooms, /v1/me/tokens) and attaching a classroom to it;
// play/accounts.go has the rules.

// ListMyClassrooms lists the classrooms the account owns.
func (s *Server) ListMyClassrooms(c echo.Context) error {
	principal, err := principalOf(c)
	if err != nil {
		return err
	}
	classrooms, err := s.play.MyClassrooms(c.Request().Context(), principal)
	if err != nil {
		return err
	}
	list := openapi.ClassroomList{Classrooms: make([]openapi.Classroom, len(classrooms))}
	for i := range classrooms {
		list.Classrooms[i] = classroomBody(&classrooms[i])
	}
	return c.JSON(http.StatusOK, list)
}

// ListMyTokens lists the account's tokens that still work.
func (s *Server) ListMyTokens(c echo.Context) error {
	principal, err := principalOf(c)
	if err != nil {
		return err
	}
	tokens, err := s.play.MyTokens(c.Request().Context(), principal)
	if err != nil {
		return err
	}
	list := openapi.AccountTokenList{Tokens: make([]openapi.AccountToken, len(tokens))}
	for i, t := range tokens {
		list.Tokens[i] = accountTokenBody(t)
	}
	return c.JSON(http.StatusOK, list)
}

// CreateMyToken gives the account another named token.
func (s *Server) CreateMyToken(c echo.Context) error {
	principal, err := principalOf(c)
	if err != nil {
		return err
	}
	var req openapi.CreateAccountTokenRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	lifetime := time.Duration(deref(req.ExpiresIn)) * time.Second
	token, info, err := s.play.CreateAccountToken(c.Request().Context(), principal, req.Name, lifetime)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, openapi.CreatedAccountToken{Token: token, Info: accountTokenBody(*info)})
}

// RevokeMyToken revokes one of the account's tokens.
func (s *Server) RevokeMyToken(c echo.Context, tokenID openapi_types.UUID) error {
	principal, err := principalOf(c)
	if err != nil {
		return err
	}
	if err := s.play.RevokeAccountToken(c.Request().Context(), principal, tokenID.String()); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// AttachClassroom makes the account own a classroom whose teacher token the request shows.
func (s *Server) AttachClassroom(c echo.Context, classroomID openapi.ClassroomID) error {
	principal, err := principalOf(c)
	if err != nil {
		return err
	}
	var req openapi.AttachClassroomRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	classroom, err := s.play.AttachClassroom(c.Request().Context(), principal, classroomID.String(), req.TeacherToken)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, classroomBody(classroom))
}

func accountBody(a play.Account) openapi.Account {
	return openapi.Account{Id: mustUUID(a.ID), Name: a.Name, Issuer: a.Issuer, CreatedAt: a.CreatedAt}
}

func accountTokenBody(t play.AccountToken) openapi.AccountToken {
	return openapi.AccountToken{Id: mustUUID(t.ID), Name: t.Name, CreatedAt: t.CreatedAt, ExpiresAt: t.ExpiresAt}
}

// createOwnedClassroom creates a classroom the account owns: an account token creates classrooms
// whether or not the operator set ADMIN_TOKEN (the operator's provider vouched for the teacher).
func (s *Server) createOwnedClassroom(c echo.Context, principal play.Principal) error {
	var req openapi.CreateClassroomRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	classroom, token, err := s.play.CreateOwnedClassroom(c.Request().Context(), principal, req.Name)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Location", "/v1/classrooms/"+classroom.ID)
	return c.JSON(http.StatusCreated, openapi.CreatedClassroom{Classroom: classroomBody(classroom), TeacherToken: token})
}
