package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"primegames.dev/client"
	"primegames/api/apitest"
	"primegames/play"
	"primegames/repo"
	"primegames/repo/repotest"
)

type gamesHarness struct {
	*apitest.Server
	db *repo.DB
}

func newGamesHarness(t *testing.T) *gamesHarness {
	t.Helper()
	db := repotest.NewDB(t)
	return &gamesHarness{Server: apitest.Start(t, newServer(t, db)), db: db}
}

func bearer(token string) []string { return []string{"Authorization", "Bearer " + token} }

func (h *gamesHarness) create(t *testing.T, body any) client.CreatedGame {
	t.Helper()
	resp := h.Post("/v1/games", body)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("create = %d: %s", resp.StatusCode, resp.Body)
	}
	var c client.CreatedGame
	resp.JSON(t, &c)
	return c
}

func (h *gamesHarness) game(t *testing.T, id, token string) client.Game {
	t.Helper()
	var headers []string
	if token != "" {
		headers = bearer(token)
	}
	resp := h.Get("/v1/games/"+id, headers...)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET game = %d: %s", resp.StatusCode, resp.Body)
	}
	var g client.Game
	resp.JSON(t, &g)
	return g
}

func (h *gamesHarness) act(t *testing.T, id, token string, action any, headers ...string) *apitest.Response {
	t.Helper()
	return h.Post("/v1/games/"+id+"/actions", action, append(bearer(token), headers...)...)
}

func newPrimedGame(t *testing.T, h *gamesHarness) client.CreatedGame {
	t.Helper()
	return h.create(t, map[string]any{"game": "primed", "players": []map[string]string{{"name": "Ada"}, {"name": "Ben"}}})
}

// tokenToAct returns the token of the seat whose turn it is.
func tokenToAct(t *testing.T, h *gamesHarness, c client.CreatedGame) (string, int) {
	t.Helper()
	g := h.game(t, c.Game.Id.String(), "")
	if g.Turn == nil || len(g.Turn.ToAct) != 1 {
		t.Fatalf("turn = %+v", g.Turn)
	}
	seat := g.Turn.ToAct[0]
	return c.Seats[seat].Token, seat
}

func TestCreateGameStartsAtOnceWithTokens(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	c := h.create(t, map[string]any{"game": "prime-climb", "players": []map[string]string{{"name": "Ada"}, {"name": "Ben"}, {"name": "Cy"}}})
	if c.Game.Status != "active" || c.Game.SeatCount != 3 || len(c.Seats) != 3 || c.Game.Version != 1 {
		t.Fatalf("created = %+v", c)
	}
	seen := map[string]bool{c.CreatorToken: true}
	for i, s := range c.Seats {
		if s.Seat != i || len(s.Token) < 40 || seen[s.Token] {
			t.Errorf("seat token %d = %+v", i, s)
		}
		seen[s.Token] = true
	}
	// Tokens are kept only as hashes.
	var stored int
	for tok := range seen {
		var n int
		if err := h.db.Pool.QueryRow(context.Background(), `SELECT count(*) FROM seats WHERE token_hash = $1`, []byte(tok)).Scan(&n); err != nil {
			t.Fatal(err)
		}
		stored += n
	}
	if stored != 0 {
		t.Error("a token is stored in plain text")
	}
	// The start (PC-2 roll-off) is history entry 0.
	var page client.HistoryPage
	h.Get("/v1/games/"+c.Game.Id.String()+"/actions").JSON(t, &page)
	if len(page.Items) != 1 || page.Items[0].Seq != 0 || page.Items[0].Seat != nil || string(page.Items[0].Action) != `{"type":"start"}` {
		t.Fatalf("history after start = %+v", page.Items)
	}
}

