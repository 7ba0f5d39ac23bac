package api_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"testing"
	"time"

	"primegames.dev/client"
	"primegames/api/apitest"
	"primegames/play/playclock"
)

// A player's stream, GET /v1/me/events: the events of all a player's games on one stream, read on
// instance B while the games are played through A. playerEvents keeps what a stream should carry,
// worked out from the answers of the actions (their turn.to_act), and checks what it does carry.

// playerEventKey is one event of a player's stream.
type playerEventKey struct {
	game  string
	seq   int64
	event string
}

func (k playerEventKey) String() string {
	return fmt.Sprintf("%s of %s at %d", k.event, k.game[:8], k.seq)
}

// playerEvents is what one player's stream should carry and what it has carried.
type playerEvents struct {
	t        *testing.T
	token    string
	want     []playerEventKey
	got      map[playerEventKey]int
	lastID   string
	log      []loggedEvent   // every event read, in order
	seatOf   map[string]int  // game -> the player's seat
	wasToAct map[string]bool // game -> the player's seat was to act after its last entry
}

func newPlayerEvents(t *testing.T, token string) *playerEvents {
	return &playerEvents{t: t, token: token, got: map[playerEventKey]int{}, seatOf: map[string]int{}, wasToAct: map[string]bool{}}
}

func (pe *playerEvents) expect(game string, seq int64, event string) {
	pe.want = append(pe.want, playerEventKey{game, seq, event})
}

// sit records the player's seat in g, which has just started: game_started, and your_turn when the
// player's seat acts first.
func (pe *playerEvents) sit(g *evGame) {
	pe.t.Helper()
	seat := slices.Index(g.tokens, pe.token)
	if seat < 0 {
		pe.t.Fatalf("the player holds no seat in game %s", g.id)
	}
	pe.seatOf[g.id] = seat
	pe.expect(g.id, 0, "game_started")
	pe.acted(g)
}

// acted records what g's last entry means for the player.
func (pe *playerEvents) acted(g *evGame) {
	seat, ok := pe.seatOf[g.id]
	if !ok {
		return
	}
	toAct := g.status == "active" && g.toAct == seat
	if toAct && !pe.wasToAct[g.id] {
		pe.expect(g.id, g.seq, "your_turn")
	}
	pe.wasToAct[g.id] = toAct
}

// read takes events from s until every expected one has come, failing on any other and on any
// that comes twice; it returns the events read.
func (pe *playerEvents) read(s *evStream) []client.PlayerEvent {
	pe.t.Helper()
	var read []client.PlayerEvent
	for !pe.caught() {
		e := s.next(pe.t, evWait)
		var data client.PlayerEvent
		if err := json.Unmarshal([]byte(e.Data), &data); err != nil {
			pe.t.Fatalf("event %s: %v: %s", e.Event, err, e.Data)
		}
		k := playerEventKey{data.GameId.String(), data.Seq, e.Event}
		if string(data.Event) != e.Event || e.ID == "" {
			pe.t.Fatalf("event %q with id %q carries %s", e.Event, e.ID, e.Data)
		}
		if !slices.Contains(pe.want, k) {
			pe.t.Fatalf("unexpected event %v: %s (want %v)", k, e.Data, pe.want)
		}
		if pe.got[k]++; pe.got[k] > 1 {
			pe.t.Fatalf("event %v twice", k)
		}
		if data.Seat != pe.seatOf[k.game] {
			pe.t.Errorf("event %v for seat %d, the player's is %d", k, data.Seat, pe.seatOf[k.game])
		}
		pe.lastID = e.ID
		pe.log = append(pe.log, loggedEvent{e.ID, k})
		read = append(read, data)
	}
	return read
}

func (pe *playerEvents) caught() bool {
	for _, k := range pe.want {
		if pe.got[k] == 0 {
			return false
		}
	}
	return true
}

// loggedEvent is an event's id and what it was.
type loggedEvent struct {
	id  string
	key playerEventKey
}

