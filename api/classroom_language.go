package api

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"primegames/api/openapi"
)

// GetClassroomLanguage shows the classroom's default language to its teacher.
func (s *Server) GetClassroomLanguage(c echo.Context, classroomID openapi.ClassroomID) error {
	classroom, err := s.teacherOf(c, classroomID)
	if err != nil {
		return err
	}
	l, err := s.play.ClassroomLanguage(c.Request().Context(), classroom.ID)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, openapi.ClassroomLanguage{Language: l.Code()})
}

// SetClassroomLanguage sets the classroom's default language.
func (s *Server) SetClassroomLanguage(c echo.Context, classroomID openapi.ClassroomID) error {
	classroom, err := s.teacherOf(c, classroomID)
	if err != nil {
		return err
	}
	var req openapi.ClassroomLanguage
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	l, err := s.play.SetClassroomLanguage(c.Request().Context(), classroom.ID, req.Language)
	if err != nil {
		return err
	}
	s.languages.forget()
	return c.JSON(http.StatusOK, openapi.ClassroomLanguage{Language: l.Code()})
}
