package play_test

import (
	"encoding/json"
	"testing"
	"time"

	"primegames/domain"
	"primegames/play"
)

// The rules of assignments, over the real store: when a game counts as late, what an aborted game
// counts, and when assignment_due_soon goes out. (The API's tests keep one HTTP test per endpoint.)

// newAssignmentClass is a classroom of the named students on a clock the test moves, and an
// assignment of games one-round Primed games against the random computer player, due at due.
func newAssignmentClass(t *testing.T, games int, due time.Time, names ...string) (*progressClass, *play.Assignment) {
	t.Helper()
	c := newProgressClass(t, names...)
	a, err := c.master.CreateAssignment(c.ctx, c.class.ID, play.NewAssignment{Title: "Games", Kind: "primed",
		Options: json.RawMessage(`{"rounds":1,"bot_delay_ms":60000}`), Games: games, Bot: domain.LevelRandom, DueAt: due})
	if err != nil {
		t.Fatal(err)
	}
	return c, a
}

// assigned is the student's game of the assignment, wanted new.
func (c *progressClass) assigned(student play.Principal, assignmentID string) *play.Game {
	c.t.Helper()
	g, err := c.master.StartAssigned(c.ctx, student, assignmentID)
	if err != nil || !g.New {
		c.t.Fatalf("start assigned game: %+v %v, want a new game", g, err)
	}
	return g.Game
}

// resign ends the student's two-seat game: the computer wins, the game is finished.
func (c *progressClass) resign(student play.Principal, gameID string) {
	c.t.Helper()
	if _, _, err := c.master.Resign(c.ctx, gameID, student, nil); err != nil {
		c.t.Fatal(err)
	}
}

// progress is the teacher's view of the student's progress with the assignment.
func (c *progressClass) progress(assignmentID, studentID string) play.AssignmentProgress {
	c.t.Helper()
	a, err := c.master.Assignment(c.ctx, c.class.ID, assignmentID)
	if err != nil {
		c.t.Fatal(err)
	}
	for _, p := range a.Progress {
		if p.StudentID == studentID {
			return p
		}
	}
	c.t.Fatalf("student %s not listed in %+v", studentID, a.Progress)
	return play.AssignmentProgress{}
}

func wantAssignmentProgress(t *testing.T, got play.AssignmentProgress, done, late int, isDone bool) {
	t.Helper()
	if got.GamesDone != done || got.GamesLate != late || got.Done != isDone {
		t.Errorf("progress: games done %d late %d done %v, want %d %d %v", got.GamesDone, got.GamesLate, got.Done, done, late, isDone)
	}
}

// The due edge, late games and aborted games: a game finished at due_at exactly is on time, one a
// microsecond later is late; an aborted game counts nothing and frees the student to ask again; a
// later due time changes no game already counted, and fewer games asked keeps done.
func TestAssignmentDueEdgeLateAndAborted(t *testing.T) {
	t.Parallel()
	due := time.Date(2026, 3, 2, 22, 0, 0, 0, time.UTC)
	c, a := newAssignmentClass(t, 3, due, "Ada")
	adaID := c.ids[0]
	ada := c.students[adaID]

	c.clock.Set(due)
	c.resign(ada, c.assigned(ada, a.ID).ID) // finished at due_at exactly: on time
	wantAssignmentProgress(t, c.progress(a.ID, adaID), 1, 0, false)

	g := c.assigned(ada, a.ID)
	if _, _, err := c.master.Abort(c.ctx, g.ID, c.teacher, nil); err != nil {
		t.Fatalf("the teacher aborts: %v", err)
	}
	p := c.progress(a.ID, adaID)
	wantAssignmentProgress(t, p, 1, 0, false) // the aborted game does not count
	if p.OpenGameID != "" {
		t.Errorf("open game %s after the abort, want none", p.OpenGameID)
	}

	c.clock.Set(due.Add(time.Microsecond))
	c.resign(ada, c.assigned(ada, a.ID).ID) // asking after the due time is allowed; the game is late
	wantAssignmentProgress(t, c.progress(a.ID, adaID), 2, 1, false)
	c.resign(ada, c.assigned(ada, a.ID).ID)
	wantAssignmentProgress(t, c.progress(a.ID, adaID), 3, 2, true)

	later, two := due.Add(time.Hour), 2
	changed, err := c.master.ChangeAssignment(c.ctx, c.class.ID, a.ID, play.AssignmentChange{DueAt: &later, Games: &two})
	if err != nil {
		t.Fatal(err)
	}
	if changed.Games != 2 || !changed.DueAt.Equal(later) {
		t.Errorf("changed %+v", changed)
	}
	wantAssignmentProgress(t, c.progress(a.ID, adaID), 3, 2, true)
}

// assignment_due_soon goes out once, when the service's clock reaches due_at - DueSoonLead: not a
// microsecond before; again only for a new due time, and not once past due.
func TestAssignmentDueSoonEdge(t *testing.T) {
	t.Parallel()
	due := time.Date(2026, 3, 4, 22, 0, 0, 0, time.UTC)
	c, a := newAssignmentClass(t, 1, due, "Ada")
	remind := func(at time.Time, want bool) {
		t.Helper()
		c.clock.Set(at)
		acted, err := c.master.RemindDueSoon(c.ctx)
		if err != nil || acted != want {
			t.Fatalf("at due - %s: reminded %v (%v), want %v", due.Sub(at), acted, err, want)
		}
	}
	remind(due.Add(-play.DueSoonLead-time.Microsecond), false)
	remind(due.Add(-play.DueSoonLead), true)
	remind(due.Add(-play.DueSoonLead), false) // once
	later := due.Add(24 * time.Hour)
	if _, err := c.master.ChangeAssignment(c.ctx, c.class.ID, a.ID, play.AssignmentChange{DueAt: &later}); err != nil {
		t.Fatal(err)
	}
	remind(later.Add(-play.DueSoonLead-time.Microsecond), false)
	remind(later.Add(-play.DueSoonLead), true)
	remind(later.Add(time.Hour), false) // past due: nothing more
}
