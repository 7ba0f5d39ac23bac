package api

import (
	"net/http"

	"github.com/labstack/echo/v4"
	openapi_types "github.com/oapi-codegen/runtime/types"

	"primegames/api/openapi"
)

// Co-teachers of a classroom: invites by one-time code, accepting one, the list, removing one
// (play/coteachers.go has the rules).

// CreateCoTeacherInvite makes a one-time invite code of the classroom.
func (s *Server) CreateCoTeacherInvite(c echo.Context, classroomID openapi.ClassroomID) error {
	principal, err := principalOf(c)
	if err != nil {
		return err
	}
	code, expires, err := s.play.CreateCoTeacherInvite(c.Request().Context(), principal, classroomID.String())
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusCreated, openapi.CoTeacherInvite{Code: code, ExpiresAt: expires})
}

// AcceptCoTeacherInvite makes the account a co-teacher of the invite's classroom; a wrong code
// counts as a guess (middleware.GuessGuard).
func (s *Server) AcceptCoTeacherInvite(c echo.Context) error {
	principal, err := principalOf(c)
	if err != nil {
		return err
	}
	var req openapi.AcceptCoTeacherInviteRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	var body openapi.Classroom
	err = s.guesses.Attempt(c, func() error {
		classroom, err := s.play.AcceptCoTeacherInvite(c.Request().Context(), principal, req.Code)
		if err == nil {
			body = classroomBody(classroom)
		}
		return err
	})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, body)
}

// ListClassroomTeachers lists the classroom's owner and co-teachers.
func (s *Server) ListClassroomTeachers(c echo.Context, classroomID openapi.ClassroomID) error {
	principal, err := principalOf(c)
	if err != nil {
		return err
	}
	teachers, err := s.play.ClassroomTeachers(c.Request().Context(), principal, classroomID.String())
	if err != nil {
		return err
	}
	list := openapi.ClassroomTeacherList{Teachers: make([]openapi.ClassroomTeacher, len(teachers))}
	for i, t := range teachers {
		list.Teachers[i] = openapi.ClassroomTeacher{AccountId: mustUUID(t.AccountID), Name: t.Name, Owner: t.Owner, AddedAt: t.AddedAt}
	}
	return c.JSON(http.StatusOK, list)
}

// RemoveCoTeacher removes a co-teacher of the classroom.
func (s *Server) RemoveCoTeacher(c echo.Context, classroomID openapi.ClassroomID, accountID openapi_types.UUID) error {
	principal, err := principalOf(c)
	if err != nil {
		return err
	}
	if err := s.play.RemoveCoTeacher(c.Request().Context(), principal, classroomID.String(), accountID.String()); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}