// quiet checks that s carries nothing more for a while.
func quiet(t *testing.T, s *evStream, wait time.Duration) {
	t.Helper()
	deadline := time.After(wait)
	for {
		select {
		case e := <-s.events:
			if e.Comment == "" {
				t.Fatalf("unexpected event %s: %s", e.Event, e.Data)
			}
		case <-deadline:
			return
		}
	}
}

// playOn plays n moves of g and records them for each player's events.
func playOn(g *evGame, n int, players ...*playerEvents) {
	for range n {
		if g.status != "active" {
			return
		}
		g.play()
		for _, pe := range players {
			pe.acted(g)
		}
	}
}

// A student's stream on B carries game_started, your_turn once per turn and game_ended for all the
// student's games played through A, games created or started after it opened included, and never
// another student's game; Last-Event-ID resumes it, on either instance, missing and repeating
// nothing.
func TestMyEventStreamOfAStudent(t *testing.T) {
	t.Parallel()
	c := newEvCluster(t, testConfig())
	room := newEvClassroom(t, c.a, "Ada", "Ben", "Cy", "Di")
	ada, ben, cy, di := room.students[0], room.students[1], room.students[2], room.students[3]
	adaToken := room.tokenOf[ada]
	stream := openEvStream(t, c.b.URL, "/v1/me/events", bearer(adaToken)...)
	events := newPlayerEvents(t, adaToken)

	g1 := room.newGame(ada, ben)
	events.sit(g1)
	g2 := room.newGame(cy, ada)
	events.sit(g2)
	others := room.newGame(cy, di) // never on Ada's stream
	for range 4 {
		playOn(g1, 1, events)
		playOn(g2, 1, events)
		playOn(others, 1, events)
	}
	events.read(stream)
	for _, g := range []*evGame{g1, g2} {
		if !slices.Contains(events.want, playerEventKey{g.id, 0, "your_turn"}) && !slices.ContainsFunc(events.want, func(k playerEventKey) bool { return k.game == g.id && k.seq > 0 && k.event == "your_turn" }) {
			t.Fatalf("Ada had no turn in game %s: the test checks nothing", g.id)
		}
	}

	// A lobby of the classroom that Ada joins: its start is announced.
	lobby := classroomLobby(t, c.a, room, room.tokenOf[di], adaToken)
	events.sit(lobby)
	playOn(lobby, 3, events)
	events.read(stream)

	// The games end: Ben resigns g1 (Ada wins, G-3), the teacher aborts g2.
	postResign(t, c.a, g1.id, room.tokenOf[ben])
	events.expect(g1.id, g1.seq+1, "game_ended")
	if resp := c.a.Post(g2.path("/abort"), nil, bearer(room.teacher)...); resp.StatusCode != http.StatusOK {
		t.Fatalf("abort = %d: %s", resp.StatusCode, resp.Body)
	}
	events.expect(g2.id, g2.seq, "game_ended")
	for _, data := range events.read(stream) {
		switch {
		case data.Event != client.PlayerEventKindGameEnded:
		case data.GameId.String() == g1.id:
			if data.Status != "finished" || data.Winners == nil || !slices.Equal(*data.Winners, []int{events.seatOf[g1.id]}) {
				t.Errorf("g1 ended %s with winners %v, want Ada's seat %d", data.Status, data.Winners, events.seatOf[g1.id])
			}
		case data.Status != "aborted":
			t.Errorf("g2 ended %s, want aborted", data.Status)
		}
	}
	quiet(t, stream, 300*time.Millisecond)

	// Disconnected, Ada misses turns of a game and all of a new one; she resumes on B.
	stream.close()
	resumeAt := events.lastID
	sentBefore := len(events.want)
	playOn(lobby, 5, events)
	g3 := room.newGame(ada, cy)
	events.sit(g3)
	playOn(g3, 3, events)
	resumed := openEvStream(t, c.b.URL, "/v1/me/events", append(bearer(adaToken), "Last-Event-ID", resumeAt)...)
	events.read(resumed)
	quiet(t, resumed, 300*time.Millisecond)
	resumed.close()
	if len(events.want) == sentBefore {
		t.Fatal("nothing happened while Ada was away: the resumption tests nothing")
	}

	// The same id on the other instance, through access_token: the same events again, each once.
	again := newPlayerEvents(t, adaToken)
	again.want, again.seatOf = events.want[sentBefore:], events.seatOf
	onA := openEvStream(t, c.a.URL, "/v1/me/events?access_token="+adaToken, "Last-Event-ID", resumeAt)
	again.read(onA)
	quiet(t, onA, 300*time.Millisecond)
	onA.close()

	// Resuming after any event, on either instance, gives exactly the events that followed it:
	// ids inside an entry (game_started, then your_turn, of one start) included.
	log := events.log
	if len(log) != len(events.want) {
		t.Fatalf("%d events read, %d expected", len(log), len(events.want))
	}
	for i, at := range log {
		server := []*apitest.Server{c.a, c.b}[i%2]
		after := newPlayerEvents(t, adaToken)
		after.seatOf = events.seatOf
		for _, l := range log[i+1:] {
			after.want = append(after.want, l.key)
		}
		s := openEvStream(t, server.URL, "/v1/me/events", append(bearer(adaToken), "Last-Event-ID", at.id)...)
		after.read(s)
		quiet(t, s, 50*time.Millisecond)
		s.close()
	}
}

