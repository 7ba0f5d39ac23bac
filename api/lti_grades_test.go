package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"primegames/api"
	"primegames/outbound"
	"primegames/play"
)

// gradebook is the simulated platform's gradebook (LTI Assignment and Grade Services): it checks
// the bearer token the token URL minted for each scope, the media types, and records the line items
// made and the scores posted. failTokens and failScores make the next requests fail with 503.
type gradebook struct {
	mu         sync.Mutex
	lineItems  []map[string]any
	scores     []map[string]any
	failTokens atomic.Int32
	failScores atomic.Int32
}

func accessTokenFor(scope string) string {
	return "access-" + scope[strings.LastIndex(scope, "/")+1:]
}

func (g *gradebook) lineItem(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("Authorization") != "Bearer "+accessTokenFor(play.LTIScopeLineItem) ||
		r.Header.Get("Content-Type") != play.LTILineItemMediaType {
		http.Error(w, "unauthorized", http.StatusUnauthorized)
		return
	}
	var item map[string]any
	if err := json.NewDecoder(r.Body).Decode(&item); err != nil {
		http.Error(w, "bad", http.StatusBadRequest)
		return
	}
	g.mu.Lock()
	status := http.StatusOK
	if r.Method == http.MethodPost { // a new line item; a PUT replaces the one of its URL
		g.lineItems = append(g.lineItems, item)
		item["id"] = fmt.Sprintf("http://%s/lineitems/%d?tenant=1", r.Host, len(g.lineItems))
		status = http.StatusCreated
	} else {
		var n int
		if _, err := fmt.Sscanf(r.URL.Path, "/lineitems/%d", &n); err != nil || n < 1 || n > len(g.lineItems) || item["id"] != "http://"+r.Host+r.URL.RequestURI() {
			g.mu.Unlock()
			http.Error(w, "no such line item", http.StatusNotFound)
			return
		}
		g.lineItems[n-1] = item
	}
	g.mu.Unlock()
	w.Header().Set("Content-Type", play.LTILineItemMediaType)
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(item)
}

func (g *gradebook) score(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.Header.Get("Authorization") != "Bearer "+accessTokenFor(play.LTIScopeScore) ||
		r.Header.Get("Content-Type") != play.LTIScoreMediaType || r.URL.Query().Get("tenant") != "1" {
		http.Error(w, "unauthorized", http.StatusUnauthorized)
		return
	}
	if g.failScores.Load() > 0 {
		g.failScores.Add(-1)
		http.Error(w, "down", http.StatusServiceUnavailable)
		return
	}
	var score map[string]any
	if err := json.NewDecoder(r.Body).Decode(&score); err != nil {
		http.Error(w, "bad", http.StatusBadRequest)
		return
	}
	score["line_item"] = r.URL.Path
	g.mu.Lock()
	g.scores = append(g.scores, score)
	g.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

func (g *gradebook) read() (lineItems, scores []map[string]any) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]map[string]any(nil), g.lineItems...), append([]map[string]any(nil), g.scores...)
}

// gradebookOf reads the assignment's gradebook status as the teacher sees it.
func gradebookOf(t *testing.T, r *ltiRig, token, classroomID, assignmentID string) (status, code string, httpStatus int) {
	t.Helper()
	var a struct {
		Gradebook *struct {
			Status     string `json:"status"`
			ErrorCode  string `json:"error_code"`
			HTTPStatus int    `json:"http_status"`
		} `json:"gradebook"`
	}
	got := r.a.Get("/v1/classrooms/"+classroomID+"/assignments/"+assignmentID, bearer(token)...)
	if got.StatusCode != http.StatusOK {
		t.Fatalf("get assignment = %d: %s", got.StatusCode, got.Body)
	}
	if strings.Contains(string(got.Body), `"learner-1"`) {
		t.Errorf("the assignment shows the learner's LMS id: %s", got.Body)
	}
	got.JSON(t, &a)
	if a.Gradebook == nil {
		return "", "", 0
	}
	return a.Gradebook.Status, a.Gradebook.ErrorCode, a.Gradebook.HTTPStatus
}

