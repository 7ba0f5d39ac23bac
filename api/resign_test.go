package api_test

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"primegames.dev/client"
	"primegames/api/apitest"
	"primegames/repo/repotest"
)

// resignOutcome is a resignation's outcome as the contract's ResignOutcome describes it.
type resignOutcome struct {
	Resigned int    `json:"resigned"`
	Bot      string `json:"bot"`
	Winners  []int  `json:"winners"`
	Reason   string `json:"reason"` // "timeouts" when the server resigned the seat (G-4)
}

// postResign resigns with token and fails unless the answer is 200 with a game.
func postResign(t *testing.T, s *apitest.Server, id, token string) client.Game {
	t.Helper()
	resp := s.Post("/v1/games/"+id+"/resign", nil, bearer(token)...)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("resign = %d: %s", resp.StatusCode, resp.Body)
	}
	var g client.Game
	resp.JSON(t, &g)
	return g
}

// checkResignEntry checks that e records seat's resignation (G-3) and returns its outcome.
func checkResignEntry(t *testing.T, e client.HistoryEntry, seat int) resignOutcome {
	t.Helper()
	var out resignOutcome
	if err := json.Unmarshal(e.Outcome, &out); err != nil {
		t.Fatalf("entry %d outcome %s: %v", e.Seq, e.Outcome, err)
	}
	if !jsonEqual(e.Action, []byte(`{"type":"resign"}`)) || e.Seat == nil || *e.Seat != seat || out.Resigned != seat {
		t.Fatalf("entry %d = seat %v action %s outcome %s, want seat %d's resignation", e.Seq, e.Seat, e.Action, e.Outcome, seat)
	}
	return out
}

// G-3: in a game of two, a player resigns out of turn; the other wins at once, the resignation is
// in the history and on the event stream, and the history still folds to the stored game (G-2).
func TestResignInAGameOfTwoMakesTheOtherWin(t *testing.T) {
	t.Parallel()
	db := repotest.NewDB(t)
	s := apitest.Start(t, newServer(t, db))
	tb := newTable(t, s, db, "primed", nil, 2, 14)
	stream := openEvStream(t, s.URL, tb.path("/events"), bearer(tb.tokens[0])...)
	var first struct {
		Action json.RawMessage `json:"action"`
	}
	if err := json.Unmarshal(tb.legal(tb.toAct())[0], &first); err != nil {
		t.Fatal(err)
	}
	tb.act(tb.toAct(), first.Action)
	resigner := 1 - tb.toAct() // out of turn
	before := tb.version

	g := postResign(t, s, tb.id, tb.tokens[resigner])
	if g.Status != client.GameStatusFinished || len(g.Winners) != 1 || g.Winners[0] != 1-resigner || g.Version != before+1 {
		t.Fatalf("after seat %d resigned: status %s winners %v version %d (was %d)", resigner, g.Status, g.Winners, g.Version, before)
	}
	h := history(t, s, tb.id)
	last := h[len(h)-1]
	if out := checkResignEntry(t, last, resigner); len(out.Winners) != 1 || out.Winners[0] != 1-resigner || out.Bot != "" {
		t.Errorf("resignation outcome %s, want the other seat the winner", last.Outcome)
	}
	checkStoredFold(t, db, tb.id)

	for {
		ev := stream.next(t, 10*time.Second)
		if ev.Event != "action" {
			continue
		}
		a, e := ev.action(t)
		if e.Seq < last.Seq {
			continue
		}
		checkResignEntry(t, e, resigner)
		if a.Status != client.GameStatusFinished || a.Version != g.Version {
			t.Errorf("the resignation's event: status %s version %d, want finished at %d", a.Status, a.Version, g.Version)
		}
		break
	}
	if ev := stream.next(t, 10*time.Second); ev.Event != "end" {
		t.Errorf("after the resignation the stream sent %q, want end", ev.Event)
	}

	for _, token := range tb.tokens {
		if resp := s.Post(tb.path("/resign"), nil, bearer(token)...); resp.StatusCode != http.StatusConflict || resp.Problem(t).Code != "game_over" {
			t.Errorf("resigning a finished game = %d: %s, want 409 game_over", resp.StatusCode, resp.Body)
		}
	}
}