func TestCreateGameRefusesBadRequests(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	cases := map[string]struct {
		body any
		code string
	}{
		"unknown game":           {`{"game":"chess","seats":2}`, "invalid"},
		"too many Prime Climb":   {map[string]any{"game": "prime-climb", "players": names(5)}, "invalid_seat_count"},
		"one Primed player PR-1": {map[string]any{"game": "primed", "players": names(1)}, "invalid_seat_count"},
		"six on standard PR-1":   {map[string]any{"game": "primed", "options": map[string]any{"deck": "standard"}, "players": names(6)}, "invalid_seat_count"},
		"players and seats":      {map[string]any{"game": "primed", "players": names(2), "seats": 3}, "invalid"},
		"neither":                {map[string]any{"game": "primed"}, "invalid"},
		"bad option":             {map[string]any{"game": "primed", "options": map[string]any{"rounds": 0}, "seats": 2}, "invalid_options"},
		"duplicate names":        {map[string]any{"game": "primed", "players": []map[string]string{{"name": "Ada"}, {"name": "ada"}}}, "name_taken"},
		"blank name":             {map[string]any{"game": "primed", "players": []map[string]string{{"name": " "}, {"name": "Ben"}}}, "invalid_name"},
		"not JSON":               {"{", "invalid"},
		"NUL in a name":          {`{"game":"primed","players":[{"name":"A\u0000"},{"name":"B"}]}`, "invalid"},
		"control in a name":      {map[string]any{"game": "primed", "players": []map[string]string{{"name": "A\tB"}, {"name": "C"}}}, "invalid_name"},
		"unknown field":          {`{"game":"primed","seats":2,"colour":"red"}`, "invalid"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			resp := h.Post("/v1/games", tc.body)
			if resp.StatusCode != http.StatusBadRequest {
				t.Fatalf("status = %d, want 400: %s", resp.StatusCode, resp.Body)
			}
			p := resp.Problem(t)
			if p.Code != tc.code || p.Detail == "" {
				t.Errorf("problem = %+v, want code %s", p, tc.code)
			}
		})
	}
}

func names(n int) []map[string]string {
	out := make([]map[string]string, n)
	for i := range out {
		out[i] = map[string]string{"name": fmt.Sprintf("Player %d", i+1)}
	}
	return out
}

func TestLobbyJoinStartFlow(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	c := h.create(t, map[string]any{"game": "primed", "public": true, "seats": 3, "options": map[string]any{"deck": "standard", "rounds": 2}})
	id := c.Game.Id.String()
	if c.Game.Status != "lobby" || len(c.Seats) != 0 || string(c.Game.State) != "null" {
		t.Fatalf("lobby = %+v", c.Game)
	}
	join := func(name string) *apitest.Response {
		return h.Post("/v1/games/"+id+"/players", map[string]string{"name": name})
	}

	var ada client.JoinedGame
	resp := join("Ada")
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("join = %d: %s", resp.StatusCode, resp.Body)
	}
	resp.JSON(t, &ada)
	if ada.Seat.Seat != 0 || ada.Game.You.Seat == nil || *ada.Game.You.Seat != 0 {
		t.Fatalf("joined = %+v", ada)
	}
	if p := join("ADA").Problem(t); p.Code != "name_taken" {
		t.Errorf("same name again: %+v", p)
	}
	// PR-1: Primed needs two players.
	if resp := h.Post("/v1/games/"+id+"/start", nil, bearer(c.CreatorToken)...); resp.StatusCode != http.StatusConflict || resp.Problem(t).Code != "not_enough_players" {
		t.Fatalf("start with one player = %d %s", resp.StatusCode, resp.Body)
	}
	if resp := join("Ben"); resp.StatusCode != http.StatusCreated {
		t.Fatalf("join Ben = %d", resp.StatusCode)
	}
	if resp := h.Post("/v1/games/"+id+"/start", nil); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("start without token = %d", resp.StatusCode)
	}
	resp = h.Post("/v1/games/"+id+"/start", nil, bearer(ada.Seat.Token)...)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("start = %d: %s", resp.StatusCode, resp.Body)
	}
	var started client.Game
	resp.JSON(t, &started)
	if started.Status != "active" || started.SeatCount != 2 || started.Turn == nil {
		t.Fatalf("started = %+v", started)
	}
	if p := join("Cy").Problem(t); p.Code != "not_in_lobby" {
		t.Errorf("join after start: %+v", p)
	}
	if p := h.Post("/v1/games/"+id+"/start", nil, bearer(c.CreatorToken)...).Problem(t); p.Code != "not_in_lobby" {
		t.Errorf("start twice: %+v", p)
	}

	full := h.create(t, map[string]any{"game": "prime-climb", "public": true, "seats": 1})
	if resp := h.Post("/v1/games/"+full.Game.Id.String()+"/players", map[string]string{"name": "Solo"}); resp.StatusCode != http.StatusCreated {
		t.Fatal(resp.StatusCode)
	}
	if p := h.Post("/v1/games/"+full.Game.Id.String()+"/players", map[string]string{"name": "Late"}).Problem(t); p.Code != "game_full" {
		t.Errorf("join a full lobby: %+v", p)
	}

	var list client.GameList
	h.Get("/v1/games?status=lobby").JSON(t, &list)
	if len(list.Items) != 1 || list.Items[0].Id != full.Game.Id || list.Items[0].Players[0] != "Solo" {
		t.Errorf("lobby list = %+v", list.Items)
	}
}

