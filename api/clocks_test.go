package api_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"primegames.dev/client"
	"primegames/api/apitest"
	"primegames/domain/games"
	"primegames/play"
	"primegames/play/playclock"
	"primegames/repo/repotest"
)

// clockSeconds is the shortest turn clock the contract allows.
const clockSeconds = 3

// Two instances, each with its worker, on a game of two people with a 3-second clock (G-4), all
// reading one test clock that moves only to the deadlines: the deadline shows in the view and
// moves on when a person acts; then nobody acts, the servers play every expired turn exactly once
// (one instance's worker restarts in between), each action marked as a timeout in the history and
// on the event stream, until the third timed-out turn of one seat resigns it (G-3) and the other
// wins. Nothing waits for real seconds: the test moves the clock and waits for the events.
func TestTurnClocksOnTwoInstances(t *testing.T) {
	t.Parallel()
	clock := playclock.New(time.Now())
	c := newEvClusterOn(t, testConfig(), clock)
	stopA, stopB := runBotsOn(c.dbA, clock), runBotsOn(c.dbB, clock)
	defer func() { stopA() }()
	defer stopB()
	created := createGame(t, c.a, map[string]any{"game": "primed", "options": map[string]any{"turn_seconds": clockSeconds},
		"players": []map[string]string{{"name": "Ada"}, {"name": "Ben"}}})
	id := created.Game.Id.String()
	var options map[string]any
	if err := json.Unmarshal(created.Game.Options, &options); err != nil || options["turn_seconds"] != float64(clockSeconds) {
		t.Errorf("options = %s, want turn_seconds %d", created.Game.Options, clockSeconds)
	}
	turn := created.Game.Turn
	if turn == nil || turn.Deadline == nil || !turn.Deadline.Equal(created.Game.UpdatedAt.Add(clockSeconds*time.Second)) {
		t.Fatalf("turn = %+v at %s, want a deadline %d s after the start", turn, created.Game.UpdatedAt, clockSeconds)
	}
	first := turn.ToAct[0]
	stream := openEvStream(t, c.b.URL, "/v1/games/"+id+"/events", bearer(created.Seats[1-first].Token)...)

	// The person to act plays their turn a second into it (a draw may keep them to act: they act
	// until the turn passes): their entries are no timeouts, and the other's clock starts.
	clock.Advance(time.Second)
	var acted client.ActionResult
	for range 5 {
		acted = actAsPerson(t, c.a, id, created.Seats[first].Token)
		if acted.Entry.Timeout != nil {
			t.Errorf("a person's own action is marked timeout %v", *acted.Entry.Timeout)
		}
		if acted.Game.Turn == nil || len(acted.Game.Turn.ToAct) != 1 || acted.Game.Turn.ToAct[0] != first {
			break
		}
	}
	if acted.Game.Turn == nil || len(acted.Game.Turn.ToAct) != 1 || acted.Game.Turn.ToAct[0] != 1-first {
		t.Fatalf("after seat %d's turn: turn %+v, want seat %d to act", first, acted.Game.Turn, 1-first)
	}
	deadline := acted.Game.Turn.Deadline
	if deadline == nil || !deadline.Equal(acted.Entry.CreatedAt.Add(clockSeconds*time.Second)) || !deadline.After(*turn.Deadline) {
		t.Fatalf("deadline after the action = %v (action at %s, before %s), want %d s after the action", deadline, acted.Entry.CreatedAt, turn.Deadline, clockSeconds)
	}

	// Nobody acts: the clock moves to each deadline in turn, a moment short of it first, when no
	// turn is due. Each expired turn arrives on B's event stream, marked, its entries at the
	// deadline; after the first, A's worker restarts.
	probe := newServiceOn(c.dbA, games.All(), clock)
	for timedOut := 0; ; timedOut++ {
		clock.Set(deadline.Add(-time.Millisecond))
		if due, err := probe.ActForExpiredTurn(context.Background()); due || err != nil {
			t.Fatalf("a moment before deadline %d: a turn was due (%v), want none", timedOut, err)
		}
		clock.Set(*deadline)
		var entry client.HistoryEntry // the turn's first, skipping the rest of the turn before
		for entry.Timeout == nil || entry.CreatedAt.Before(*deadline) {
			_, entry = stream.next(t, evWait).action(t)
		}
		if !*entry.Timeout || entry.Seat == nil || entry.Bot != nil || !entry.CreatedAt.Equal(*deadline) {
			t.Errorf("timeout %d = %+v, want one marked timeout and not a computer's, at the deadline %s", timedOut, entry, deadline)
		}
		if timedOut == 0 {
			if *entry.Seat != 1-first {
				t.Errorf("first timeout by seat %d, want seat %d's", *entry.Seat, 1-first)
			}
			stopA()
			stopA = runBotsOn(c.dbA, clock)
		}
		// The turn's entries commit together: the game read now is past the whole turn.
		var g client.Game
		c.b.Get("/v1/games/"+id).JSON(t, &g)
		if g.Status == client.GameStatusFinished {
			break
		}
		if timedOut == 4 {
			t.Fatalf("game %s still %s after 5 timed-out turns", id, g.Status)
		}
		if g.Turn == nil || g.Turn.Deadline == nil || !g.Turn.Deadline.Equal(entry.CreatedAt.Add(clockSeconds*time.Second)) {
			t.Fatalf("after timeout %d: turn %+v, want a deadline %d s after it", timedOut, g.Turn, clockSeconds)
		}
		deadline = g.Turn.Deadline
	}

	g := waitFor(t, c.b, id, evWait, finished)
	if len(g.Winners) != 1 || g.Winners[0] != first || g.Turn != nil {
		t.Errorf("winners %v, turn %+v; want seat %d alone, and no turn", g.Winners, g.Turn, first)
	}
	entries := history(t, c.b, id)
	// The turns after the person's action: seat 1-first, first, 1-first, first, 1-first, each begun
	// a whole clock after the entry before it, each played once.
	var turns []int
	for i := int(acted.Entry.Seq) + 1; i < len(entries); i++ {
		e := entries[i]
		if e.Seq != int64(i) || e.Seat == nil {
			t.Fatalf("entry %d: seq %d, seat %v", i, e.Seq, e.Seat)
		}
		if i == len(entries)-1 {
			var resigned resignOutcome
			if err := json.Unmarshal(e.Outcome, &resigned); err != nil || resigned.Resigned != 1-first || resigned.Reason != "timeouts" || e.Timeout != nil {
				t.Errorf("last entry %s → %s, want seat %d resigned for timeouts (G-4)", e.Action, e.Outcome, 1-first)
			}
			continue
		}
		if e.Timeout == nil || !*e.Timeout {
			t.Errorf("entry %d (%s) by seat %d is not marked timeout", e.Seq, e.Action, *e.Seat)
		}
		if prev := entries[i-1]; *prev.Seat != *e.Seat || i == int(acted.Entry.Seq)+1 {
			turns = append(turns, *e.Seat)
			if waited := e.CreatedAt.Sub(prev.CreatedAt); waited != clockSeconds*time.Second {
				t.Errorf("entry %d came %s after the one before, want a whole clock", e.Seq, waited)
			}
		}
	}
	want := []int{1 - first, first, 1 - first, first, 1 - first}
	if len(turns) != len(want) {
		t.Fatalf("timed-out turns of seats %v, want %v", turns, want)
	}
	for i := range want {
		if turns[i] != want[i] {
			t.Errorf("timed-out turns of seats %v, want %v", turns, want)
			break
		}
	}
	stored, storedEntries := checkStoredFold(t, c.dbA, id)
	for i := 1; i < len(storedEntries); i++ {
		if storedEntries[i].Version != storedEntries[i-1].Version+1 {
			t.Errorf("entry %d at version %d after %d", i, storedEntries[i].Version, storedEntries[i-1].Version)
		}
	}
	if stored.TurnDeadline != nil {
		t.Errorf("the finished game keeps a deadline %v", stored.TurnDeadline)
	}
	if attempts, err := c.dbA.Games().Attempts(context.Background(), id); err != nil || len(attempts) != 0 {
		t.Errorf("%d refused actions (%v), want none: nothing acted twice", len(attempts), err)
	}
}

