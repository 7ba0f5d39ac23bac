package api

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"primegames/api/openapi"
	"primegames/play"
)

// ReissueStudentToken gives a student a new token in place of their old one.
func (s *Server) ReissueStudentToken(c echo.Context, classroomID openapi.ClassroomID, studentID openapi.StudentID, params openapi.ReissueStudentTokenParams) error {
	principal, err := principalOf(c)
	if err != nil {
		return err
	}
	issued, err := s.play.ReissueStudentToken(c.Request().Context(), principal, classroomID.String(), studentID.String(), play.NewIdempotency(params.IdempotencyKey, nil))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, openapi.StudentToken{Student: studentBody(issued.Student), Token: issued.Token})
}

// RotateTeacherToken replaces the teacher token the request carries.
func (s *Server) RotateTeacherToken(c echo.Context, classroomID openapi.ClassroomID, params openapi.RotateTeacherTokenParams) error {
	principal, err := principalOf(c)
	if err != nil {
		return err
	}
	token, err := s.play.RotateTeacherToken(c.Request().Context(), principal, classroomID.String(), play.NewIdempotency(params.IdempotencyKey, nil))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, openapi.TeacherToken{ClassroomId: classroomID, TeacherToken: token})
}

// EraseStudent replaces a removed student's name everywhere by a placeholder.
func (s *Server) EraseStudent(c echo.Context, classroomID openapi.ClassroomID, studentID openapi.StudentID) error {
	classroom, err := s.teacherOf(c, classroomID)
	if err != nil {
		return err
	}
	student, err := s.play.EraseStudent(c.Request().Context(), classroom.ID, studentID.String())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, studentBody(*student))
}