// G-3: in a game of three, each resigned seat is handed to a greedy computer player, which plays
// it on; once all three have resigned the computers finish the game, and the history (three
// resignations among the computers' moves) folds to the stored game (G-2).
func TestResignInAGameOfThreeHandsTheSeatToTheComputer(t *testing.T) {
	t.Parallel()
	db := repotest.NewDB(t)
	s := startWithBots(t, db)
	c := createGame(t, s, map[string]any{"game": "primed", "options": map[string]any{"bot_delay_ms": 0, "rounds": 1},
		"players": []map[string]string{{"name": "Ada"}, {"name": "Bea"}, {"name": "Cy"}}})
	id := c.Game.Id.String()
	g := postResign(t, s, id, c.Seats[1].Token)
	if g.Status != client.GameStatusActive || g.Seats[1].Bot == nil || *g.Seats[1].Bot != client.BotLevelGreedy || g.Seats[0].Bot != nil {
		t.Fatalf("after seat 1 resigned: status %s seats %+v, want active with a greedy computer in seat 1", g.Status, g.Seats)
	}
	resp := s.Post("/v1/games/"+id+"/actions", json.RawMessage(`{"type":"draw"}`), bearer(c.Seats[1].Token)...)
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("the resigned seat's token acts: %d %s, want 401", resp.StatusCode, resp.Body)
	}
	postResign(t, s, id, c.Seats[0].Token)
	postResign(t, s, id, c.Seats[2].Token)
	g = waitFor(t, s, id, botGameTimeout, finished)

	h := history(t, s, id)
	resigned, computerActed := 0, map[int]bool{}
	for _, e := range h {
		if jsonEqual(e.Action, []byte(`{"type":"resign"}`)) {
			if out := checkResignEntry(t, e, *e.Seat); out.Bot != "greedy" || out.Winners != nil {
				t.Errorf("resignation %s, want the seat handed to greedy", e.Outcome)
			}
			resigned++
		} else if e.Bot != nil && *e.Bot == client.BotLevelGreedy {
			computerActed[*e.Seat] = true
		}
	}
	if resigned != 3 || len(computerActed) != 3 {
		t.Errorf("history: %d resignations, the computer acted for seats %v; want 3 and all three", resigned, computerActed)
	}
	checkStoredFold(t, db, id)
}

// Resigning is for an active game's players: a lobby is not active (409), the creator holds no
// seat (403), and a request without a token is 401.
func TestResignRefusals(t *testing.T) {
	t.Parallel()
	s := apitest.Start(t, newServer(t, repotest.NewDB(t)))
	lobby := createGame(t, s, map[string]any{"game": "primed", "public": true, "seats": 2})
	var joined client.JoinedGame
	s.Post("/v1/games/"+lobby.Game.Id.String()+"/players", map[string]string{"name": "Ben"}).JSON(t, &joined)
	active := createGame(t, s, map[string]any{"game": "primed", "players": []map[string]string{{"name": "Ada"}, {"name": "Bea"}}})
	for _, tc := range []struct {
		name, id string
		headers  []string
		status   int
		code     string
	}{
		{"lobby", lobby.Game.Id.String(), bearer(joined.Seat.Token), http.StatusConflict, "game_not_active"},
		{"creator", active.Game.Id.String(), bearer(active.CreatorToken), http.StatusForbidden, "forbidden"},
		{"no token", active.Game.Id.String(), nil, http.StatusUnauthorized, "unauthorized"},
	} {
		resp := s.Post("/v1/games/"+tc.id+"/resign", nil, tc.headers...)
		if p := resp.Problem(t); resp.StatusCode != tc.status || p.Code != tc.code {
			t.Errorf("%s: resign = %d %s, want %d %s", tc.name, resp.StatusCode, p.Code, tc.status, tc.code)
		}
	}
}