// actAsPerson posts the first legal action of the token's seat.
func actAsPerson(t *testing.T, s *apitest.Server, id, token string) client.ActionResult {
	t.Helper()
	var legal struct {
		Actions []struct {
			Action json.RawMessage `json:"action"`
		} `json:"actions"`
	}
	s.Get("/v1/games/"+id+"/legal-actions", bearer(token)...).JSON(t, &legal)
	if len(legal.Actions) == 0 {
		t.Fatalf("game %s: no legal action for the token's seat", id)
	}
	resp := s.Post("/v1/games/"+id+"/actions", legal.Actions[0].Action, bearer(token)...)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("action = %d: %s", resp.StatusCode, resp.Body)
	}
	var res client.ActionResult
	resp.JSON(t, &res)
	return res
}

func TestBadTurnClocksAreRefused(t *testing.T) {
	t.Parallel()
	s := startWithBots(t, repotest.NewDB(t))
	for name, value := range map[string]any{
		"too short": 2, "too long": 604801, "a string": "60", "a fraction": 3.5, "negative": -10, "null": nil,
	} {
		for _, kind := range []string{"primed", "prime-climb"} {
			resp := s.Post("/v1/games", map[string]any{"game": kind, "options": map[string]any{"turn_seconds": value},
				"players": []map[string]string{{"name": "Ada"}, {"name": "Ben"}}})
			if resp.StatusCode != http.StatusBadRequest {
				t.Errorf("%s, %s: status %d, want 400: %s", kind, name, resp.StatusCode, resp.Body)
				continue
			}
			if p := resp.Problem(t); p.Code != "invalid_options" || p.Detail == "" {
				t.Errorf("%s, %s: problem %+v, want invalid_options with a sentence", kind, name, p)
			}
		}
	}
	// Without the option no clock runs.
	c := createGame(t, s, map[string]any{"game": "primed", "players": []map[string]string{{"name": "Ada"}, {"name": "Ben"}}})
	var options map[string]any
	if err := json.Unmarshal(c.Game.Options, &options); err != nil || options["turn_seconds"] != nil || c.Game.Turn.Deadline != nil {
		t.Errorf("options %s, deadline %v; want no clock", c.Game.Options, c.Game.Turn.Deadline)
	}
}

