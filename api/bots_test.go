package api_test

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"testing"
	"time"

	"primegames.dev/client"
	"primegames/api"
	"primegames/api/apitest"
	"primegames/domain/games"
	"primegames/play"
	"primegames/play/playclock"
	"primegames/repo"
	"primegames/repo/repotest"
)

// botGameTimeout bounds how long a game of computers may take here: generous, so that a busy
// machine does not fail the test; a game with bot_delay_ms 0 takes well under a few seconds.
const botGameTimeout = 60 * time.Second

// startWithBots starts an instance over db as cmd/primegames serve does: the API and the worker
// that acts for computer players, stopped when the test ends.
func startWithBots(t *testing.T, db *repo.DB) *apitest.Server {
	t.Helper()
	return startWithBotsOn(t, db, nil)
}

// startWithBotsOn is startWithBots with the instance reading clock (nil: the system clock).
func startWithBotsOn(t *testing.T, db *repo.DB, clock play.Clock) *apitest.Server {
	t.Helper()
	service := newServiceOn(db, games.All(), clock)
	srv, err := api.New(testConfig(), api.Deps{Play: service, Database: db, Feed: db}, quietLogger())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(runBotsOf(service))
	return apitest.Start(t, srv)
}

func createGame(t *testing.T, s *apitest.Server, body any) client.CreatedGame {
	t.Helper()
	resp := s.Post("/v1/games", body)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("create = %d: %s", resp.StatusCode, resp.Body)
	}
	var c client.CreatedGame
	resp.JSON(t, &c)
	return c
}

// waitFor reads the game (with header pairs) until done says it is what the test waits for, failing
// after timeout. It reads the game again after each event of the game's stream, not on a timer:
// every change of a game is an event.
func waitFor(t *testing.T, s *apitest.Server, id string, timeout time.Duration, done func(client.Game) bool, headers ...string) client.Game {
	t.Helper()
	read := func() (g client.Game) {
		s.Get("/v1/games/"+id, headers...).JSON(t, &g)
		return g
	}
	if g := read(); done(g) {
		return g
	}
	stream := openEvStream(t, s.URL, "/v1/games/"+id+"/events", headers...) // from the start of the history
	defer stream.close()
	expiry := time.After(timeout)
	for {
		g := read() // after the stream opened, so no change goes unseen
		if done(g) {
			return g
		}
		select {
		case <-stream.events:
			for drained := false; !drained; { // one read for the events that came together
				select {
				case <-stream.events:
				default:
					drained = true
				}
			}
		case <-stream.closed: // the game is over: it changes no more
			if g := read(); done(g) {
				return g
			}
			t.Fatalf("game %s is over: status %s, version %d, turn %+v", id, g.Status, g.Version, g.Turn)
		case <-expiry:
			t.Fatalf("game %s after %s: status %s, version %d, turn %+v", id, timeout, g.Status, g.Version, g.Turn)
		}
	}
}

func finished(g client.Game) bool { return g.Status == client.GameStatusFinished }

// history is a game's whole public history.
func history(t *testing.T, s *apitest.Server, id string) []client.HistoryEntry {
	t.Helper()
	var all []client.HistoryEntry
	path := "/v1/games/" + id + "/actions?limit=200"
	for {
		var page client.HistoryPage
		s.Get(path).JSON(t, &page)
		all = append(all, page.Items...)
		if page.NextCursor == nil {
			return all
		}
		path = "/v1/games/" + id + "/actions?limit=200&cursor=" + *page.NextCursor
	}
}