func TestTokensActOnlyForTheirSeatAndGame(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	c := newPrimedGame(t, h)
	other := newPrimedGame(t, h)
	id := c.Game.Id.String()
	token, seat := tokenToAct(t, h, c)
	waiting := c.Seats[1-seat].Token

	if resp := h.Post("/v1/games/"+id+"/actions", map[string]string{"type": "draw"}); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("no token = %d", resp.StatusCode)
	}
	if resp := h.act(t, id, "pgs_forged", map[string]string{"type": "draw"}); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("forged token = %d", resp.StatusCode)
	}
	if resp := h.act(t, id, other.Seats[0].Token, map[string]string{"type": "draw"}); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("another game's token = %d", resp.StatusCode)
	}
	if resp := h.Post("/v1/games/"+id+"/actions", map[string]string{"type": "draw"}, "Authorization", "Basic abc"); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("basic auth = %d", resp.StatusCode)
	}
	if resp := h.act(t, id, c.CreatorToken, map[string]string{"type": "draw"}); resp.StatusCode != http.StatusForbidden {
		t.Errorf("creator token acting = %d", resp.StatusCode)
	}
	resp := h.act(t, id, waiting, map[string]string{"type": "draw"})
	if resp.StatusCode != http.StatusConflict || resp.Problem(t).Code != "not_your_turn" {
		t.Errorf("other seat's turn = %d %s", resp.StatusCode, resp.Body)
	}
	if resp := h.Get("/v1/games/"+id, bearer("pgs_forged")...); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("GET with a forged token = %d", resp.StatusCode)
	}
	if resp := h.Get("/v1/games/"+id+"/legal-actions", bearer(token)...); resp.StatusCode != http.StatusOK {
		t.Errorf("legal actions = %d", resp.StatusCode)
	}
	if resp := h.Get("/v1/games/" + id + "/legal-actions"); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("anonymous legal actions = %d", resp.StatusCode)
	}
	if resp := h.Get("/v1/games/00000000-0000-0000-0000-000000000000"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("unknown game = %d", resp.StatusCode)
	}
	if resp := h.Get("/v1/games/not-a-uuid"); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("malformed id = %d", resp.StatusCode)
	}
}

// PR-8: a player sees their own hand and only the sizes of the others'; the public sees no hand.
func TestPrimedViewsHideOtherHands(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	c := newPrimedGame(t, h)
	type handView struct {
		Seat  int   `json:"seat"`
		Size  int   `json:"size"`
		Cards []int `json:"cards"`
	}
	var hands [2][]handView
	for seat := range 2 {
		var view struct {
			Hands []handView `json:"hands"`
		}
		if err := json.Unmarshal(h.game(t, c.Game.Id.String(), c.Seats[seat].Token).State, &view); err != nil {
			t.Fatal(err)
		}
		hands[seat] = view.Hands
		for _, hv := range view.Hands {
			if hv.Size != 7 {
				t.Errorf("seat %d sees hand %d of size %d, want 7", seat, hv.Seat, hv.Size)
			}
			if (hv.Seat == seat) != (len(hv.Cards) == 7) {
				t.Errorf("seat %d sees cards %v of seat %d", seat, hv.Cards, hv.Seat)
			}
		}
	}
	public := string(h.game(t, c.Game.Id.String(), "").State)
	for _, hv := range hands[0] {
		if hv.Seat == 0 && strings.Contains(public, fmt.Sprint(hv.Cards)) {
			t.Error("the public view shows a hand")
		}
	}
	for _, secret := range []string{`"seed"`, `"draw_pile":[`, `"random"`} {
		for _, g := range []string{public, string(h.game(t, c.Game.Id.String(), c.Seats[0].Token).State)} {
			if strings.Contains(g, secret) {
				t.Errorf("a running game's view contains %s", secret)
			}
		}
	}
}