// A lobby older than the lobby TTL and active games nobody moved in for the idle TTL are aborted by
// the worker, once, with their reason in the views and the lists; the idle games' streams (the
// classroom's too) carry the abort entry, then the end. The TTLs pass on the test's clock.
func TestAbandonedGamesAreAbortedAndAnnounced(t *testing.T) {
	t.Parallel()
	db := repotest.NewDB(t)
	clock := playclock.New(time.Now())
	srv, err := newAPIOn(testConfig(), db, clock, quietLogger())
	if err != nil {
		t.Fatal(err)
	}
	s := apitest.Start(t, srv)
	class := newClassroomOn(t, s, "Class 4A", "Ada", "Ben")
	lobby := createGame(t, s, map[string]any{"game": "primed", "public": true, "seats": 2})
	idle := createGame(t, s, map[string]any{"game": "prime-climb", "public": true, "players": []map[string]string{{"name": "Ada"}, {"name": "Ben"}}})
	resp := s.Post("/v1/classrooms/"+class.id+"/games", map[string]any{"game": "primed", "group_size": 2}, bearer(class.teacher)...)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("classroom games = %d: %s", resp.StatusCode, resp.Body)
	}
	var classGames client.ClassroomGames
	resp.JSON(t, &classGames)
	classGame := classGames.Games[0].Id.String()
	aborted := createGame(t, s, map[string]any{"game": "primed", "public": true, "seats": 2})
	if resp := s.Post("/v1/games/"+aborted.Game.Id.String()+"/abort", nil, bearer(aborted.CreatorToken)...); resp.StatusCode != http.StatusOK {
		t.Fatalf("abort = %d: %s", resp.StatusCode, resp.Body)
	}
	gameStream := openEvStream(t, s.URL, "/v1/games/"+idle.Game.Id.String()+"/events", bearer(idle.Seats[0].Token)...)
	roomStream := openEvStream(t, s.URL, "/v1/classrooms/"+class.id+"/events", bearer(class.teacher)...)

	clock.Advance(time.Second) // both TTLs pass
	for range 2 {              // two instances' workers
		service := newServiceOn(db, games.All(), clock, play.WithAbandonTTLs(play.AbandonTTLs{Lobby: time.Second, Idle: time.Second}))
		t.Cleanup(runBotsOf(service))
	}
	for _, stream := range []*evStream{gameStream, roomStream} {
		var entry client.HistoryEntry
		for entry.Seat != nil || entry.Seq == 0 {
			_, entry = stream.next(t, evWait).action(t)
		}
		if !jsonEqual(entry.Action, []byte(`{"type":"abort","reason":"idle"}`)) || !jsonEqual(entry.Outcome, []byte(`{"end_reason":"idle"}`)) {
			t.Errorf("abort entry %s → %s", entry.Action, entry.Outcome)
		}
	}
	gameStream.next(t, evWait) // the end
	gameStream.ended(t, evWait)

	for id, want := range map[string]client.EndReason{lobby.Game.Id.String(): client.EndReasonLobbyExpired, idle.Game.Id.String(): client.EndReasonIdle,
		classGame: client.EndReasonIdle, aborted.Game.Id.String(): client.EndReasonCreator} {
		var headers []string
		if id == classGame {
			headers = bearer(class.teacher) // the teacher sees it as such
		}
		g := waitFor(t, s, id, evWait, func(g client.Game) bool { return g.Status == client.GameStatusAborted }, headers...)
		if g.EndReason == nil || *g.EndReason != want || g.FinishedAt == nil {
			t.Errorf("game %s ended as %v, want %s", id, g.EndReason, want)
		}
	}
	if entries := history(t, s, idle.Game.Id.String()); len(entries) != 2 {
		t.Errorf("the idle game's history has %d entries, want the start and one abort", len(entries))
	}
	var list client.GameList
	s.Get("/v1/classrooms/"+class.id+"/games?status=aborted", bearer(class.teacher)...).JSON(t, &list)
	if len(list.Items) != 1 || list.Items[0].EndReason == nil || *list.Items[0].EndReason != client.EndReasonIdle {
		t.Errorf("the teacher's list of aborted games = %+v, want the idle game", list.Items)
	}
	s.Get("/v1/games?status=aborted").JSON(t, &list)
	if len(list.Items) != 3 {
		t.Errorf("%d aborted games listed, want 3", len(list.Items))
	}
	for _, g := range list.Items {
		if g.EndReason == nil {
			t.Errorf("listed game %s has no end reason", g.Id)
		}
	}
}
