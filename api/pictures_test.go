package api_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"primegames.dev/client"
	"primegames/api/apitest"
	"primegames/domain/svg/svgtest"
)

// picture fetches an SVG route and checks what every picture response carries.
func picture(t *testing.T, h *gamesHarness, path string, headers ...string) (*apitest.Response, svgtest.Node) {
	t.Helper()
	resp := fetchPicture(t, h, path, "image/svg+xml", headers...)
	if strings.Contains(string(resp.Body), "<script") || strings.Contains(string(resp.Body), "href") {
		t.Fatalf("GET %s: the picture has a script or a reference", path)
	}
	root := svgtest.Parse(t, resp.Body)
	if title, _ := root.Child("title"); title.Text == "" {
		t.Fatalf("GET %s: no <title>", path)
	}
	return resp, root
}

// fetchPicture GETs a picture and checks what every picture response carries: 200, its type, an
// ETag and a Content-Security-Policy that forbids everything.
func fetchPicture(t *testing.T, h *gamesHarness, path, contentType string, headers ...string) *apitest.Response {
	t.Helper()
	resp := h.Get(path, headers...)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s = %d: %s", path, resp.StatusCode, resp.Body)
	}
	if ct := resp.Header.Get("Content-Type"); ct != contentType {
		t.Fatalf("GET %s: Content-Type %q, want %s", path, ct, contentType)
	}
	if resp.Header.Get("ETag") == "" || !strings.Contains(resp.Header.Get("Content-Security-Policy"), "default-src 'none'") {
		t.Fatalf("GET %s: ETag %q, Content-Security-Policy %q", path, resp.Header.Get("ETag"), resp.Header.Get("Content-Security-Policy"))
	}
	return resp
}

func TestBoardPictureColoursTheSquaresAsTheBoardReference(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	resp, root := picture(t, h, "/v1/boards/prime-climb.svg")
	if cc := resp.Header.Get("Cache-Control"); cc != "public, max-age=86400" {
		t.Errorf("Cache-Control %q", cc)
	}
	// The static path and the reference of /v1/boards/{game} both answer.
	var board struct {
		Squares []struct {
			Number int      `json:"number"`
			Red    bool     `json:"red"`
			Colors []string `json:"colors"`
		} `json:"squares"`
	}
	h.Get("/v1/boards/prime-climb").JSON(t, &board)
	squares := root.All("square")
	if len(squares) != 102 || len(board.Squares) != 102 {
		t.Fatalf("%d squares drawn, %d in the reference; want 102", len(squares), len(board.Squares))
	}
	for i, sq := range board.Squares {
		want := sq.Colors
		if sq.Red {
			want = []string{"red"}
		}
		var drawn []string
		for _, w := range squares[i].All("wedge") {
			drawn = append(drawn, w.Attr("data-color"))
		}
		if squares[i].Attr("data-number") != strconv.Itoa(sq.Number) || !slices.Equal(drawn, want) {
			t.Errorf("square %s drawn in %v, the reference says %d in %v", squares[i].Attr("data-number"), drawn, sq.Number, want)
		}
	}
	again := h.Get("/v1/boards/prime-climb.svg", "If-None-Match", resp.Header.Get("ETag"))
	if again.StatusCode != http.StatusNotModified {
		t.Errorf("If-None-Match with the ETag = %d, want 304", again.StatusCode)
	}
	if r := h.Get("/v1/boards/primed.svg"); r.StatusCode != http.StatusNotFound {
		t.Errorf("GET /v1/boards/primed.svg = %d, want 404", r.StatusCode)
	}
}

// playSome plays n actions of a game, each the first legal action of the seat to act.
func playSome(t *testing.T, h *gamesHarness, c client.CreatedGame, n int) {
	t.Helper()
	id := c.Game.Id.String()
	for range n {
		token, _ := tokenToAct(t, h, c)
		var actions []struct {
			Action json.RawMessage `json:"action"`
		}
		if err := json.Unmarshal(h.legalActions(t, id, token).Actions, &actions); err != nil || len(actions) == 0 {
			t.Fatalf("legal actions: %v %d", err, len(actions))
		}
		if resp := h.act(t, id, token, actions[0].Action); resp.StatusCode != http.StatusCreated {
			t.Fatalf("act = %d: %s", resp.StatusCode, resp.Body)
		}
	}
}

