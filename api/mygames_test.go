package api_test

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"testing"

	"primegames.dev/client"
	"primegames/domain/games"
	"primegames/play"
)

// myGames lists every page of GET /v1/me/games?query with the token, limit games a page.
func (h *gamesHarness) myGames(t *testing.T, token, query string, limit int) []string {
	t.Helper()
	var ids []string
	cursor := ""
	for pages := 0; ; pages++ {
		path := "/v1/me/games?limit=" + strconv.Itoa(limit) + query
		if cursor != "" {
			path += "&cursor=" + cursor
		}
		resp := h.Get(path, bearer(token)...)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s = %d %s", path, resp.StatusCode, resp.Body)
		}
		var list client.GameList
		resp.JSON(t, &list)
		if len(list.Items) > limit || pages > 10 {
			t.Fatalf("GET %s: %d items on page %d", path, len(list.Items), pages)
		}
		for _, g := range list.Items {
			ids = append(ids, g.Id.String())
		}
		if list.NextCursor == nil {
			return ids
		}
		cursor = *list.NextCursor
	}
}

// A student's list is their games across the classroom, `turn=mine` those where their seat acts now;
// a seat token's list is its one game; a teacher's token is refused.
func TestMyGames(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	class := h.newClassroom(t, "5D", "Ada", "Ben", "Cy")
	ada := class.students["Ada"].token
	adaBen := h.createIn(t, class, "primed", "Ada", "Ben")
	adaCy := h.createIn(t, class, "prime-climb", "Cy", "Ada")
	h.createIn(t, class, "primed", "Ben", "Cy")

	if got := h.myGames(t, ada, "", 1); !slices.Equal(got, []string{adaCy, adaBen}) {
		t.Errorf("Ada's games a page of one at a time = %v, want %v newest first", got, []string{adaCy, adaBen})
	}
	if got := h.myGames(t, ada, "&status=finished", 5); len(got) != 0 {
		t.Errorf("Ada's finished games = %v, want none", got)
	}
	if got := h.myGames(t, ada, "&status=active", 5); len(got) != 2 {
		t.Errorf("Ada's active games = %v, want both", got)
	}

	// Whose turn it is follows the games' actions.
	adaSeat := map[string]int{adaBen: 0, adaCy: 1}
	adasTurn := func() []string {
		var mine []string
		for _, id := range []string{adaCy, adaBen} {
			if g := h.game(t, id, ada); slices.Contains(g.Turn.ToAct, adaSeat[id]) {
				mine = append(mine, id)
			}
		}
		return mine
	}
	for range 3 {
		if got, want := h.myGames(t, ada, "&turn=mine", 1), adasTurn(); !slices.Equal(got, want) {
			t.Fatalf("Ada's turn=mine = %v, want %v", got, want)
		}
		g := h.game(t, adaBen, ada)
		h.actFirstLegal(t, adaBen, class.students[map[int]string{0: "Ada", 1: "Ben"}[g.Turn.ToAct[0]]].token)
	}

	// Games saved before to_act was kept learn whose turn it is from the filler run at start-up.
	if _, err := h.db.Pool.Exec(context.Background(), `UPDATE games SET to_act = NULL WHERE status = 'active'`); err != nil {
		t.Fatal(err)
	}
	everyonesTurns := func() int {
		n := 0
		for _, st := range class.students {
			n += len(h.myGames(t, st.token, "&turn=mine", 5))
		}
		return n
	}
	if n := everyonesTurns(); n != 0 {
		t.Errorf("turn=mine lists %d games that do not know whose turn it is", n)
	}
	filled, err := play.New(h.db.Games().Stores(), games.All()).FillToAct(context.Background())
	if err != nil || filled != 3 {
		t.Fatalf("FillToAct = %d, %v; want the 3 active games", filled, err)
	}
	if got, want := h.myGames(t, ada, "&turn=mine", 5), adasTurn(); !slices.Equal(got, want) {
		t.Errorf("Ada's turn=mine after the filler = %v, want %v", got, want)
	}
	if n := everyonesTurns(); n != 3 {
		t.Errorf("the students' turn=mine lists hold %d games, want each of the 3 two-player games once", n)
	}

	public := h.create(t, map[string]any{"game": "primed", "players": names(2)})
	toAct := public.Game.Turn.ToAct[0]
	for seat, token := range []string{public.Seats[0].Token, public.Seats[1].Token} {
		if got := h.myGames(t, token, "", 5); !slices.Equal(got, []string{public.Game.Id.String()}) {
			t.Errorf("seat %d's games = %v, want its own", seat, got)
		}
		mine := h.myGames(t, token, "&turn=mine", 5)
		if (len(mine) == 1) != (seat == toAct) {
			t.Errorf("seat %d's turn=mine = %v with seat %d to act", seat, mine, toAct)
		}
	}

	for who, refused := range map[string]struct {
		token  string
		status int
	}{"teacher": {class.teacher, http.StatusForbidden}, "nobody": {"", http.StatusUnauthorized}} {
		var headers []string
		if refused.token != "" {
			headers = bearer(refused.token)
		}
		if resp := h.Get("/v1/me/games", headers...); resp.StatusCode != refused.status {
			t.Errorf("GET /v1/me/games as %s = %d, want %d", who, resp.StatusCode, refused.status)
		}
	}
}