// Games of computers alone play to their end, every move recorded and marked as a computer's, and
// the history folds to the final state (G-2).
func TestGamesOfComputersPlayToTheEnd(t *testing.T) {
	t.Parallel()
	db := repotest.NewDB(t)
	s := startWithBots(t, db)
	for _, kind := range games.All().Kinds() {
		t.Run(kind.Name(), func(t *testing.T) {
			t.Parallel()
			c := createGame(t, s, map[string]any{"game": kind.Name(), "options": map[string]any{"bot_delay_ms": 0},
				"players": []map[string]string{{"bot": "greedy"}, {"bot": "expert", "name": "Professor"}}})
			if len(c.Seats) != 0 {
				t.Errorf("computers got seat tokens: %+v", c.Seats)
			}
			var options map[string]any
			if err := json.Unmarshal(c.Game.Options, &options); err != nil || options["bot_delay_ms"] != 0.0 || options["hints"] != true {
				t.Errorf("options = %s, want bot_delay_ms 0 and hints true among them", c.Game.Options)
			}
			wantSeats := []struct{ name, bot string }{{"Computer (greedy)", "greedy"}, {"Professor", "expert"}}
			for i, want := range wantSeats {
				seat := c.Game.Seats[i]
				if seat.Name != want.name || seat.Bot == nil || string(*seat.Bot) != want.bot {
					t.Errorf("seat %d = %s %v, want %s marked %s", i, seat.Name, seat.Bot, want.name, want.bot)
				}
			}
			start := time.Now()
			g := waitFor(t, s, c.Game.Id.String(), botGameTimeout, finished)
			entries := history(t, s, c.Game.Id.String())
			t.Logf("%s: %d actions in %s", kind.Name(), len(entries)-1, time.Since(start).Round(time.Millisecond))
			for _, e := range entries[1:] {
				if e.Seat == nil || e.Bot == nil || string(*e.Bot) != wantSeats[*e.Seat].bot {
					t.Fatalf("entry %d: seat %v bot %v, want the seat's computer marked", e.Seq, e.Seat, e.Bot)
				}
			}
			if entries[0].Bot != nil {
				t.Errorf("the start is marked as a computer's: %v", *entries[0].Bot)
			}
			stored, all := checkStoredFold(t, db, c.Game.Id.String())
			if len(all) != len(entries) || stored.Version != g.Version || all[len(all)-1].Version != g.Version {
				t.Errorf("stored %d entries (last at version %d), served %d; game version %d", len(all), all[len(all)-1].Version, len(entries), g.Version)
			}
		})
	}
}

// A person plays against the computer: after the person's turn, the computer's move appears in the
// history and on the person's event stream, marked as the computer's.
func TestComputerAnswersAPersonOnTheEventStream(t *testing.T) {
	t.Parallel()
	db := repotest.NewDB(t)
	s := startWithBots(t, db)
	c := createGame(t, s, map[string]any{"game": "primed", "options": map[string]any{"bot_delay_ms": 0},
		"players": []map[string]string{{"name": "Ada"}, {"bot": "expert"}}})
	if len(c.Seats) != 1 || c.Seats[0].Seat != 0 {
		t.Fatalf("seat tokens = %+v, want Ada's alone", c.Seats)
	}
	id, token := c.Game.Id.String(), c.Seats[0].Token
	stream := openEvStream(t, s.URL, "/v1/games/"+id+"/events", bearer(token)...)
	// Whoever starts, Ada's turn comes (the computer moves at once when it starts).
	g := waitFor(t, s, id, botGameTimeout, func(g client.Game) bool { return g.Turn != nil && g.Turn.ToAct[0] == 0 })
	// Ada plays her whole turn: a draw of a card she can play leaves her to play it or pass (PR-5).
	var mine client.ActionResult
	for actions := 0; actions == 0 || adaToAct(mine.Game); actions++ {
		if actions == 10 {
			t.Fatal("Ada's turn did not end within 10 of her actions")
		}
		var legal client.LegalActions
		s.Get("/v1/games/"+id+"/legal-actions", bearer(token)...).JSON(t, &legal)
		var entries []struct {
			Action json.RawMessage `json:"action"`
		}
		if err := json.Unmarshal(legal.Actions, &entries); err != nil || len(entries) == 0 {
			t.Fatalf("legal actions %s: %v", legal.Actions, err)
		}
		resp := s.Post("/v1/games/"+id+"/actions", entries[0].Action, bearer(token)...)
		if resp.StatusCode != http.StatusCreated {
			t.Fatalf("Ada's action = %d: %s", resp.StatusCode, resp.Body)
		}
		resp.JSON(t, &mine)
	}
	// Ada's entry, then (once her turn is over) the computer's, arrive on her stream.
	deadline := time.Now().Add(botGameTimeout)
	for time.Now().Before(deadline) {
		ev := stream.next(t, botGameTimeout)
		if ev.Event != "action" {
			continue
		}
		_, e := ev.action(t)
		if e.Seq <= mine.Entry.Seq || e.Seat == nil || *e.Seat == 0 {
			continue
		}
		if *e.Seat != 1 || e.Bot == nil || *e.Bot != client.BotLevelExpert {
			t.Fatalf("entry %d on the stream: seat %v bot %v, want seat 1 marked expert", e.Seq, e.Seat, e.Bot)
		}
		h := history(t, s, id)
		if int64(len(h)) <= e.Seq || h[e.Seq].Bot == nil || *h[e.Seq].Seat != 1 {
			t.Fatalf("the computer's entry %d is not in the history as on the stream", e.Seq)
		}
		if after := waitFor(t, s, id, time.Second, func(client.Game) bool { return true }); after.Version < g.Version+2 {
			t.Errorf("version %d before Ada's move, %d after the computer's", g.Version, after.Version)
		}
		return
	}
	t.Fatal("the computer's move never came on the stream")
}

