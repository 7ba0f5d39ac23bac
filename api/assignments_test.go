package api_test

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"sync"
	"testing"
	"time"

	"primegames.dev/client"
	"primegames/api/apitest"
	"primegames/play/playclock"
	"primegames/repo"
	"primegames/repo/repotest"
)

// Assignments (issue 42): set by the teacher, played by the students through
// POST /v1/me/assignments/{id}/games, counted when their games end.

var assignT0 = time.Date(2026, 12, 7, 9, 0, 0, 0, time.UTC)

// newAssignment sets the classroom an assignment and returns it.
func newAssignment(t *testing.T, s *apitest.Server, c classroomFixture, body map[string]any) client.Assignment {
	t.Helper()
	resp := s.Post("/v1/classrooms/"+c.id+"/assignments", body, auth(c.teacher)...)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("create assignment = %d %s", resp.StatusCode, resp.Body)
	}
	var a client.Assignment
	resp.JSON(t, &a)
	return a
}

// startAssigned asks for the student's game of the assignment and wants status.
func startAssigned(t *testing.T, s *apitest.Server, token, assignmentID string, status int) client.AssignedGame {
	t.Helper()
	resp := s.Post("/v1/me/assignments/"+assignmentID+"/games", map[string]any{}, auth(token)...)
	if resp.StatusCode != status {
		t.Fatalf("start assigned game = %d %s, want %d", resp.StatusCode, resp.Body, status)
	}
	var g client.AssignedGame
	resp.JSON(t, &g)
	return g
}

// progressOf is the teacher's view of a student's progress with the assignment; ok false when the
// student is not listed.
func progressOf(t *testing.T, s *apitest.Server, c classroomFixture, assignmentID, studentID string) (client.AssignmentProgress, bool) {
	t.Helper()
	var a client.Assignment
	resp := s.Get("/v1/classrooms/"+c.id+"/assignments/"+assignmentID, auth(c.teacher)...)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("get assignment = %d %s", resp.StatusCode, resp.Body)
	}
	resp.JSON(t, &a)
	for _, p := range a.Progress {
		if p.StudentId.String() == studentID {
			return p, true
		}
	}
	return client.AssignmentProgress{}, false
}

func wantProgress(t *testing.T, got client.AssignmentProgress, done, late int, isDone bool) {
	t.Helper()
	if got.GamesDone != done || got.GamesLate != late || got.Done != isDone {
		t.Errorf("progress: games_done %d games_late %d done %v, want %d %d %v", got.GamesDone, got.GamesLate, got.Done, done, late, isDone)
	}
}

// resign ends a two-seat game: the other seat wins, the game is finished.
func resign(t *testing.T, s *apitest.Server, gameID, token string) {
	t.Helper()
	if resp := s.Post("/v1/games/"+gameID+"/resign", map[string]any{}, auth(token)...); resp.StatusCode != http.StatusOK {
		t.Fatalf("resign = %d %s", resp.StatusCode, resp.Body)
	}
}

// playAgainstTheComputer plays the student's seat of a game against computer players to its end,
// waiting on the game's events for the computer's moves.
func playAgainstTheComputer(t *testing.T, s *apitest.Server, gameID, token string) client.Game {
	t.Helper()
	player := greedyPlayer(t, "primed")
	rng := rand.New(rand.NewPCG(42, 7))
	for n := 0; ; n++ {
		if n >= 3000 {
			t.Fatalf("game not over after %d reads", n)
		}
		var g client.Game
		s.Get("/v1/games/"+gameID, auth(token)...).JSON(t, &g)
		if g.Status != client.GameStatusActive {
			return g
		}
		var l client.LegalActions
		s.Get("/v1/games/"+gameID+"/legal-actions", auth(token)...).JSON(t, &l)
		var legal []json.RawMessage
		if err := json.Unmarshal(l.Actions, &legal); err != nil {
			t.Fatal(err)
		}
		if len(legal) == 0 || l.Version != g.Version {
			version := g.Version
			waitFor(t, s, gameID, botGameTimeout, func(g client.Game) bool { return g.Version != version }, auth(token)...)
			continue
		}
		var pick primedLegal
		choose(t, player, legal, rng, &pick)
		resp := s.Post("/v1/games/"+gameID+"/actions", pick.Action, auth(token)...)
		if resp.StatusCode != http.StatusCreated {
			t.Fatalf("action %s = %d %s", pick.Action, resp.StatusCode, resp.Body)
		}
	}
}

