package api

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"primegames/api/openapi"
	"primegames/domain"
	"primegames/play"
)

// CreateClassroom creates a classroom and returns its teacher token.
func (s *Server) CreateClassroom(c echo.Context) error {
	if p, _ := principalOf(c); p.Kind == play.AccountHolder {
		return s.createOwnedClassroom(c, p) // accounts.go
	}
	if s.cfg.AdminToken != "" {
		principal, err := principalOf(c)
		if err != nil {
			return err
		}
		if principal.Kind != play.Admin {
			return domain.Errorf(domain.KindUnauthorized, "unauthorized", "Creating a classroom needs the operator's admin token: Authorization: Bearer <admin token>.")
		}
	}
	var req openapi.CreateClassroomRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	classroom, token, err := s.play.CreateClassroom(c.Request().Context(), req.Name)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Location", "/v1/classrooms/"+classroom.ID)
	return c.JSON(http.StatusCreated, openapi.CreatedClassroom{Classroom: classroomBody(classroom), TeacherToken: token})
}

// JoinClassroom adds a student with the classroom's join code.
func (s *Server) JoinClassroom(c echo.Context) error {
	var req openapi.JoinClassroomRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	var student *play.StudentRecord
	var classroom *play.Classroom
	var token string
	err := s.guesses.Attempt(c, func() (err error) {
		student, classroom, token, err = s.play.JoinClassroom(c.Request().Context(), req.JoinCode, req.Name)
		return err
	})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, openapi.JoinedClassroom{Student: studentBody(*student), ClassroomName: classroom.Name, Token: token})
}

// GetClassroom shows the classroom to its teacher.
func (s *Server) GetClassroom(c echo.Context, classroomID openapi.ClassroomID) error {
	classroom, err := s.teacherOf(c, classroomID)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, classroomBody(classroom))
}

// RotateJoinCode replaces the join code.
func (s *Server) RotateJoinCode(c echo.Context, classroomID openapi.ClassroomID) error {
	classroom, err := s.teacherOf(c, classroomID)
	if err != nil {
		return err
	}
	if err := s.play.RotateJoinCode(c.Request().Context(), classroom); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, classroomBody(classroom))
}

// ListStudents lists the classroom's students.
func (s *Server) ListStudents(c echo.Context, classroomID openapi.ClassroomID) error {
	classroom, err := s.teacherOf(c, classroomID)
	if err != nil {
		return err
	}
	students, err := s.play.Students(c.Request().Context(), classroom.ID)
	if err != nil {
		return err
	}
	body := openapi.StudentList{Items: make([]openapi.Student, len(students))}
	for i, st := range students {
		body.Items[i] = studentBody(st)
	}
	return c.JSON(http.StatusOK, body)
}

// RenameStudent changes a student's name.
func (s *Server) RenameStudent(c echo.Context, classroomID openapi.ClassroomID, studentID openapi.StudentID) error {
	classroom, err := s.teacherOf(c, classroomID)
	if err != nil {
		return err
	}
	var req openapi.RenameStudentRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	student, err := s.play.RenameStudent(c.Request().Context(), classroom.ID, studentID.String(), req.Name)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, studentBody(*student))
}

// RemoveStudent takes a student out of the classroom.
func (s *Server) RemoveStudent(c echo.Context, classroomID openapi.ClassroomID, studentID openapi.StudentID) error {
	classroom, err := s.teacherOf(c, classroomID)
	if err != nil {
		return err
	}
	if err := s.play.RemoveStudent(c.Request().Context(), classroom.ID, studentID.String()); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// CreateClassroomGames starts a game for every group of students, all or none.
func (s *Server) CreateClassroomGames(c echo.Context, classroomID openapi.ClassroomID) error {
	classroom, err := s.teacherOf(c, classroomID)
	if err != nil {
		return err
	}
	var req openapi.ClassroomGamesRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	in := play.GroupGames{ClassroomID: classroom.ID, Kind: string(req.Game), GroupSize: req.GroupSize}
	if req.Options != nil {
		in.Options = *req.Options
	}
	if req.StudentIds != nil {
		for _, id := range *req.StudentIds {
			in.Students = append(in.Students, id.String())
		}
	}
	for _, level := range deref(req.Bots) {
		in.Bots = append(in.Bots, domain.Level(level))
	}
	created, err := s.play.CreateGroups(c.Request().Context(), in)
	if err != nil {
		return err
	}
	body := openapi.ClassroomGames{Games: make([]openapi.Game, len(created))}
	for i, g := range created {
		if body.Games[i], err = gameBody(g, play.ClassroomTeacher); err != nil {
			return err
		}
	}
	return c.JSON(http.StatusCreated, body)
}

// ListClassroomGames lists the classroom's games for its teacher.
func (s *Server) ListClassroomGames(c echo.Context, classroomID openapi.ClassroomID, params openapi.ListClassroomGamesParams) error {
	classroom, err := s.teacherOf(c, classroomID)
	if err != nil {
		return err
	}
	f := play.GameFilter{ClassroomID: classroom.ID, Limit: pageSize(params.Limit), From: params.From, To: params.To}
	if params.Game != nil {
		f.Kind = string(*params.Game)
	}
	if params.Status != nil {
		f.Status = play.Status(*params.Status)
	}
	if params.Student != nil {
		f.StudentID = params.Student.String()
	}
	if params.Cursor != nil {
		f.Cursor = *params.Cursor
	}
	return s.sendGameList(c, f)
}

// ListAttempts lists a game's refused actions to its classroom's teacher, or to anyone who may see
// the game once it is over.
func (s *Server) ListAttempts(c echo.Context, id openapi.GameID) error {
	g, caller, err := s.loadGame(c, id)
	if err != nil {
		return err
	}
	attempts, err := s.play.Attempts(c.Request().Context(), g, caller)
	if err != nil {
		return err
	}
	body := openapi.AttemptList{Items: make([]openapi.Attempt, len(attempts))}
	for i, a := range attempts {
		body.Items[i] = openapi.Attempt{Id: a.ID, Seat: a.Seat, Version: a.Version, Action: a.Action, Code: a.Code, Detail: a.Detail, CreatedAt: a.CreatedAt}
		if a.Facts != nil {
			body.Items[i].Facts = ptr(openapi.RefusalFacts(a.Facts))
		}
		if a.StudentID != nil {
			body.Items[i].StudentId = ptr(mustUUID(*a.StudentID))
		}
	}
	return c.JSON(http.StatusOK, body)
}

// teacherOf checks that the request carries the teacher token of the classroom.
func (s *Server) teacherOf(c echo.Context, classroomID openapi.ClassroomID) (*play.Classroom, error) {
	principal, err := principalOf(c)
	if err != nil {
		return nil, err
	}
	return s.play.TeacherClassroom(c.Request().Context(), principal, classroomID.String())
}

func classroomBody(c *play.Classroom) openapi.Classroom {
	return openapi.Classroom{Id: mustUUID(c.ID), Name: c.Name, JoinCode: c.JoinCode, StudentCount: c.StudentCount, CreatedAt: c.CreatedAt}
}

func studentBody(st play.StudentRecord) openapi.Student {
	return openapi.Student{Id: mustUUID(st.ID), ClassroomId: mustUUID(st.ClassroomID), Name: st.Name, CreatedAt: st.CreatedAt}
}
