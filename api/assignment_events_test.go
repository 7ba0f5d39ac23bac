package api_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"primegames"
	"primegames.dev/client"
	"primegames/api"
	"primegames/api/apitest"
	"primegames/contract"
	"primegames/domain/games"
	"primegames/outbound"
	"primegames/play"
	"primegames/play/playclock"
	"primegames/repo"
	"primegames/repo/repotest"
)

// assignmentInstance is an instance over db on clock with its webhook worker running, whose
// receiver's calls come on calls.
type assignmentInstance struct {
	s       *apitest.Server
	service *play.Service
	calls   chan hookCall
	url     string
}

func startAssignmentInstance(t *testing.T, db *repo.DB, clock play.Clock) assignmentInstance {
	t.Helper()
	calls := make(chan hookCall, 1000)
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		calls <- hookCall{r.Header.Clone(), body}
	}))
	t.Cleanup(receiver.Close)
	sender, err := outbound.New(outbound.Config{AllowedHosts: []string{"127.0.0.1"}, Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	cfg := play.DefaultWebhookConfig
	cfg.Poll = 100 * time.Millisecond
	cfg.SealingKey = []byte("test sealing key")
	service := play.New(db.Games().Stores(), games.All(), play.WithWebhooks(cfg, sender), play.WithClock(clock))
	srv, err := api.New(testConfig(), api.Deps{Play: service, Database: db, Feed: db}, quietLogger())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	ctx, stop := context.WithCancel(context.Background())
	worker := make(chan struct{})
	go func() { defer close(worker); service.RunWebhooks(ctx, quietLogger()) }()
	t.Cleanup(func() { stop(); <-worker })
	return assignmentInstance{s: apitest.Start(t, srv), service: service, calls: calls, url: receiver.URL}
}

// nextHook is the next webhook of type kind the receiver gets (others skipped), checked against the
// contract's WebhookPayload.
func nextHook(t *testing.T, calls chan hookCall, kind string) client.AssignmentEvent {
	t.Helper()
	spec, err := contract.Load(primegames.OpenAPI)
	if err != nil {
		t.Fatal(err)
	}
	schema := spec.Components.Schemas["WebhookPayload"].Value
	deadline := time.After(evWait)
	for {
		select {
		case call := <-calls:
			var generic any
			if err := json.Unmarshal(call.body, &generic); err != nil {
				t.Fatal(err)
			}
			if err := schema.VisitJSON(generic); err != nil {
				t.Fatalf("webhook %s against the contract: %v", call.body, err)
			}
			var p struct {
				Type string                 `json:"type"`
				Data client.AssignmentEvent `json:"data"`
			}
			if err := json.Unmarshal(call.body, &p); err != nil {
				t.Fatal(err)
			}
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

// assignment_done goes, in the transaction's wake of the game that made the student done, to the
// student's /v1/me/events (before that game's game_ended), to the classroom's stream (before the
// game's end) and to the classroom's webhook; a game that does not make the student done sends
// none.
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

	second := startAssigned(t, s, ada.token, a.Id.String(), http.StatusCreated)
	resign(t, s, second.Game.Id.String(), ada.token)
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