func TestIllegalActionIs422AndChangesNothingButIsRecorded(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	c := h.create(t, map[string]any{"game": "prime-climb", "players": names(2)})
	token, seat := tokenToAct(t, h, c)
	before := h.game(t, c.Game.Id.String(), token)

	// PC-4: the move phase comes after the roll.
	resp := h.act(t, c.Game.Id.String(), token, map[string]any{"type": "move", "steps": []map[string]any{{"die": 3, "pawn": 0, "op": "add"}}})
	if resp.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("move before roll = %d: %s", resp.StatusCode, resp.Body)
	}
	p := resp.Problem(t)
	if p.Code != "wrong_phase" || p.Detail == "" {
		t.Errorf("problem = %+v", p)
	}
	after := h.game(t, c.Game.Id.String(), token)
	if after.Version != before.Version || string(after.State) != string(before.State) {
		t.Error("a refused action changed the game")
	}
	var code, detail string
	var attemptSeat int
	err := h.db.Pool.QueryRow(context.Background(), `SELECT seat, code, detail FROM attempts WHERE game_id = $1`, c.Game.Id.String()).Scan(&attemptSeat, &code, &detail)
	if err != nil || attemptSeat != seat || code != "wrong_phase" || detail != p.Detail {
		t.Errorf("attempt = %d %q %q (%v)", attemptSeat, code, detail, err)
	}
	// NUL cannot be stored; it is refused before it reaches the rules or the attempts.
	if resp := h.act(t, c.Game.Id.String(), token, `{"type":"keeper","card":"\u0000","pawn":0}`); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("NUL in an action = %d", resp.StatusCode)
	}
	// A body that is not an action of any game breaks the contract: 400, and nothing recorded.
	if resp := h.act(t, c.Game.Id.String(), token, map[string]any{"type": "fly"}); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("unknown action = %d", resp.StatusCode)
	}
}

func TestIfMatchStaleVersionIs412(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	c := h.create(t, map[string]any{"game": "prime-climb", "players": names(2)})
	token, _ := tokenToAct(t, h, c)
	g := h.game(t, c.Game.Id.String(), token)
	stale := fmt.Sprintf(`"%d"`, g.Version-1)
	resp := h.act(t, c.Game.Id.String(), token, map[string]string{"type": "roll"}, "If-Match", stale)
	if resp.StatusCode != http.StatusPreconditionFailed || resp.Problem(t).Code != "version_mismatch" {
		t.Fatalf("stale If-Match = %d %s", resp.StatusCode, resp.Body)
	}
	resp = h.act(t, c.Game.Id.String(), token, map[string]string{"type": "roll"}, "If-Match", fmt.Sprintf(`"%d"`, g.Version))
	if resp.StatusCode != http.StatusCreated || versionTag(resp.Header) != fmt.Sprintf(`"%d"`, g.Version+1) {
		t.Fatalf("current If-Match = %d, ETag %s", resp.StatusCode, resp.Header.Get("ETag"))
	}
	if resp := h.Get("/v1/games/"+c.Game.Id.String(), "If-None-Match", resp.Header.Get("ETag")); resp.StatusCode != http.StatusNotModified {
		t.Errorf("If-None-Match current = %d, want 304", resp.StatusCode)
	}
}

func TestIdempotentRetryActsOnce(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	c := h.create(t, map[string]any{"game": "prime-climb", "players": names(2)})
	token, _ := tokenToAct(t, h, c)
	key := []string{"Idempotency-Key", "roll-1"}
	first := h.act(t, c.Game.Id.String(), token, map[string]string{"type": "roll"}, key...)
	second := h.act(t, c.Game.Id.String(), token, map[string]string{"type": "roll"}, key...)
	if first.StatusCode != http.StatusCreated || second.StatusCode != http.StatusCreated {
		t.Fatalf("statuses %d, %d", first.StatusCode, second.StatusCode)
	}
	if string(first.Body) != string(second.Body) || first.Header.Get("ETag") != second.Header.Get("ETag") {
		t.Error("the retry did not return the original response")
	}
	var n int
	if err := h.db.Pool.QueryRow(context.Background(), `SELECT count(*) FROM actions WHERE game_id = $1`, c.Game.Id.String()).Scan(&n); err != nil || n != 2 {
		t.Fatalf("history has %d entries, want start + one roll", n)
	}
	resp := h.act(t, c.Game.Id.String(), token, map[string]any{"type": "move", "steps": []any{}}, key...)
	if resp.StatusCode != http.StatusUnprocessableEntity || resp.Problem(t).Code != "idempotency_key_reused" {
		t.Errorf("same key, other body = %d %s", resp.StatusCode, resp.Body)
	}

	create := map[string]any{"game": "primed", "players": names(2)}
	createKey := randomKey()
	a := h.Post("/v1/games", create, "Idempotency-Key", createKey)
	b := h.Post("/v1/games", create, "Idempotency-Key", createKey)
	if a.StatusCode != http.StatusCreated || string(a.Body) != string(b.Body) {
		t.Error("a retried create made a second game")
	}
}