// faceUp lists the face-up cards of each hand of a Primed picture, nil for a hand shown as backs.
func faceUp(root svgtest.Node) [][]int {
	var hands [][]int
	for _, hand := range root.All("hand") {
		var cards []int
		for _, f := range hand.All("face") {
			v, _ := strconv.Atoi(f.Attr("data-value"))
			cards = append(cards, v)
		}
		hands = append(hands, cards)
	}
	return hands
}

// A picture shows the game as its caller may see it (PR-8): the anonymous caller no hand, a seat its
// own; a token in access_token counts as in the header, for <img src>.
func TestGamePictureShowsWhatItsCallerMaySee(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	c := h.create(t, map[string]any{"game": "primed", "players": []map[string]string{{"name": `<script>alert("Ada")</script>`}, {"name": "Ben & Co"}}})
	id := c.Game.Id.String()
	playSome(t, h, c, 3)
	path := "/v1/games/" + id + "/picture.svg"

	resp, root := picture(t, h, path)
	if hands := faceUp(root); len(hands) != 2 || hands[0] != nil || hands[1] != nil {
		t.Errorf("the anonymous picture shows hands %v", hands)
	}
	if !strings.Contains(strings.Join(root.Texts(), " "), `<script>alert("Ada")</script>`) || !strings.Contains(string(resp.Body), "&lt;script&gt;") {
		t.Error("the player's name is not shown escaped")
	}
	if cc := resp.Header.Get("Cache-Control"); cc != "no-cache" {
		t.Errorf("an active game's picture has Cache-Control %q", cc)
	}
	if r := h.Get(path, "If-None-Match", resp.Header.Get("ETag")); r.StatusCode != http.StatusNotModified {
		t.Errorf("If-None-Match = %d, want 304", r.StatusCode)
	}
	for seat, st := range c.Seats {
		var view struct {
			Hands []struct {
				Cards []int `json:"cards"`
			} `json:"hands"`
		}
		if err := json.Unmarshal(stateOf(h.game(t, id, st.Token)), &view); err != nil {
			t.Fatal(err)
		}
		for _, how := range [][]string{bearer(st.Token), nil} {
			p := path
			if how == nil {
				p += "?access_token=" + st.Token
			}
			_, root := picture(t, h, p, how...)
			hands := faceUp(root)
			if !slices.Equal(hands[seat], view.Hands[seat].Cards) || hands[1-seat] != nil {
				t.Errorf("seat %d sees hands %v in its picture, %v in its view", seat, hands, view.Hands[seat].Cards)
			}
		}
	}
	if r := h.Get(path + "?access_token=pgs_not-a-token"); r.StatusCode != http.StatusUnauthorized {
		t.Errorf("a wrong access_token = %d, want 401", r.StatusCode)
	}
	if r := h.Get(path + "?seq=99"); r.StatusCode != http.StatusNotFound || r.Problem(t).Code != "step_not_found" {
		t.Errorf("?seq=99 = %d %s, want 404 step_not_found", r.StatusCode, r.Body)
	}
	if r := h.Get(path + "?seq=-1"); r.StatusCode != http.StatusBadRequest {
		t.Errorf("?seq=-1 = %d, want 400", r.StatusCode)
	}
	if r := h.Get("/v1/games/"+id+"/replay.svg", bearer(c.Seats[0].Token)...); r.StatusCode != http.StatusForbidden {
		t.Errorf("the replay of an active game for a seat = %d, want 403", r.StatusCode)
	}

	if r := h.Post("/v1/games/"+id+"/abort", nil, bearer(c.CreatorToken)...); r.StatusCode != http.StatusOK {
		t.Fatalf("abort = %d: %s", r.StatusCode, r.Body)
	}
	// Over: every hand is shown, a step never changes and the whole game may be replayed.
	resp, root = picture(t, h, path+"?seq=1")
	if cc := resp.Header.Get("Cache-Control"); cc != "public, max-age=31536000, immutable" {
		t.Errorf("a step of a game that is over has Cache-Control %q", cc)
	}
	if hands := faceUp(root); hands[0] == nil || hands[1] == nil {
		t.Errorf("once the game is over the picture shows hands %v", hands)
	}
	resp, root = picture(t, h, "/v1/games/"+id+"/replay.svg")
	if steps := root.All("step"); len(steps) != 4 {
		t.Errorf("the replay has %d steps, want the start and 3 actions", len(steps))
	}
	if cc := resp.Header.Get("Cache-Control"); cc != "public, max-age=31536000, immutable" {
		t.Errorf("the replay of a game that is over has Cache-Control %q", cc)
	}
}

