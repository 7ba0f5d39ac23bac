package api_test

import (
	"net/http"
	"testing"

	"primegames.dev/client"
	"primegames/repo/repotest"
)

// Students resign and rematch with their student tokens: in a game of three the resigned student
// may read the game but no longer act in it; in a game of two the resignation counts as lost in the
// classroom's statistics (G-3), and the rematch belongs to the same classroom.
func TestStudentsResignAndRematchInAClassroom(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	class := h.newClassroom(t, "Class 3B", "Ada", "Ben", "Cy")
	seatsOf := func(names ...string) []map[string]string {
		var players []map[string]string
		for _, n := range names {
			players = append(players, map[string]string{"student_id": class.students[n].id})
		}
		return players
	}
	create := func(names ...string) string {
		resp := h.Post("/v1/games", map[string]any{"game": "primed", "players": seatsOf(names...)}, bearer(class.teacher)...)
		if resp.StatusCode != http.StatusCreated {
			t.Fatalf("create = %d: %s", resp.StatusCode, resp.Body)
		}
		var c client.CreatedGame
		resp.JSON(t, &c)
		return c.Game.Id.String()
	}

	three := create("Ada", "Ben", "Cy")
	postResign(t, h.Server, three, class.students["Cy"].token)
	if g := h.game(t, three, class.students["Cy"].token); g.You.Seat == nil || *g.You.Seat != 2 || g.Seats[2].Bot == nil {
		t.Errorf("Cy after resigning: you %+v, seat %+v; want seat 2, played by the computer", g.You, g.Seats[2])
	}
	resp := h.act(t, three, class.students["Cy"].token, map[string]string{"type": "draw"})
	if p := resp.Problem(t); resp.StatusCode != http.StatusForbidden || p.Code != "forbidden" {
		t.Errorf("Cy acts after resigning = %d %s, want 403 forbidden", resp.StatusCode, p.Code)
	}

	two := create("Ada", "Ben")
	if g := postResign(t, h.Server, two, class.students["Ben"].token); len(g.Winners) != 1 || g.Winners[0] != 0 {
		t.Fatalf("Ben resigned: winners %v, want Ada's seat 0", g.Winners)
	}
	var stats client.ClassroomStats
	h.Get("/v1/classrooms/"+class.id+"/stats", bearer(class.teacher)...).JSON(t, &stats)
	for _, st := range stats.Students {
		want := map[string]int{"Ada": 1, "Ben": 0, "Cy": 0}[st.Name]
		if st.GamesWon != want {
			t.Errorf("%s: games_won %d, want %d", st.Name, st.GamesWon, want)
		}
		if st.Name == "Ben" && st.GamesFinished != 1 {
			t.Errorf("Ben: games_finished %d, want 1 (the game he resigned)", st.GamesFinished)
		}
	}

	resp = h.Post("/v1/games/"+two+"/rematch", nil, bearer(class.students["Ben"].token)...)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("Ben's rematch = %d: %s", resp.StatusCode, resp.Body)
	}
	var rematch client.Game
	resp.JSON(t, &rematch)
	if rematch.You.Seat == nil || *rematch.You.Seat != 0 || rematch.Seats[1].StudentId == nil || rematch.Seats[1].StudentId.String() != class.students["Ada"].id {
		t.Errorf("rematch: you %+v, seats %+v; want Ben in seat 0 and Ada in seat 1", rematch.You, rematch.Seats)
	}
	if g := h.game(t, rematch.Id.String(), class.teacher); !g.You.Teacher {
		t.Errorf("the teacher does not see the rematch as the classroom's teacher: %+v", g.You)
	}
}

// G-3: what a computer plays in a seat after its student resigned is not the student's. Three
// students resign a game before anyone moves; the computers play it to the end, and the class's
// statistics credit none of the students with a play, a draw or a round.
func TestResignedStudentsAreNotCreditedWithTheComputersPlay(t *testing.T) {
	t.Parallel()
	db := repotest.NewDB(t)
	s := startWithBots(t, db)
	class := newClassroomOn(t, s, "Class 3C", "Ada", "Ben", "Cy")
	var players []map[string]string
	for _, name := range []string{"Ada", "Ben", "Cy"} {
		players = append(players, map[string]string{"student_id": class.students[name].id})
	}
	resp := s.Post("/v1/games", map[string]any{"game": "primed", "options": map[string]any{"bot_delay_ms": 0, "rounds": 1},
		"players": players}, bearer(class.teacher)...)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("create = %d: %s", resp.StatusCode, resp.Body)
	}
	var c client.CreatedGame
	resp.JSON(t, &c)
	id := c.Game.Id.String()
	for _, name := range []string{"Ada", "Ben", "Cy"} {
		postResign(t, s, id, class.students[name].token)
	}
	if g := waitFor(t, s, id, botGameTimeout, finished, bearer(class.teacher)...); g.Version < 8 {
		t.Fatalf("the game ended at version %d: the computers hardly played, the test shows nothing", g.Version)
	}

	var stats client.ClassroomStats
	s.Get("/v1/classrooms/"+class.id+"/stats", bearer(class.teacher)...).JSON(t, &stats)
	for _, st := range stats.Students {
		for name, n := range st.Games["primed"].Counts {
			if n != 0 {
				t.Errorf("%s is credited with %s = %d, the computer's doing", st.Name, name, n)
			}
		}
		if st.GamesFinished != 1 {
			t.Errorf("%s: games_finished %d, want 1", st.Name, st.GamesFinished)
		}
	}
}
