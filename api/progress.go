package api

import (
	"encoding/csv"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	openapi_types "github.com/oapi-codegen/runtime/types"

	"primegames/api/openapi"
	"primegames/play"
)

// progressAsk is what a progress request asks, from its query.
func progressAsk[B ~string](from, to *openapi_types.Date, bucket *B, student *openapi_types.UUID) play.ProgressAsk {
	ask := play.ProgressAsk{Bucket: play.BucketWeek}
	if from != nil {
		ask.From = from.Time
	}
	if to != nil {
		ask.To = to.Time
	}
	if bucket != nil {
		ask.Bucket = string(*bucket)
	}
	if student != nil {
		ask.StudentID = student.String()
	}
	return ask
}

// classroomProgress reads the progress of the teacher's classroom.
func (s *Server) classroomProgress(c echo.Context, classroomID openapi.ClassroomID, ask play.ProgressAsk) (*play.Classroom, *play.ClassroomProgress, error) {
	classroom, err := s.teacherOf(c, classroomID)
	if err != nil {
		return nil, nil, err
	}
	p, err := s.play.ClassroomProgress(c.Request().Context(), classroom.ID, ask)
	return classroom, p, err
}

// GetClassroomProgress reports each student's progress over the weeks or days, as JSON or CSV.
func (s *Server) GetClassroomProgress(c echo.Context, classroomID openapi.ClassroomID, params openapi.GetClassroomProgressParams) error {
	classroom, p, err := s.classroomProgress(c, classroomID, progressAsk(params.From, params.To, params.Bucket, params.StudentId))
	if err != nil {
		return err
	}
	if strings.Contains(c.Request().Header.Get(echo.HeaderAccept), "text/csv") {
		return sendProgressCSV(c, p)
	}
	return c.JSON(http.StatusOK, progressBody(classroom.ID, p))
}

// GetClassroomProgressCsv is GetClassroomProgress as CSV.
func (s *Server) GetClassroomProgressCsv(c echo.Context, classroomID openapi.ClassroomID, params openapi.GetClassroomProgressCsvParams) error {
	_, p, err := s.classroomProgress(c, classroomID, progressAsk(params.From, params.To, params.Bucket, params.StudentId))
	if err != nil {
		return err
	}
	return sendProgressCSV(c, p)
}

// GetClassroomProgressPicture draws the progress as SVG.
func (s *Server) GetClassroomProgressPicture(c echo.Context, classroomID openapi.ClassroomID, params openapi.GetClassroomProgressPictureParams) error {
	return s.progressPicture(c, classroomID, progressAsk(params.From, params.To, params.Bucket, params.StudentId), false)
}

// GetClassroomProgressPicturePng draws the progress as PNG.
func (s *Server) GetClassroomProgressPicturePng(c echo.Context, classroomID openapi.ClassroomID, params openapi.GetClassroomProgressPicturePngParams) error {
	return s.progressPicture(c, classroomID, progressAsk(params.From, params.To, params.Bucket, params.StudentId), true)
}

func (s *Server) progressPicture(c echo.Context, classroomID openapi.ClassroomID, ask play.ProgressAsk, png bool) error {
	classroom, p, err := s.classroomProgress(c, classroomID, ask)
	if err != nil {
		return err
	}
	release, err := s.renders.enter(c.Request().Context())
	if err != nil {
		return err
	}
	defer release()
	sc := play.ProgressPicture(p, classroom.Name)
	doc := sc.SVG()
	if !png {
		return sendPicture(c, doc, svgType, "no-cache")
	}
	tag := pngTag(contentTag(doc))
	if notModified(c, tag, "no-cache") {
		return c.NoContent(http.StatusNotModified)
	}
	return sendPNG(c, sc, tag)
}

func progressBody(classroomID string, p *play.ClassroomProgress) openapi.ClassroomProgress {
	body := openapi.ClassroomProgress{ClassroomId: mustUUID(classroomID), From: openapi_types.Date{Time: p.From}, To: openapi_types.Date{Time: p.To},
		Bucket: openapi.ClassroomProgressBucket(p.Bucket), Students: make([]openapi.StudentProgress, len(p.Students)), Class: figuresBody(p.Class)}
	for i, st := range p.Students {
		body.Students[i] = openapi.StudentProgress{StudentId: mustUUID(st.StudentID), Name: st.Name, Buckets: figuresBody(st.Buckets)}
	}
	return body
}

func figuresBody(buckets []play.ProgressFigures) []openapi.ProgressFigures {
	out := make([]openapi.ProgressFigures, len(buckets))
	for i, b := range buckets {
		out[i] = openapi.ProgressFigures{Start: openapi_types.Date{Time: b.Start}, GamesPlayed: b.Played, GamesFinished: b.Finished, GamesWon: b.Won,
			HintsUsed: b.Hints, Moves: b.Moves, MsPerMove: b.MSPerMove(), MissedOpportunities: b.Missed}
	}
	return out
}

// sendProgressCSV writes one row per student and bucket, then the class's rows.
func sendProgressCSV(c echo.Context, p *play.ClassroomProgress) error {
	c.Response().Header().Set(echo.HeaderContentType, "text/csv; charset=utf-8")
	c.Response().Header().Set("Content-Disposition", `attachment; filename="classroom-progress.csv"`)
	c.Response().WriteHeader(http.StatusOK)
	w := csv.NewWriter(c.Response())
	_ = w.Write([]string{"student_id", "name", "start", "played", "finished", "won", "hints", "moves", "ms_per_move", "missed"})
	rows := func(id, name string, buckets []play.ProgressFigures) {
		for _, b := range buckets {
			ms := ""
			if m := b.MSPerMove(); m != nil {
				ms = strconv.FormatInt(*m, 10)
			}
			_ = w.Write([]string{id, spreadsheetSafe(name), b.Start.Format(time.DateOnly), strconv.Itoa(b.Played), strconv.Itoa(b.Finished),
				strconv.Itoa(b.Won), strconv.Itoa(b.Hints), strconv.Itoa(b.Moves), ms, strconv.Itoa(b.Missed)})
		}
	}
	for _, st := range p.Students {
		rows(st.StudentID, st.Name, st.Buckets)
	}
	rows("", "(class)", p.Class)
	w.Flush()
	return w.Error()
}