// adaToAct reports whether seat 0 is to act in g.
func adaToAct(g client.Game) bool {
	return g.Status == client.GameStatusActive && g.Turn != nil && slices.Contains(g.Turn.ToAct, 0)
}

// A computer's seat has no token, and no token acts for it: Ada's is refused out of turn, the
// creator's holds no seat. The computer moves once its delay has passed.
func TestNoTokenActsForAComputer(t *testing.T) {
	t.Parallel()
	db := repotest.NewDB(t)
	clock := playclock.New(time.Now())
	s := startWithBotsOn(t, db, clock)
	// A minute's delay, on a clock that stands still, keeps the computer from moving while the test
	// tries to move for it. The roll-off decides who starts (PC-2): games are made until the
	// computer is to roll.
	var c client.CreatedGame
	for range 30 {
		c = createGame(t, s, map[string]any{"game": "prime-climb", "options": map[string]any{"bot_delay_ms": 60000},
			"players": []map[string]string{{"bot": "random"}, {"name": "Ada"}}})
		if c.Game.Turn.ToAct[0] == 0 {
			break
		}
	}
	if c.Game.Turn.ToAct[0] != 0 {
		t.Fatal("Ada won 30 roll-offs in a row (PC-2)")
	}
	if len(c.Seats) != 1 || c.Seats[0].Seat != 1 {
		t.Fatalf("seat tokens = %+v, want Ada's (seat 1) alone", c.Seats)
	}
	id := c.Game.Id.String()
	for name, token := range map[string]string{"Ada": c.Seats[0].Token, "the creator": c.CreatorToken} {
		resp := s.Post("/v1/games/"+id+"/actions", []byte(`{"type":"roll"}`), bearer(token)...)
		if resp.StatusCode < 400 || resp.StatusCode >= 500 {
			t.Errorf("%s rolling for the computer = %d, want a refusal: %s", name, resp.StatusCode, resp.Body)
		}
	}
	if g := waitFor(t, s, id, time.Second, func(client.Game) bool { return true }); g.Version != c.Game.Version {
		t.Errorf("version %d after refused actions, was %d", g.Version, c.Game.Version)
	}
	stream := openEvStream(t, s.URL, "/v1/games/"+id+"/events?since=0")
	clock.Advance(time.Minute - time.Millisecond)
	if acted, err := newServiceOn(db, games.All(), clock).ActForDueBot(context.Background()); acted || err != nil {
		t.Fatalf("a moment before its delay passed, the computer was due (%v)", err)
	}
	clock.Advance(time.Millisecond)
	if _, e := stream.next(t, evWait).action(t); e.Seat == nil || *e.Seat != 0 || e.Bot == nil || !e.CreatedAt.Equal(clock.Now()) {
		t.Errorf("entry %d by seat %v (bot %v) at %s, want the computer's roll when its minute passed at %s", e.Seq, e.Seat, e.Bot, e.CreatedAt, clock.Now())
	}
}