// The Prime Climb picture puts every pawn where the game's view has it.
func TestPrimeClimbPicturePutsThePawnsWhereTheViewHasThem(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	c := h.create(t, map[string]any{"game": "prime-climb", "players": []map[string]string{{"name": "Ada"}, {"name": "Ben"}}})
	id := c.Game.Id.String()
	playSome(t, h, c, 6)
	var view client.PrimeClimbView
	if err := json.Unmarshal(stateOf(h.game(t, id, "")), &view); err != nil {
		t.Fatal(err)
	}
	_, root := picture(t, h, "/v1/games/"+id+"/picture.svg")
	drawn := 0
	for _, p := range root.All("pawn") {
		if p.Attr("data-square") == "" {
			continue
		}
		seat, _ := strconv.Atoi(p.Attr("data-seat"))
		pawn, _ := strconv.Atoi(p.Attr("data-pawn"))
		if want := strconv.Itoa(view.Players[seat].Pawns[pawn]); p.Attr("data-square") != want {
			t.Errorf("seat %d pawn %d drawn on %s, the view has %s", seat, pawn, p.Attr("data-square"), want)
		}
		drawn++
	}
	if drawn != 4 {
		t.Errorf("%d pawns drawn, want 4", drawn)
	}
}

// A classroom's game is pictured for its teacher, who may also replay it while it runs; nobody else
// learns it exists.
func TestClassroomGamePictureIsForItsTeacherAndPlayers(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	class := h.newClassroom(t, "4A", "Ada", "Ben")
	resp := h.Post("/v1/games", map[string]any{"game": "primed", "players": []map[string]string{
		{"student_id": class.students["Ada"].id}, {"student_id": class.students["Ben"].id},
	}}, bearer(class.teacher)...)
	var game client.CreatedGame
	resp.JSON(t, &game)
	id := game.Game.Id.String()

	_, root := picture(t, h, "/v1/games/"+id+"/picture.svg?access_token="+class.teacher)
	if hands := faceUp(root); hands[0] == nil || hands[1] == nil {
		t.Errorf("the teacher sees hands %v", hands)
	}
	resp, _ = picture(t, h, "/v1/games/"+id+"/replay.svg", bearer(class.teacher)...)
	if cc := resp.Header.Get("Cache-Control"); cc != "no-cache" {
		t.Errorf("the replay of a running game has Cache-Control %q", cc)
	}
	picture(t, h, "/v1/games/"+id+"/picture.svg", bearer(class.students["Ada"].token)...)
	if r := h.Get("/v1/games/" + id + "/picture.svg"); r.StatusCode != http.StatusNotFound {
		t.Errorf("an anonymous picture of a classroom game = %d, want 404", r.StatusCode)
	}
	if r := h.Get("/v1/games/"+id+"/replay.svg", bearer(class.students["Ben"].token)...); r.StatusCode != http.StatusForbidden {
		t.Errorf("a student's replay of a running game = %d, want 403", r.StatusCode)
	}
}