// classroomLobby makes a lobby of two seats in the classroom, seats the two students in it and
// starts it, through s.
func classroomLobby(t *testing.T, s *apitest.Server, room *evClassroom, tokens ...string) *evGame {
	t.Helper()
	resp := s.Post("/v1/games", map[string]any{"game": "primed", "seats": len(tokens)}, bearer(room.teacher)...)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("lobby = %d: %s", resp.StatusCode, resp.Body)
	}
	var created client.CreatedGame
	resp.JSON(t, &created)
	g := &evGame{t: t, s: s, id: created.Game.Id.String(), creator: room.teacher, kind: "primed", rng: rand.New(rand.NewPCG(uint64(len(tokens)), 5)),
		posted: map[int64]json.RawMessage{}, versions: map[int64]int64{}}
	for _, token := range tokens {
		if resp := s.Post(g.path("/players"), map[string]any{}, bearer(token)...); resp.StatusCode != http.StatusCreated {
			t.Fatalf("join = %d: %s", resp.StatusCode, resp.Body)
		}
		g.tokens = append(g.tokens, token)
	}
	resp = s.Post(g.path("/start"), nil, bearer(room.teacher)...)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("start = %d: %s", resp.StatusCode, resp.Body)
	}
	var body client.Game
	resp.JSON(t, &body)
	g.update(body)
	return g
}

// A seat token's stream carries its own game only, here Prime Climb, where a turn is a roll then a
// move: one your_turn per turn.
func TestMyEventStreamOfASeatToken(t *testing.T) {
	t.Parallel()
	c := newEvCluster(t, testConfig())
	g := newEvGame(t, c.a, "prime-climb", nil, 2, 21)
	other := newEvGame(t, c.a, "prime-climb", nil, 2, 22)
	stream := openEvStream(t, c.b.URL, "/v1/me/events", bearer(g.tokens[1])...)
	events := newPlayerEvents(t, g.tokens[1])
	events.seatOf[g.id], events.wasToAct[g.id] = 1, g.toAct == 1
	// Actions until seat 1 has had two turns (doubles give seat 0 more moves: how many depends on
	// the game's dice).
	turns := 0
	for n := 0; n < 60 && turns < 2; n++ {
		wasToAct := events.wasToAct[g.id]
		playOn(g, 1, events)
		playOn(other, 1, events)
		if events.wasToAct[g.id] && !wasToAct {
			turns++
		}
	}
	if turns < 2 || len(events.want) != turns {
		t.Fatalf("%d turns of seat 1, %d events expected: the test checks too little", turns, len(events.want))
	}
	events.read(stream)
	postResign(t, c.a, g.id, g.tokens[0])
	events.expect(g.id, g.seq+1, "game_ended")
	events.read(stream)

	// The other player asks for a rematch: the token acts in it (one seat on), so the stream,
	// which follows no classroom, learns of it and carries its start.
	resp := c.a.Post(g.path("/rematch"), nil, bearer(g.tokens[0])...)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("rematch = %d: %s", resp.StatusCode, resp.Body)
	}
	var body client.Game
	resp.JSON(t, &body)
	rematch := &evGame{t: t, s: c.a, id: body.Id.String(), kind: "prime-climb", rng: rand.New(rand.NewPCG(23, 5)),
		tokens: []string{g.tokens[1], g.tokens[0]}, posted: map[int64]json.RawMessage{}, versions: map[int64]int64{}}
	rematch.update(body)
	events.sit(rematch)
	playOn(rematch, 4, events)
	events.read(stream)
	quiet(t, stream, 300*time.Millisecond)
}