// A one-round Primed game against the computer, set by the teacher, played to its end by the
// student and seen done by both sides; asking again then is refused.
func TestAssignmentPlayedToItsEndAgainstTheComputer(t *testing.T) {
	t.Parallel()
	db := repotest.NewDB(t)
	clock := playclock.New(assignT0)
	s := startWithBotsOn(t, db, clock)
	c := newClassroomOn(t, s, "7B", "Ada", "Ben")
	ada, ben := c.students["Ada"], c.students["Ben"]
	a := newAssignment(t, s, c, map[string]any{"title": "One Primed game", "game": "primed", "options": map[string]any{"rounds": 1, "bot_delay_ms": 0},
		"games": 1, "opponents": map[string]any{"bot": "greedy"}, "due_at": assignT0.Add(48 * time.Hour)})
	if len(a.Progress) != 2 || a.Opponents.Bot == nil || *a.Opponents.Bot != client.BotLevelGreedy {
		t.Fatalf("created %+v: want both students' progress and the greedy bot", a)
	}

	var mine client.MyAssignmentList
	s.Get("/v1/me/assignments", auth(ada.token)...).JSON(t, &mine)
	if len(mine.Items) != 1 || len(mine.Items[0].Progress) != 1 || mine.Items[0].Progress[0].StudentId.String() != ada.id || !mine.Items[0].DueAt.Equal(assignT0.Add(48*time.Hour)) {
		t.Fatalf("Ada's assignments %+v: want this one with her own progress and its due time", mine.Items)
	}

	g := startAssigned(t, s, ada.token, a.Id.String(), http.StatusCreated)
	if g.Game.Status != client.GameStatusActive || g.Seat != 0 || len(g.Game.Seats) != 2 || g.Game.Seats[1].Bot == nil {
		t.Fatalf("assigned game %+v: want it started with Ada in seat 0 and the computer in seat 1", g.Game)
	}
	if again := startAssigned(t, s, ada.token, a.Id.String(), http.StatusOK); again.Game.Id != g.Game.Id {
		t.Fatalf("asking again gave game %s, want the open one %s", again.Game.Id, g.Game.Id)
	}
	p, _ := progressOf(t, s, c, a.Id.String(), ada.id)
	if p.OpenGameId == nil || *p.OpenGameId != g.Game.Id {
		t.Errorf("Ada's open game %v, want %s", p.OpenGameId, g.Game.Id)
	}

	if end := playAgainstTheComputer(t, s, g.Game.Id.String(), ada.token); end.Status != client.GameStatusFinished {
		t.Fatalf("game ended %s, want finished", end.Status)
	}
	p, _ = progressOf(t, s, c, a.Id.String(), ada.id)
	wantProgress(t, p, 1, 0, true)
	if p.OpenGameId != nil {
		t.Errorf("Ada's open game %v after it finished, want none", p.OpenGameId)
	}
	p, _ = progressOf(t, s, c, a.Id.String(), ben.id)
	wantProgress(t, p, 0, 0, false)
	s.Get("/v1/me/assignments", auth(ada.token)...).JSON(t, &mine)
	wantProgress(t, mine.Items[0].Progress[0], 1, 0, true)

	resp := s.Post("/v1/me/assignments/"+a.Id.String()+"/games", map[string]any{}, auth(ada.token)...)
	if resp.StatusCode != http.StatusConflict || resp.Problem(t).Code != "assignment_complete" {
		t.Errorf("asking once done = %d %s, want 409 assignment_complete", resp.StatusCode, resp.Body)
	}

	// The teacher changes it (the rules of a change are play's tests'): the answer is the changed
	// assignment with its progress.
	resp = s.Do(s.Request(http.MethodPatch, "/v1/classrooms/"+c.id+"/assignments/"+a.Id.String(), map[string]any{"due_at": assignT0.Add(72 * time.Hour), "games": 2, "title": "Two games"}, auth(c.teacher)...))
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("patch = %d %s", resp.StatusCode, resp.Body)
	}
	var changed client.Assignment
	resp.JSON(t, &changed)
	if changed.Games != 2 || changed.Title != "Two games" || !changed.DueAt.Equal(assignT0.Add(72*time.Hour)) || len(changed.Progress) != 2 {
		t.Errorf("changed %+v", changed)
	}
}

