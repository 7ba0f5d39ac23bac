package api_test

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"primegames.dev/client"
	"primegames/api/apitest"
	"primegames/play"
	"primegames/play/playclock"
	"primegames/repo"
	"primegames/repo/repotest"
)

// startAssignmentInstance is a hookInstance over db on clock with the worker of computer players
// and of assignments due soon running too.
func startAssignmentInstance(t *testing.T, db *repo.DB, clock play.Clock) hookInstance {
	t.Helper()
	in := startHookInstance(t, db, clock)
	t.Cleanup(runBotsOf(in.service))
	return in
}

// nextHook is the next webhook of type kind the receiver gets (others skipped), checked against the
// contract's WebhookPayload.
func nextHook(t *testing.T, calls chan hookCall, kind string) client.AssignmentEvent {
	t.Helper()
	deadline := time.After(evWait)
	for {
		select {
		case call := <-calls:
			var p struct {
				Type string                 `json:"type"`
				Data client.AssignmentEvent `json:"data"`
			}
			decodeHook(t, call.body, &p)
			if p.Type == kind {
				return p.Data
			}
		case <-deadline:
			t.Fatalf("no %s webhook within %s", kind, evWait)
		}
	}
}

// assignmentMessage decodes a stream's assignment message of kind.
func assignmentMessage(t *testing.T, e evEvent, kind string) client.AssignmentEvent {
	t.Helper()
	if e.Event != kind || e.ID != "" {
		t.Fatalf("event %q id %q (%s), want %s without an id", e.Event, e.ID, e.Data, kind)
	}
	var a client.AssignmentEvent
	if err := json.Unmarshal([]byte(e.Data), &a); err != nil {
		t.Fatal(err)
	}
	return a
}

// nextNamed is the next event of the stream that is one of names, the others skipped.
func nextNamed(t *testing.T, s *evStream, names ...string) evEvent {
	t.Helper()
	for {
		e := s.next(t, evWait)
		for _, n := range names {
			if e.Event == n {
				return e
			}
		}
	}
}

// assignment_done goes, in the wake of the transaction that ended the game that made the student
// done (on another instance), to the student's /v1/me/events (before that game's game_ended), to
// the classroom's stream (before the game's end) and to the classroom's webhook; a game that does
// not make the student done sends none.
func TestAssignmentDoneEvents(t *testing.T) {
	t.Parallel()
	db := repotest.NewDB(t)
	clock := playclock.New(assignT0)
	in := startAssignmentInstance(t, db, clock)
	s := in.s
	c := newClassroomOn(t, s, "7B", "Ada", "Ben")
	ada := c.students["Ada"]
	resp := s.Post("/v1/webhooks", map[string]any{"scope": "classroom", "classroom_id": c.id, "url": in.url + "/push",
		"events": []string{"assignment_done", "assignment_due_soon"}}, auth(c.teacher)...)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("subscribe = %d %s", resp.StatusCode, resp.Body)
	}
	a := newAssignment(t, s, c, map[string]any{"title": "Two games", "game": "primed", "options": map[string]any{"bot_delay_ms": 60000},
		"games": 2, "opponents": map[string]any{"bot": "greedy"}, "due_at": assignT0.Add(48 * time.Hour)})
	mine := openEvStream(t, s.URL, "/v1/me/events", auth(ada.token)...)
	class := openEvStream(t, s.URL, "/v1/classrooms/"+c.id+"/events", auth(c.teacher)...)

	first := startAssigned(t, s, ada.token, a.Id.String(), http.StatusCreated)
	resign(t, s, first.Game.Id.String(), ada.token)
	if e := nextNamed(t, mine, "game_ended", "assignment_done"); e.Event != "game_ended" {
		t.Fatalf("after the first game: %s %s, want game_ended and no assignment_done", e.Event, e.Data)
	}
	if e := nextNamed(t, class, "end", "assignment_done"); e.Event != "end" {
		t.Fatalf("classroom after the first game: %s %s, want end", e.Event, e.Data)
	}

	// The game that makes Ada done ends through another instance: the streams hear of it all the same.
	other, err := newAPIOn(testConfig(), db, clock, quietLogger())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(other.Close)
	second := startAssigned(t, s, ada.token, a.Id.String(), http.StatusCreated)
	resign(t, apitest.Start(t, other), second.Game.Id.String(), ada.token)
	for name, got := range map[string]client.AssignmentEvent{
		"me":        assignmentMessage(t, nextNamed(t, mine, "game_ended", "assignment_done"), "assignment_done"),
		"classroom": assignmentMessage(t, nextNamed(t, class, "end", "assignment_done"), "assignment_done"),
		"webhook":   nextHook(t, in.calls, "assignment_done"),
	} {
		if got.AssignmentId != a.Id || got.StudentId.String() != ada.id || got.Name != "Ada" || got.GamesDone != 2 || !got.Done ||
			got.GameId == nil || *got.GameId != second.Game.Id || !got.DueAt.Equal(a.DueAt) {
			t.Errorf("%s: assignment_done %+v, want Ada's, done by game %s", name, got, second.Game.Id)
		}
	}
	if e := nextNamed(t, mine, "game_ended", "assignment_done"); e.Event != "game_ended" {
		t.Errorf("after assignment_done: %s, want the game's game_ended", e.Event)
	}
	if e := nextNamed(t, class, "end", "assignment_done"); e.Event != "end" {
		t.Errorf("classroom after assignment_done: %s, want the game's end", e.Event)
	}
}