// Two instances on one database, each with its worker, play games of computers: each step is
// played once (one entry per seq, one version per entry), whichever instance plays it.
func TestTwoInstancesPlayEachStepOnce(t *testing.T) {
	t.Parallel()
	c := newEvCluster(t, testConfig())
	stopA, stopB := runBots(c.dbA), runBots(c.dbB)
	defer stopA()
	defer stopB()
	var ids []string
	for range 3 {
		created := createGame(t, c.a, map[string]any{"game": "primed", "options": map[string]any{"bot_delay_ms": 0},
			"players": []map[string]string{{"bot": "random"}, {"bot": "greedy"}, {"bot": "expert"}}})
		ids = append(ids, created.Game.Id.String())
	}
	for _, id := range ids {
		g := waitFor(t, c.b, id, botGameTimeout, finished)
		_, entries := checkStoredFold(t, c.dbA, id)
		for i := 1; i < len(entries); i++ {
			if entries[i].Version != entries[i-1].Version+1 {
				t.Errorf("game %s: entry %d at version %d after entry %d at %d", id, i, entries[i].Version, i-1, entries[i-1].Version)
			}
		}
		if last := entries[len(entries)-1]; last.Version != g.Version {
			t.Errorf("game %s: last entry at version %d, game at %d", id, last.Version, g.Version)
		}
		attempts, err := c.dbA.Games().Attempts(context.Background(), id)
		if err != nil || len(attempts) != 0 {
			t.Errorf("game %s: %d refused actions (%v), want none", id, len(attempts), err)
		}
	}
}

// runBots runs a worker for the computer players over db, as an instance does; stop ends it.
func runBots(db *repo.DB) (stop func()) { return runBotsOn(db, nil) }

// runBotsOn is runBots with the worker reading clock (nil: the system clock).
func runBotsOn(db *repo.DB, clock play.Clock) (stop func()) {
	return runBotsOf(newServiceOn(db, games.All(), clock))
}

// runBotsOf runs service's worker for computer players; stop ends it.
func runBotsOf(service *play.Service) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		service.RunBots(ctx, quietLogger())
	}()
	return func() {
		cancel()
		<-done
	}
}

// A lobby may seat computers at once; people join the other seats.
func TestLobbyWithAComputer(t *testing.T) {
	t.Parallel()
	db := repotest.NewDB(t)
	s := startWithBots(t, db)
	c := createGame(t, s, map[string]any{"game": "primed", "public": true, "seats": 2, "options": map[string]any{"hints": false},
		"players": []map[string]string{{"bot": "greedy"}}})
	if c.Game.Status != client.GameStatusLobby || len(c.Game.Seats) != 1 || c.Game.Seats[0].Bot == nil || len(c.Seats) != 0 {
		t.Fatalf("lobby = %+v, seat tokens %+v", c.Game, c.Seats)
	}
	id := c.Game.Id.String()
	if resp := s.Post("/v1/games/"+id+"/players", map[string]string{"name": "Ben"}); resp.StatusCode != http.StatusCreated {
		t.Fatalf("join = %d: %s", resp.StatusCode, resp.Body)
	}
	if resp := s.Post("/v1/games/"+id+"/start", nil, bearer(c.CreatorToken)...); resp.StatusCode != http.StatusOK {
		t.Fatalf("start = %d: %s", resp.StatusCode, resp.Body)
	}
	g := waitFor(t, s, id, time.Second, func(client.Game) bool { return true })
	var options map[string]any
	if err := json.Unmarshal(g.Options, &options); err != nil || options["hints"] != false || options["bot_delay_ms"] != 800.0 {
		t.Errorf("options = %s, want hints false and the default delay", g.Options)
	}
	if g.Seats[0].Bot == nil || *g.Seats[0].Bot != client.BotLevelGreedy || g.Seats[1].Bot != nil || g.Seats[1].Name != "Ben" {
		t.Errorf("seats = %+v", g.Seats)
	}
}