// Who may open a player's stream, answered before it starts as a problem.
func TestMyEventStreamRefusals(t *testing.T) {
	t.Parallel()
	c := newEvCluster(t, testConfig())
	room := newEvClassroom(t, c.a, "Ada")
	for _, tc := range []struct {
		name    string
		headers []string
		status  int
		code    string
	}{
		{"no token", nil, http.StatusUnauthorized, "unauthorized"},
		{"a teacher token", bearer(room.teacher), http.StatusForbidden, "forbidden"},
		{"a token of no seat", bearer("pgs_nobody"), http.StatusUnauthorized, "unauthorized"},
		{"a Last-Event-ID of another stream", append(bearer(room.tokenOf[room.students[0]]), "Last-Event-ID", "7"), http.StatusBadRequest, "invalid_last_event_id"},
		{"a Last-Event-ID with a bad game", append(bearer(room.tokenOf[room.students[0]]), "Last-Event-ID", "1:1764613000000;nope:3:2"), http.StatusBadRequest, "invalid_last_event_id"},
		{"a Last-Event-ID with a bad event", append(bearer(room.tokenOf[room.students[0]]), "Last-Event-ID", "1:1764613000000;5f0c5c8e-8d7e-4a52-9a43-0d2b1f6c7e11:3:9"), http.StatusBadRequest, "invalid_last_event_id"},
	} {
		resp := c.b.Get("/v1/me/events", tc.headers...)
		if resp.StatusCode != tc.status || resp.Problem(t).Code != tc.code {
			t.Errorf("%s: %d %s, want %d %s", tc.name, resp.StatusCode, resp.Body, tc.status, tc.code)
		}
	}
}

// timed_out (G-4): the server acts for a seat whose turn clock ran out, and the seat's stream, on
// the other instance than the worker's, says so before the other seat's turn. The clock runs out
// on the test's clock, moved once the stream is open.
func TestMyEventStreamTimedOut(t *testing.T) {
	t.Parallel()
	clock := playclock.New(time.Now())
	c := newEvClusterOn(t, testConfig(), clock)
	t.Cleanup(runBotsOn(c.dbA, clock))
	created := createGame(t, c.a, map[string]any{"game": "primed", "players": names(2), "options": map[string]any{"turn_seconds": 3}})
	g := &evGame{t: t, s: c.a, id: created.Game.Id.String(), kind: "primed"}
	for _, st := range created.Seats {
		g.tokens = append(g.tokens, st.Token)
	}
	g.update(created.Game)
	late := g.toAct
	stream := openEvStream(t, c.b.URL, "/v1/me/events", bearer(g.tokens[late])...)
	clock.Advance(3 * time.Second)
	e := stream.next(t, evWait)
	var data client.PlayerEvent
	if err := json.Unmarshal([]byte(e.Data), &data); err != nil {
		t.Fatal(err)
	}
	if e.Event != "timed_out" || data.GameId.String() != g.id || data.Seat != late || data.Seq != 1 {
		t.Fatalf("first event %s %s, want timed_out of seat %d at entry 1", e.Event, e.Data, late)
	}
	var entries client.HistoryPage
	c.a.Get(g.path("/actions"), bearer(g.tokens[late])...).JSON(t, &entries)
	if len(entries.Items) < 2 || entries.Items[1].Timeout == nil || !*entries.Items[1].Timeout {
		t.Errorf("entry 1 is not marked as a timeout: %+v", entries.Items)
	}
}
