package api

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/labstack/echo/v4"

	"primegames/api/openapi"
	"primegames/domain"
	"primegames/play"
)

// CreateAssignment sets the class an assignment.
func (s *Server) CreateAssignment(c echo.Context, classroomID openapi.ClassroomID) error {
	classroom, err := s.teacherOf(c, classroomID)
	if err != nil {
		return err
	}
	var req openapi.AssignmentRequest
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	in := play.NewAssignment{Title: req.Title, Kind: string(req.Game), Games: req.Games, DueAt: req.DueAt}
	if req.Options != nil {
		in.Options = *req.Options
	}
	if req.Opponents.Bot != nil {
		in.Bot = domain.Level(*req.Opponents.Bot)
	}
	if req.Opponents.Classmates != nil {
		in.GroupSize = req.Opponents.Classmates.GroupSize
	}
	ctx := c.Request().Context()
	if req.Gradebook != nil && *req.Gradebook {
		if err := s.play.GradebookAvailable(ctx, classroom.ID); err != nil {
			return err
		}
	}
	a, err := s.play.CreateAssignment(ctx, classroom.ID, in)
	if err != nil {
		return err
	}
	if req.Gradebook != nil && *req.Gradebook {
		if err := s.play.SetAssignmentGradebook(ctx, classroom.ID, a.ID, true); err != nil {
			return err
		}
	}
	a, err = s.play.Assignment(ctx, classroom.ID, a.ID)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Location", "/v1/classrooms/"+classroom.ID+"/assignments/"+a.ID)
	return c.JSON(http.StatusCreated, assignmentBody(a))
}

// ListAssignments lists the classroom's assignments with every current student's progress.
func (s *Server) ListAssignments(c echo.Context, classroomID openapi.ClassroomID) error {
	classroom, err := s.teacherOf(c, classroomID)
	if err != nil {
		return err
	}
	list, err := s.play.Assignments(c.Request().Context(), classroom.ID)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, openapi.AssignmentList{Items: assignmentBodies(list)})
}

// GetAssignment reads one assignment with every current student's progress.
func (s *Server) GetAssignment(c echo.Context, classroomID openapi.ClassroomID, assignmentID openapi.AssignmentID) error {
	classroom, err := s.teacherOf(c, classroomID)
	if err != nil {
		return err
	}
	a, err := s.play.Assignment(c.Request().Context(), classroom.ID, assignmentID.String())
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, assignmentBody(a))
}

// ChangeAssignment changes an assignment's title, games or due time.
func (s *Server) ChangeAssignment(c echo.Context, classroomID openapi.ClassroomID, assignmentID openapi.AssignmentID) error {
	classroom, err := s.teacherOf(c, classroomID)
	if err != nil {
		return err
	}
	var req openapi.AssignmentChange
	if err := bindJSON(c, &req); err != nil {
		return err
	}
	ctx := c.Request().Context()
	if req.Gradebook != nil {
		if err := s.play.SetAssignmentGradebook(ctx, classroom.ID, assignmentID.String(), *req.Gradebook); err != nil {
			return err
		}
	}
	a, err := s.play.ChangeAssignment(ctx, classroom.ID, assignmentID.String(),
		play.AssignmentChange{Title: req.Title, Games: req.Games, DueAt: req.DueAt})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, assignmentBody(a))
}

// DeleteAssignment deletes an assignment and its progress.
func (s *Server) DeleteAssignment(c echo.Context, classroomID openapi.ClassroomID, assignmentID openapi.AssignmentID) error {
	classroom, err := s.teacherOf(c, classroomID)
	if err != nil {
		return err
	}
	if err := s.play.DeleteAssignment(c.Request().Context(), classroom.ID, assignmentID.String()); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// ListMyAssignments lists a student's assignments with their own progress.
func (s *Server) ListMyAssignments(c echo.Context) error {
	principal, err := principalOf(c)
	if err != nil {
		return err
	}
	list, err := s.play.StudentAssignments(c.Request().Context(), principal)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, openapi.MyAssignmentList{Items: assignmentBodies(list)})
}

// StartAssignedGame gives a student the assignment's next game, or their open one.
func (s *Server) StartAssignedGame(c echo.Context, assignmentID openapi.AssignmentID) error {
	principal, err := principalOf(c)
	if err != nil {
		return err
	}
	assigned, err := s.play.StartAssigned(c.Request().Context(), principal, assignmentID.String())
	if err != nil {
		return err
	}
	game, err := gameBody(assigned.Game, play.Caller{Seat: assigned.Seat, StudentID: principal.StudentID})
	if err != nil {
		return err
	}
	status := http.StatusOK
	if assigned.New {
		status = http.StatusCreated
	}
	c.Response().Header().Set("Location", "/v1/games/"+assigned.Game.ID)
	return c.JSON(status, openapi.AssignedGame{AssignmentId: assignmentID, Game: game, Seat: assigned.Seat})
}