func TestBadComputerPlayersAndSettingsAreRefused(t *testing.T) {
	t.Parallel()
	s := startWithBots(t, repotest.NewDB(t))
	two := []map[string]any{{"name": "Ada"}, {"bot": "expert"}}
	cases := map[string]struct {
		body any
		code string
	}{
		"unknown level":        {map[string]any{"game": "primed", "players": []map[string]any{{"name": "Ada"}, {"bot": "genius"}}}, "invalid"},
		"bot and student":      {map[string]any{"game": "primed", "players": []map[string]any{{"name": "Ada"}, {"bot": "expert", "student_id": "00000000-0000-0000-0000-000000000000"}}}, "invalid"},
		"delay too long":       {map[string]any{"game": "primed", "options": map[string]any{"bot_delay_ms": 60001}, "players": two}, "invalid_options"},
		"negative delay":       {map[string]any{"game": "prime-climb", "options": map[string]any{"bot_delay_ms": -1}, "players": two}, "invalid_options"},
		"fractional delay":     {map[string]any{"game": "prime-climb", "options": map[string]any{"bot_delay_ms": 1.5}, "players": two}, "invalid_options"},
		"hints not a boolean":  {map[string]any{"game": "primed", "options": map[string]any{"hints": "yes"}, "players": two}, "invalid_options"},
		"people in a lobby":    {map[string]any{"game": "primed", "seats": 3, "players": two}, "invalid"},
		"more bots than seats": {map[string]any{"game": "primed", "seats": 2, "players": []map[string]any{{"bot": "expert"}, {"bot": "expert"}, {"bot": "expert"}}}, "invalid_seat_count"},
		"bot named like Ada":   {map[string]any{"game": "primed", "players": []map[string]any{{"name": "Ada"}, {"bot": "expert", "name": "ADA"}}}, "name_taken"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			resp := s.Post("/v1/games", tc.body)
			if resp.StatusCode != http.StatusBadRequest {
				t.Fatalf("status = %d, want 400: %s", resp.StatusCode, resp.Body)
			}
			if p := resp.Problem(t); p.Code != tc.code || p.Detail == "" {
				t.Errorf("problem = %+v, want code %s with a detail", p, tc.code)
			}
		})
	}
}

// A teacher sets every student practising against the computer: groups of one, each with an
// expert, hints off. The computer's seat is marked, the students hold theirs, and the computer
// plays its turns while the student's turn waits for the student.
func TestClassroomPractiseAgainstTheComputer(t *testing.T) {
	t.Parallel()
	db := repotest.NewDB(t)
	s := startWithBots(t, db)
	class := newClassroomOn(t, s, "Class 3C", "Ada", "Ben")
	resp := s.Post("/v1/classrooms/"+class.id+"/games", map[string]any{"game": "prime-climb", "group_size": 1,
		"bots": []string{"expert"}, "options": map[string]any{"hints": false, "bot_delay_ms": 0}}, bearer(class.teacher)...)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("classroom games = %d: %s", resp.StatusCode, resp.Body)
	}
	var created client.ClassroomGames
	resp.JSON(t, &created)
	if len(created.Games) != 2 {
		t.Fatalf("%d games for two students, want 2", len(created.Games))
	}
	for _, g := range created.Games {
		if len(g.Seats) != 2 || g.Seats[0].StudentId == nil || g.Seats[1].Bot == nil || *g.Seats[1].Bot != client.BotLevelExpert || g.Seats[1].Name != "Computer (expert)" {
			t.Fatalf("seats = %+v, want a student then the expert", g.Seats)
		}
		var options map[string]any
		if err := json.Unmarshal(g.Options, &options); err != nil || options["hints"] != false {
			t.Errorf("options = %s, want hints off", g.Options)
		}
		// Whoever won the roll-off (PC-2), the student is to act once the computer has had its turn.
		after := waitFor(t, s, g.Id.String(), botGameTimeout, func(g client.Game) bool { return g.Turn != nil && g.Turn.ToAct[0] == 0 }, bearer(class.teacher)...)
		if after.Status != client.GameStatusActive {
			t.Errorf("game %s is %s", g.Id, after.Status)
		}
	}
	// The class's list of games marks the computer's seat too.
	var list client.GameList
	s.Get("/v1/classrooms/"+class.id+"/games", bearer(class.teacher)...).JSON(t, &list)
	if len(list.Items) != 2 {
		t.Fatalf("%d games listed, want 2", len(list.Items))
	}
	for _, g := range list.Items {
		if len(g.BotSeats) != 1 || g.BotSeats[0].Seat != 1 || g.BotSeats[0].Bot != client.BotLevelExpert || len(g.Players) != 2 {
			t.Errorf("listed game %s: players %v, bot seats %+v; want seat 1 the expert's", g.Id, g.Players, g.BotSeats)
		}
	}
	for name, body := range map[string]map[string]any{
		"two computers in groups of four": {"game": "prime-climb", "group_size": 3, "bots": []string{"expert", "random"}},
		"a level that does not exist":     {"game": "prime-climb", "group_size": 1, "bots": []string{"genius"}},
	} {
		if resp := s.Post("/v1/classrooms/"+class.id+"/games", body, bearer(class.teacher)...); resp.StatusCode != http.StatusBadRequest {
			t.Errorf("%s = %d, want 400: %s", name, resp.StatusCode, resp.Body)
		}
	}
}