// assignment_due_soon, sent by the worker when the injected clock reaches due_at - 24h, reaches the
// students not done (their /v1/me/events), the classroom's stream and webhook, and not a student
// who is done.
func TestAssignmentDueSoonEvents(t *testing.T) {
	t.Parallel()
	db := repotest.NewDB(t)
	clock := playclock.New(assignT0)
	in := startAssignmentInstance(t, db, clock)
	s := in.s
	c := newClassroomOn(t, s, "7B", "Ada", "Ben")
	ada, ben := c.students["Ada"], c.students["Ben"]
	if resp := s.Post("/v1/webhooks", map[string]any{"scope": "classroom", "classroom_id": c.id, "url": in.url + "/push",
		"events": []string{"assignment_due_soon"}}, auth(c.teacher)...); resp.StatusCode != http.StatusCreated {
		t.Fatalf("subscribe = %d %s", resp.StatusCode, resp.Body)
	}
	due := assignT0.Add(72 * time.Hour)
	a := newAssignment(t, s, c, map[string]any{"title": "One game", "game": "primed", "options": map[string]any{"bot_delay_ms": 60000},
		"games": 1, "opponents": map[string]any{"bot": "greedy"}, "due_at": due})
	adaStream := openEvStream(t, s.URL, "/v1/me/events", auth(ada.token)...)
	benStream := openEvStream(t, s.URL, "/v1/me/events", auth(ben.token)...)
	class := openEvStream(t, s.URL, "/v1/classrooms/"+c.id+"/events", auth(c.teacher)...)

	// Ada is done; Ben has a game of it under way. Each stream shows it is open by an event of it.
	g := startAssigned(t, s, ada.token, a.Id.String(), http.StatusCreated)
	resign(t, s, g.Game.Id.String(), ada.token)
	nextNamed(t, adaStream, "game_ended")
	startAssigned(t, s, ben.token, a.Id.String(), http.StatusCreated)
	nextNamed(t, benStream, "game_started")
	nextNamed(t, class, "end")

	clock.Set(due.Add(-play.DueSoonLead))
	for name, got := range map[string]client.AssignmentEvent{
		"Ben's stream": assignmentMessage(t, nextNamed(t, benStream, "assignment_due_soon"), "assignment_due_soon"),
		"classroom":    assignmentMessage(t, nextNamed(t, class, "assignment_due_soon"), "assignment_due_soon"),
		"webhook":      nextHook(t, in.calls, "assignment_due_soon"),
	} {
		if got.AssignmentId != a.Id || got.StudentId.String() != ben.id || got.Done || got.GamesDone != 0 || !got.DueAt.Equal(due) {
			t.Errorf("%s: %+v, want Ben's, not done", name, got)
		}
	}
	// Nothing for Ada: the next event of her stream is the start of a game she may play once the
	// teacher asks for one more.
	resp := s.Do(s.Request(http.MethodPatch, "/v1/classrooms/"+c.id+"/assignments/"+a.Id.String(), map[string]any{"games": 2}, auth(c.teacher)...))
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("patch = %d %s", resp.StatusCode, resp.Body)
	}
	startAssigned(t, s, ada.token, a.Id.String(), http.StatusCreated)
	if e := nextNamed(t, adaStream, "game_started", "assignment_due_soon"); e.Event != "game_started" {
		t.Errorf("Ada got %s %s, want no assignment_due_soon", e.Event, e.Data)
	}
	if e := nextNamed(t, class, "assignment_due_soon", "action"); e.Event != "action" {
		t.Errorf("classroom: %s %s after Ben's, want no more assignment_due_soon", e.Event, e.Data)
	}
}