// A student removed mid-assignment drops out of the teacher's list and leaves no row behind;
// deleting the assignment takes its progress, not its games.
func TestAssignmentStudentRemovedAndAssignmentDeleted(t *testing.T) {
	t.Parallel()
	db := repotest.NewDB(t)
	s := apitest.Start(t, newServer(t, db))
	c := newClassroomOn(t, s, "7B", "Ada", "Ben")
	ada, ben := c.students["Ada"], c.students["Ben"]
	a := newAssignment(t, s, c, map[string]any{"title": "Two games", "game": "primed", "options": map[string]any{"bot_delay_ms": 60000},
		"games": 2, "opponents": map[string]any{"bot": "expert"}, "due_at": time.Now().Add(time.Hour)})
	id := a.Id.String()
	for _, st := range []studentFixture{ada, ben} {
		g := startAssigned(t, s, st.token, id, http.StatusCreated)
		resign(t, s, g.Game.Id.String(), st.token)
	}
	benGame := startAssigned(t, s, ben.token, id, http.StatusCreated)

	if resp := s.Do(s.Request(http.MethodDelete, "/v1/classrooms/"+c.id+"/students/"+ben.id, nil, auth(c.teacher)...)); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("remove Ben = %d %s", resp.StatusCode, resp.Body)
	}
	if _, listed := progressOf(t, s, c, id, ben.id); listed {
		t.Error("Ben listed after his removal")
	}
	p, _ := progressOf(t, s, c, id, ada.id)
	wantProgress(t, p, 1, 0, false)
	if n := countRows(t, db, `SELECT count(*) FROM assignment_progress WHERE student_id = $1`, ben.id); n != 0 {
		t.Errorf("Ben's progress rows after his removal: %d, want none", n)
	}
	// His game, ended after his removal, counts for nobody.
	if resp := s.Post("/v1/games/"+benGame.Game.Id.String()+"/abort", map[string]any{}, auth(c.teacher)...); resp.StatusCode != http.StatusOK {
		t.Fatalf("abort = %d %s", resp.StatusCode, resp.Body)
	}
	if resp := s.Post("/v1/me/assignments/"+id+"/games", map[string]any{}, auth(ben.token)...); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("removed Ben asks = %d, want 401", resp.StatusCode)
	}
	if resp := s.Post("/v1/classrooms/"+c.id+"/students/"+ben.id+"/erase", map[string]any{}, auth(c.teacher)...); resp.StatusCode != http.StatusOK {
		t.Fatalf("erase Ben = %d %s", resp.StatusCode, resp.Body)
	}
	if n := countRows(t, db, `SELECT count(*) FROM assignment_progress WHERE student_id = $1`, ben.id); n != 0 {
		t.Errorf("erased Ben's progress rows: %d, want none", n)
	}

	if resp := s.Do(s.Request(http.MethodDelete, "/v1/classrooms/"+c.id+"/assignments/"+id, nil, auth(c.teacher)...)); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("delete = %d %s", resp.StatusCode, resp.Body)
	}
	if resp := s.Get("/v1/classrooms/"+c.id+"/assignments/"+id, auth(c.teacher)...); resp.StatusCode != http.StatusNotFound || resp.Problem(t).Code != "assignment_not_found" {
		t.Errorf("get deleted = %d %s, want 404 assignment_not_found", resp.StatusCode, resp.Body)
	}
	if n := countRows(t, db, `SELECT count(*) FROM assignment_progress WHERE assignment_id = $1`, id); n != 0 {
		t.Errorf("progress rows of the deleted assignment: %d", n)
	}
	if resp := s.Get("/v1/games/"+benGame.Game.Id.String(), auth(c.teacher)...); resp.StatusCode != http.StatusOK {
		t.Errorf("the deleted assignment's game = %d, want it kept", resp.StatusCode)
	}
}