// Many simultaneous submissions of the same move: exactly one is recorded, the rest are refused as the
// rules refuse them once the turn has moved on.
func TestConcurrentSubmissionsAreSerialized(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	c := h.create(t, map[string]any{"game": "prime-climb", "players": names(2)})
	token, _ := tokenToAct(t, h, c)
	const n = 16
	statuses := make([]int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = h.act(t, c.Game.Id.String(), token, map[string]string{"type": "roll"}).StatusCode
		}()
	}
	wg.Wait()
	accepted := 0
	for _, s := range statuses {
		switch s {
		case http.StatusCreated:
			accepted++
		case http.StatusUnprocessableEntity:
		default:
			t.Errorf("unexpected status %d", s)
		}
	}
	if accepted != 1 {
		t.Fatalf("%d rolls accepted, want exactly 1: %v", accepted, statuses)
	}
	var entries, attempts int
	ctx := context.Background()
	_ = h.db.Pool.QueryRow(ctx, `SELECT count(*) FROM actions WHERE game_id = $1`, c.Game.Id.String()).Scan(&entries)
	_ = h.db.Pool.QueryRow(ctx, `SELECT count(*) FROM attempts WHERE game_id = $1`, c.Game.Id.String()).Scan(&attempts)
	// Every refusal is kept, up to the refusals a game keeps of one seat at one position.
	if want := min(n-1, play.AttemptsKeptPerPosition); entries != 2 || attempts != want {
		t.Errorf("entries = %d (want 2), attempts = %d (want %d)", entries, attempts, want)
	}
}

func TestAbortByCreatorOnly(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	c := newPrimedGame(t, h)
	if resp := h.Post("/v1/games/"+c.Game.Id.String()+"/abort", nil, bearer(c.Seats[0].Token)...); resp.StatusCode != http.StatusForbidden {
		t.Errorf("abort by a player = %d", resp.StatusCode)
	}
	resp := h.Post("/v1/games/"+c.Game.Id.String()+"/abort", nil, bearer(c.CreatorToken)...)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("abort = %d %s", resp.StatusCode, resp.Body)
	}
	var g client.Game
	resp.JSON(t, &g)
	if g.Status != "aborted" {
		t.Errorf("status = %s", g.Status)
	}
	if p := h.Post("/v1/games/"+c.Game.Id.String()+"/abort", nil, bearer(c.CreatorToken)...).Problem(t); p.Code != "game_over" {
		t.Errorf("abort twice: %+v", p)
	}
	token, _ := c.Seats[0].Token, 0
	if resp := h.act(t, c.Game.Id.String(), token, map[string]string{"type": "draw"}); resp.StatusCode != http.StatusConflict || resp.Problem(t).Code != "game_not_active" {
		t.Errorf("act in an aborted game = %d %s", resp.StatusCode, resp.Body)
	}
	// Once over, everything is visible (PR-8): every hand and the recorded random values.
	var page client.HistoryPage
	h.Get("/v1/games/"+c.Game.Id.String()+"/actions").JSON(t, &page)
	if len(page.Items) == 0 || page.Items[0].Random == nil || len(*page.Items[0].Random) == 0 {
		t.Errorf("the start's random values should be shown once the game is over: %+v", page.Items)
	}
}

func TestBoardAndScores(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	var board client.PrimeClimbBoard
	h.Get("/v1/boards/prime-climb").JSON(t, &board)
	if len(board.Squares) != 102 || board.Squares[12].Number != 12 || fmt.Sprint(board.Squares[12].Factors) != "[2 2 3]" {
		t.Fatalf("board = %d squares, 12 = %+v", len(board.Squares), board.Squares[12])
	}
	for _, game := range []string{"primed", "chess"} {
		resp := h.Get("/v1/boards/" + game)
		if p := resp.Problem(t); resp.StatusCode != http.StatusNotFound || p.Code != "not_found" {
			t.Errorf("board of %s: %d %s, want 404 not_found", game, resp.StatusCode, p.Code)
		}
	}
	c := newPrimedGame(t, h)
	var scores client.Scores
	h.Get("/v1/games/"+c.Game.Id.String()+"/scores").JSON(t, &scores)
	if scores.Game != "primed" || scores.Status != "active" || len(scores.Scores) < 10 {
		t.Errorf("scores = %+v", scores)
	}
}
