package api_test

import (
	"net/http"
	"slices"
	"testing"

	"primegames.dev/client"
	"primegames/api/apitest"
)

func (h *gamesHarness) me(t *testing.T, token string) client.Me {
	t.Helper()
	return meOn(t, h.Server, token)
}

func meOn(t *testing.T, s *apitest.Server, token string) client.Me {
	t.Helper()
	resp := s.Get("/v1/me", bearer(token)...)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /v1/me = %d: %s", resp.StatusCode, resp.Body)
	}
	var me client.Me
	resp.JSON(t, &me)
	return me
}

func mayDo(me client.Me, what client.MeMay) bool { return slices.Contains(me.May, what) }

// GET /v1/me names each kind of token with whose it is and what it may do.
func TestMeNamesEachKindOfToken(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	game := newPrimedGame(t, h)
	gameID := game.Game.Id

	seat := h.me(t, game.Seats[1].Token)
	if seat.Kind != client.MeKindSeat || seat.Games == nil || len(*seat.Games) != 1 ||
		(*seat.Games)[0].GameId != gameID || (*seat.Games)[0].Seat == nil || *(*seat.Games)[0].Seat != 1 {
		t.Errorf("seat 1's token: %+v, want kind seat with game %s seat 1", seat, gameID)
	}
	if !mayDo(seat, client.MeMayAct) || mayDo(seat, client.MeMayAbort) || seat.ExpiresAt != nil {
		t.Errorf("seat token may %v (expires %v), want act and not abort, no expiry", seat.May, seat.ExpiresAt)
	}

	creator := h.me(t, game.CreatorToken)
	if creator.Kind != client.MeKindCreator || creator.Games == nil || len(*creator.Games) != 1 ||
		(*creator.Games)[0].GameId != gameID || (*creator.Games)[0].Seat != nil {
		t.Errorf("creator token: %+v, want kind creator of game %s without a seat", creator, gameID)
	}
	if !mayDo(creator, client.MeMayAbort) || mayDo(creator, client.MeMayAct) {
		t.Errorf("creator token may %v, want abort and not act", creator.May)
	}

	class := h.newClassroom(t, "4A", "Ada")
	teacher := h.me(t, class.teacher)
	if teacher.Kind != client.MeKindTeacher || teacher.ClassroomId == nil || teacher.ClassroomId.String() != class.id ||
		teacher.StudentId != nil || teacher.Games != nil || !mayDo(teacher, client.MeMayRunClassroom) || !mayDo(teacher, client.MeMaySeeEverything) {
		t.Errorf("teacher token: %+v, want kind teacher of classroom %s who runs it", teacher, class.id)
	}
	ada := class.students["Ada"]
	student := h.me(t, ada.token)
	if student.Kind != client.MeKindStudent || student.ClassroomId == nil || student.ClassroomId.String() != class.id ||
		student.StudentId == nil || student.StudentId.String() != ada.id || !mayDo(student, client.MeMayAct) || mayDo(student, client.MeMayRunClassroom) {
		t.Errorf("student token: %+v, want kind student %s of classroom %s", student, ada.id, class.id)
	}

	// A token that opens nothing gets 401, whatever it looks like.
	if resp := h.Do(h.Request("DELETE", "/v1/classrooms/"+class.id+"/students/"+ada.id, nil, bearer(class.teacher)...)); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("remove Ada = %d: %s", resp.StatusCode, resp.Body)
	}
	for name, headers := range map[string][]string{
		"no token":                nil,
		"a made-up seat token":    bearer("pgs_madeup"),
		"a made-up teacher token": bearer("pgt_madeup"),
		"a removed student's":     bearer(ada.token),
	} {
		if resp := h.Get("/v1/me", headers...); resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("GET /v1/me with %s = %d, want 401: %s", name, resp.StatusCode, resp.Body)
		}
	}
}

// The operator's admin token is named as such; it creates classrooms and plays nothing.
func TestMeNamesTheAdminToken(t *testing.T) {
	t.Parallel()
	admin := meOn(t, adminServer(t, "operator-secret"), "operator-secret")
	if admin.Kind != client.MeKindAdmin || !slices.Equal(admin.May, []client.MeMay{client.MeMayCreateClassrooms}) {
		t.Errorf("admin token: %+v, want kind admin that may create classrooms", admin)
	}
}

// A seat token that left its lobby opens nothing any more.
func TestMeRefusesASeatThatLeft(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	lobby := h.create(t, map[string]any{"game": "primed", "public": true, "seats": 3})
	resp := h.Post("/v1/games/"+lobby.Game.Id.String()+"/players", map[string]string{"name": "Ada"})
	var joined client.JoinedGame
	resp.JSON(t, &joined)
	if me := h.me(t, joined.Seat.Token); me.Kind != client.MeKindSeat {
		t.Fatalf("a joined seat: %+v", me)
	}
	if resp := h.Post("/v1/games/"+lobby.Game.Id.String()+"/leave", nil, bearer(joined.Seat.Token)...); resp.StatusCode/100 != 2 {
		t.Fatalf("leave = %d: %s", resp.StatusCode, resp.Body)
	}
	if resp := h.Get("/v1/me", bearer(joined.Seat.Token)...); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("GET /v1/me after leaving = %d, want 401: %s", resp.StatusCode, resp.Body)
	}
}