func assignmentBodies(list []play.Assignment) []openapi.Assignment {
	out := make([]openapi.Assignment, len(list))
	for i := range list {
		out[i] = assignmentBody(&list[i])
	}
	return out
}

func assignmentBody(a *play.Assignment) openapi.Assignment {
	body := openapi.Assignment{Id: mustUUID(a.ID), ClassroomId: mustUUID(a.ClassroomID), Title: a.Title, Game: openapi.GameKind(a.Kind),
		Options: a.Options, Games: a.Games, DueAt: a.DueAt, CreatedAt: a.CreatedAt, Progress: make([]openapi.AssignmentProgress, len(a.Progress))}
	if a.Bot != "" {
		body.Opponents.Bot = ptr(openapi.BotLevel(a.Bot))
	} else {
		body.Opponents.Classmates = &struct {
			GroupSize int `json:"group_size"`
		}{GroupSize: a.GroupSize}
	}
	if g := a.Gradebook; g != nil {
		body.Gradebook = &openapi.AssignmentGradebook{Status: openapi.AssignmentGradebookStatus(g.Status)}
		if g.Error != "" {
			body.Gradebook.ErrorCode = ptr(openapi.AssignmentGradebookErrorCode(g.Error))
		}
		if g.ErrorStatus != 0 {
			body.Gradebook.HttpStatus = ptr(g.ErrorStatus)
		}
	}
	for i, p := range a.Progress {
		body.Progress[i] = openapi.AssignmentProgress{StudentId: mustUUID(p.StudentID), Name: p.StudentName, GamesDone: p.GamesDone,
			GamesLate: p.GamesLate, Done: p.Done}
		if p.OpenGameID != "" {
			body.Progress[i].OpenGameId = ptr(mustUUID(p.OpenGameID))
		}
	}
	return body
}

// sendAssignmentDone sends, before the end of a finished game, the assignment_done messages its
// end caused, those of student only unless student is empty. They carry no id: the resume point
// stays before the game's end, so a stream resumed from before the end sends them again.
func (s *Server) sendAssignmentDone(ctx context.Context, out *eventWriter, g *play.Game, student string) error {
	if g.Status != play.StatusFinished || g.ClassroomID == nil {
		return nil
	}
	notices, err := s.play.AssignmentsDoneBy(ctx, g.ID)
	if err != nil {
		return err
	}
	return sendNotices(out, notices, student)
}

// sendNotices sends assignment messages without an id, those of student only unless student is
// empty.
func sendNotices(out *eventWriter, notices []play.AssignmentNotice, student string) error {
	for _, n := range notices {
		if student != "" && n.StudentID != student {
			continue
		}
		data, err := json.Marshal(assignmentEventBody(n))
		if err != nil {
			return err
		}
		if err := out.event("", n.Event, data); err != nil {
			return err
		}
	}
	return nil
}

// sendDueSoon sends the assignment_due_soon messages of the assignments named among what a
// classroom's stream heard (those of student only unless student is empty), and returns the
// other names, the games. Like assignment_done they carry no id; a stream not open when they are
// announced does not get them (webhooks do).
func (s *Server) sendDueSoon(ctx context.Context, out *eventWriter, names []string, student string) ([]string, error) {
	games := names[:0:0]
	for _, name := range names {
		id, ok := play.DueSoonAssignment(name)
		if !ok {
			games = append(games, name)
			continue
		}
		notices, err := s.play.AssignmentDueSoon(ctx, id)
		if err != nil {
			return nil, err
		}
		if err := sendNotices(out, notices, student); err != nil {
			return nil, err
		}
	}
	return games, nil
}

func assignmentEventBody(n play.AssignmentNotice) openapi.AssignmentEvent {
	body := openapi.AssignmentEvent{Event: openapi.AssignmentEventKind(n.Event), AssignmentId: mustUUID(n.AssignmentID), ClassroomId: mustUUID(n.ClassroomID),
		Title: n.Title, Games: n.Games, DueAt: n.DueAt, StudentId: mustUUID(n.StudentID), Name: n.StudentName, GamesDone: n.GamesDone,
		GamesLate: n.GamesLate, Done: n.GamesDone >= n.Games}
	if n.GameID != "" {
		body.GameId = ptr(mustUUID(n.GameID))
	}
	return body
}