// An assignment of a classroom an LTI launch made, with gradebook on, becomes a line item of the
// course's gradebook (made by the worker with an access token for the lineitem scope); the
// learner's finished game is posted as a score (games done of games asked, Completed,
// FullyGraded) under their LMS user id, which no answer and no log shows. A platform that fails
// makes the status failing (a warning in the log, not an error) and the worker tries again after
// its backoff on the service's clock, until the platform recovers.
func TestLTIGradesGoToTheCoursesGradebook(t *testing.T) {
	t.Parallel()
	r := newLTIRig(t)
	service := r.services[0]
	sender, err := outbound.New(outbound.Config{AllowedHosts: []string{"127.0.0.1"}, Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	transport := api.LTIGradeTransport(sender)
	logger := slog.New(slog.NewJSONHandler(r.logs, &slog.HandlerOptions{Level: slog.LevelInfo}))
	pass := func(want bool) {
		t.Helper()
		acted, err := service.LTIGradesPass(context.Background(), logger, transport)
		if err != nil || acted != want {
			t.Fatalf("grades pass: acted %v (%v), want %v", acted, err, want)
		}
	}

	state, nonce := r.login(r.a, false)
	claims := r.claims("teacher-1", "Instructor", nonce)
	claims["https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"] = map[string]any{
		"scope":     []string{play.LTIScopeLineItem, "https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly", play.LTIScopeScore},
		"lineitems": r.platform.server.URL + "/lineitems?tenant=1"}
	resp, body := r.launch(r.a, r.platform.sign(t, r.platform.key, claims), state)
	teacher := r.handover(r.a, resp, body)
	state, nonce = r.login(r.a, false)
	resp, body = r.launch(r.b, r.platform.sign(t, r.platform.key, r.claims("learner-1", "Learner", nonce)), state)
	learner := r.handover(r.b, resp, body)

	set := map[string]any{"title": "One Primed game", "game": "primed", "options": map[string]any{"rounds": 1, "bot_delay_ms": 0}, "games": 1,
		"opponents": map[string]any{"bot": "random"}, "due_at": r.clock.Now().Add(72 * time.Hour), "gradebook": true}
	made := r.b.Post("/v1/classrooms/"+teacher.Classroom.ID+"/assignments", set, bearer(teacher.Token)...)
	if made.StatusCode != http.StatusCreated {
		t.Fatalf("create assignment = %d: %s", made.StatusCode, made.Body)
	}
	var a struct{ ID string }
	made.JSON(t, &a)
	if status, _, _ := gradebookOf(t, r, teacher.Token, teacher.Classroom.ID, a.ID); status != play.GradebookPending {
		t.Errorf("gradebook before the worker: %q, want pending", status)
	}
	pass(true)
	pass(false) // nothing more: the learner has finished no game
	lineItems, _ := r.platform.grades.read()
	if len(lineItems) != 1 || lineItems[0]["label"] != "One Primed game" || lineItems[0]["scoreMaximum"] != float64(1) || lineItems[0]["resourceId"] != a.ID {
		t.Fatalf("line items: %v", lineItems)
	}
	if status, _, _ := gradebookOf(t, r, teacher.Token, teacher.Classroom.ID, a.ID); status != play.GradebookSynced {
		t.Errorf("gradebook after the line item: %q, want synced", status)
	}

	// The learner plays the game to its end: the step's transaction queues the score.
	started := r.a.Post("/v1/me/assignments/"+a.ID+"/games", map[string]any{}, bearer(learner.Token)...)
	if started.StatusCode != http.StatusCreated {
		t.Fatalf("start assigned = %d: %s", started.StatusCode, started.Body)
	}
	var g struct {
		Game struct{ ID string } `json:"game"`
	}
	started.JSON(t, &g)
	t.Cleanup(runBotsOf(service))
	playAgainstTheComputer(t, r.a, g.Game.ID, learner.Token)

	// The platform is down twice: failing, retried after 30 s, then 60 s, then taken.
	r.platform.grades.failScores.Store(2)
	pass(true)
	if status, code, httpStatus := gradebookOf(t, r, teacher.Token, teacher.Classroom.ID, a.ID); status != play.GradebookFailing || code != "lti_score_refused" || httpStatus != 503 {
		t.Errorf("gradebook after a refusal: %q %q %d", status, code, httpStatus)
	}
	pass(false) // not due before its backoff
	r.clock.Advance(play.LTIGradeRetryFirst)
	pass(true)
	r.clock.Advance(play.LTIGradeRetryFirst)
	pass(false)
	r.clock.Advance(play.LTIGradeRetryFirst)
	pass(true)
	_, scores := r.platform.grades.read()
	if len(scores) != 1 {
		t.Fatalf("scores: %v", scores)
	}
	s := scores[0]
	if s["userId"] != "learner-1" || s["scoreGiven"] != float64(1) || s["scoreMaximum"] != float64(1) || s["activityProgress"] != "Completed" ||
		s["gradingProgress"] != "FullyGraded" || s["line_item"] != "/lineitems/1/scores" || s["timestamp"] == nil {
		t.Errorf("score: %v", s)
	}
	if status, code, _ := gradebookOf(t, r, teacher.Token, teacher.Classroom.ID, a.ID); status != play.GradebookSynced || code != "" {
		t.Errorf("gradebook after the platform recovered: %q %q", status, code)
	}

	// Two games asked now: the column's scoreMaximum and the learner's score follow.
	if got := r.b.Do(r.b.Request(http.MethodPatch, "/v1/classrooms/"+teacher.Classroom.ID+"/assignments/"+a.ID, map[string]any{"games": 2}, bearer(teacher.Token)...)); got.StatusCode != http.StatusOK ||
		!strings.Contains(string(got.Body), `"gradebook":{"status":"pending"}`) {
		t.Fatalf("patch games = %d: %s", got.StatusCode, got.Body)
	}
	pass(true) // the line item; the score waits for no line item, so may go with it
	for acted := true; acted; {
		var err error
		if acted, err = service.LTIGradesPass(context.Background(), logger, transport); err != nil {
			t.Fatal(err)
		}
	}
	lineItems, scores = r.platform.grades.read()
	if len(lineItems) != 1 || lineItems[0]["scoreMaximum"] != float64(2) || len(scores) != 2 ||
		scores[1]["scoreGiven"] != float64(1) || scores[1]["scoreMaximum"] != float64(2) || scores[1]["activityProgress"] != "InProgress" {
		t.Errorf("after two games asked: line items %v, scores %v", lineItems, scores)
	}
	logs := r.logs.String()
	if strings.Count(logs, `"level":"WARN","msg":"the LMS did not take a grade"`) != 2 || strings.Contains(logs, `"learner-1"`) {
		t.Errorf("logs: want two warnings and no LMS id:\n%s", logs)
	}
	noErrorLine(t, r.logs)

	// A classroom no launch made has no gradebook; nothing is created.
	class := r.a.Post("/v1/classrooms", map[string]string{"name": "4C"}, bearer(ltiAdmin)...)
	var other struct {
		Classroom    struct{ ID string } `json:"classroom"`
		TeacherToken string              `json:"teacher_token"`
	}
	class.JSON(t, &other)
	refused := r.a.Post("/v1/classrooms/"+other.Classroom.ID+"/assignments", set, bearer(other.TeacherToken)...)
	if refused.StatusCode != http.StatusConflict || refused.Problem(t).Code != "lti_gradebook_unavailable" {
		t.Errorf("gradebook in a classroom no launch made = %d: %s", refused.StatusCode, refused.Body)
	}
	list := r.a.Get("/v1/classrooms/"+other.Classroom.ID+"/assignments", bearer(other.TeacherToken)...)
	if strings.Contains(string(list.Body), "One Primed game") {
		t.Errorf("a refused assignment was made: %s", list.Body)
	}
}