func countRows(t *testing.T, db *repo.DB, sql string, args ...any) int {
	t.Helper()
	var n int
	if err := db.Pool.QueryRow(context.Background(), sql, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// Racing starts on two instances: eight requests of one student at once give one game (one 201,
// the others 200 with the same game); games ended through either instance count once each.
func TestAssignmentRacingStartsOnTwoInstances(t *testing.T) {
	t.Parallel()
	db := repotest.NewDB(t)
	instances := []*apitest.Server{apitest.Start(t, newServer(t, db)), apitest.Start(t, newServer(t, db))}
	c := newClassroomOn(t, instances[0], "7B", "Ada")
	ada := c.students["Ada"]
	a := newAssignment(t, instances[0], c, map[string]any{"title": "Four games", "game": "primed", "options": map[string]any{"bot_delay_ms": 60000},
		"games": 4, "opponents": map[string]any{"bot": "greedy"}, "due_at": time.Now().Add(time.Hour)})
	id := a.Id.String()
	for round := range 4 {
		var wg sync.WaitGroup
		statuses := make([]int, 8)
		games := make([]string, 8)
		for i := range statuses {
			wg.Add(1)
			go func() {
				defer wg.Done()
				s := instances[i%2]
				resp := s.Do(s.Request(http.MethodPost, "/v1/me/assignments/"+id+"/games", map[string]any{}, auth(ada.token)...))
				statuses[i] = resp.StatusCode
				var g client.AssignedGame
				if json.Unmarshal(resp.Body, &g) == nil {
					games[i] = g.Game.Id.String()
				}
			}()
		}
		wg.Wait()
		created := 0
		for i, st := range statuses {
			switch {
			case st == http.StatusCreated:
				created++
			case st != http.StatusOK:
				t.Fatalf("round %d: request %d = %d", round, i, st)
			}
			if games[i] != games[0] {
				t.Fatalf("round %d: games %v, want one", round, games)
			}
		}
		if created != 1 {
			t.Fatalf("round %d: %d created, want 1 (statuses %v)", round, created, statuses)
		}
		resign(t, instances[(round+1)%2], games[0], ada.token)
		p, _ := progressOf(t, instances[round%2], c, id, ada.id)
		wantProgress(t, p, round+1, 0, round == 3)
	}
	if n := countRows(t, db, `SELECT count(*) FROM assignment_games WHERE assignment_id = $1`, id); n != 4 {
		t.Errorf("%d games linked, want 4", n)
	}
}

// With classmates, the first student's request opens a lobby and the second's fills and starts it;
// the finished game counts for both.
func TestAssignmentWithClassmates(t *testing.T) {
	t.Parallel()
	db := repotest.NewDB(t)
	s := apitest.Start(t, newServer(t, db))
	c := newClassroomOn(t, s, "7B", "Ada", "Ben", "Cy")
	ada, ben, cy := c.students["Ada"], c.students["Ben"], c.students["Cy"]
	a := newAssignment(t, s, c, map[string]any{"title": "Play a classmate", "game": "primed", "options": map[string]any{"rounds": 1},
		"games": 1, "opponents": map[string]any{"classmates": map[string]any{"group_size": 2}}, "due_at": time.Now().Add(time.Hour)})
	id := a.Id.String()
	first := startAssigned(t, s, ada.token, id, http.StatusCreated)
	if first.Game.Status != client.GameStatusLobby || first.Seat != 0 {
		t.Fatalf("Ada's game %s seat %d, want a lobby with her in seat 0", first.Game.Status, first.Seat)
	}
	second := startAssigned(t, s, ben.token, id, http.StatusCreated)
	if second.Game.Id != first.Game.Id || second.Game.Status != client.GameStatusActive || second.Seat != 1 {
		t.Fatalf("Ben's game %s (%s) seat %d, want Ada's game %s started, him in seat 1", second.Game.Id, second.Game.Status, second.Seat, first.Game.Id)
	}
	third := startAssigned(t, s, cy.token, id, http.StatusCreated)
	if third.Game.Id == first.Game.Id || third.Game.Status != client.GameStatusLobby {
		t.Fatalf("Cy's game %s (%s), want a new lobby", third.Game.Id, third.Game.Status)
	}
	resign(t, s, first.Game.Id.String(), ada.token)
	for _, st := range []studentFixture{ada, ben} {
		p, _ := progressOf(t, s, c, id, st.id)
		wantProgress(t, p, 1, 0, true)
	}
	p, _ := progressOf(t, s, c, id, cy.id)
	wantProgress(t, p, 0, 0, false)
}

// Bad assignments are refused with 400 and a code; another classroom's teacher gets 404; a
// teacher's token cannot ask for a student's game.
func TestAssignmentRefusals(t *testing.T) {
	t.Parallel()
	s := apitest.Start(t, newServer(t, repotest.NewDB(t)))
	c := newClassroomOn(t, s, "7B", "Ada")
	other := newClassroomOn(t, s, "7C")
	due := time.Now().Add(time.Hour)
	for name, tc := range map[string]struct {
		body map[string]any
		code string
	}{
		"too many games":   {map[string]any{"title": "x", "game": "primed", "games": 21, "opponents": map[string]any{"bot": "greedy"}, "due_at": due}, "invalid"},
		"both opponents":   {map[string]any{"title": "x", "game": "primed", "games": 1, "opponents": map[string]any{"bot": "greedy", "classmates": map[string]any{"group_size": 2}}, "due_at": due}, "invalid"},
		"blank title":      {map[string]any{"title": "  ", "game": "primed", "games": 1, "opponents": map[string]any{"bot": "greedy"}, "due_at": due}, "invalid"},
		"groups too large": {map[string]any{"title": "x", "game": "prime-climb", "games": 1, "opponents": map[string]any{"classmates": map[string]any{"group_size": 5}}, "due_at": due}, "invalid_seat_count"},
	} {
		resp := s.Post("/v1/classrooms/"+c.id+"/assignments", tc.body, auth(c.teacher)...)
		if resp.StatusCode != http.StatusBadRequest || resp.Problem(t).Code != tc.code {
			t.Errorf("%s: %d %s, want 400 %s", name, resp.StatusCode, resp.Body, tc.code)
		}
	}
	a := newAssignment(t, s, c, map[string]any{"title": "x", "game": "primed", "games": 1, "opponents": map[string]any{"bot": "greedy"}, "due_at": due})
	if resp := s.Get("/v1/classrooms/"+c.id+"/assignments/"+a.Id.String(), auth(other.teacher)...); resp.StatusCode != http.StatusNotFound {
		t.Errorf("another teacher reads = %d, want 404", resp.StatusCode)
	}
	if resp := s.Get("/v1/classrooms/"+other.id+"/assignments/"+a.Id.String(), auth(other.teacher)...); resp.StatusCode != http.StatusNotFound || resp.Problem(t).Code != "assignment_not_found" {
		t.Errorf("read through another classroom = %d %s, want 404 assignment_not_found", resp.StatusCode, resp.Body)
	}
	if resp := s.Post("/v1/me/assignments/"+a.Id.String()+"/games", map[string]any{}, auth(c.teacher)...); resp.StatusCode != http.StatusForbidden {
		t.Errorf("teacher asks for a student's game = %d, want 403", resp.StatusCode)
	}
}

// A classroom holds at most 200 assignments: the 201st is refused until one is deleted.
func TestAssignmentsBoundedPerClassroom(t *testing.T) {
	t.Parallel()
	db := repotest.NewDB(t)
	s := apitest.Start(t, newServer(t, db))
	c := newClassroomOn(t, s, "7B")
	body := map[string]any{"title": "x", "game": "primed", "games": 1, "opponents": map[string]any{"bot": "greedy"}, "due_at": time.Now().Add(time.Hour)}
	first := newAssignment(t, s, c, body)
	if _, err := db.Pool.Exec(context.Background(), `INSERT INTO assignments (classroom_id, title, kind, options, games, bot, due_at, created_at)
		SELECT $1, 'filler', 'primed', '{}', 1, 'greedy', now() + interval '1 hour', now() FROM generate_series(1, 199)`, c.id); err != nil {
		t.Fatal(err)
	}
	resp := s.Post("/v1/classrooms/"+c.id+"/assignments", body, auth(c.teacher)...)
	if resp.StatusCode != http.StatusConflict || resp.Problem(t).Code != "too_many_assignments" {
		t.Fatalf("the 201st = %d %s, want 409 too_many_assignments", resp.StatusCode, resp.Body)
	}
	if resp := s.Do(s.Request(http.MethodDelete, "/v1/classrooms/"+c.id+"/assignments/"+first.Id.String(), nil, auth(c.teacher)...)); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("delete = %d", resp.StatusCode)
	}
	newAssignment(t, s, c, body)
}
