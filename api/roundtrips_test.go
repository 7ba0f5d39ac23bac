package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"primegames.dev/client"
	"primegames/api/apitest"
	"primegames/repo"
	"primegames/repo/repotest"
)

// Every database round trip of the hottest requests is counted through a pgx tracer, so that one
// more query on the way fails here rather than in a benchmark. Issue 16's budget: at most 3 round
// trips per accepted action and 2 per GET /v1/games/{id}; since migration 00027 an accepted action
// on a game whose record the instance keeps is one, and a GET of a kept record none (the
// barrier's ping goes on the listening connection, and is counted apart). A classroom token costs
// one round trip of its own, to find whose it is.
func TestRoundTripsPerRequest(t *testing.T) {
	t.Parallel()
	trips := &repotest.RoundTrips{}
	db, _ := repotest.NewDBWithOptions(t, repo.PoolOptions{Tracer: trips, BarrierWait: time.Minute})
	h := &gamesHarness{Server: apitest.Start(t, newServer(t, db)), db: db}
	count := func(what string, want, status int, do func() *apitest.Response) *apitest.Response {
		t.Helper()
		var resp *apitest.Response
		n, statements := trips.Count(func() { resp = do() })
		if resp.StatusCode != status {
			t.Fatalf("%s = %d, want %d: %s", what, resp.StatusCode, status, resp.Body)
		}
		if n != want {
			t.Errorf("%s: %d round trips, want %d; statements:\n  %s", what, n, want, strings.Join(statements, "\n  "))
		}
		return resp
	}

	// The instance listens from its start, but connects when it can: an action is one round trip
	// only on a record kept while it listens, and every read below counts on it.
	heardAll := func() {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := db.CatchUp(ctx); err != nil {
			t.Fatal(err)
		}
	}
	heardAll()
	c := h.create(t, map[string]any{"game": "prime-climb", "players": names(2)})
	id := c.Game.Id.String()
	token, seat := tokenToAct(t, h, c)
	other := c.Seats[1-seat].Token
	key := randomKey()
	// The game's record is kept (the harness read the game to find whose turn it is): the check
	// that the game is as the record has it, with no entry kept under the key, then the writes.
	first := count("keyed roll", 1, http.StatusCreated, func() *apitest.Response {
		return h.act(t, id, token, map[string]string{"type": "roll"}, "Idempotency-Key", key)
	})
	// On the kept record (after the roll) a roll is refused, which is not trusted; then as before:
	// the lock and the kept result, COMMIT, the history the answer is rebuilt from.
	retry := count("retried roll", 3, http.StatusCreated, func() *apitest.Response {
		return h.act(t, id, token, map[string]string{"type": "roll"}, "Idempotency-Key", key)
	})
	if !bytes.Equal(first.Body, retry.Body) {
		t.Errorf("the retry answered\n%s\nnot\n%s", retry.Body, first.Body)
	}
	// Refused on the kept record, so not trusted: the lock; the attempt recorded and COMMIT.
	// A refusal has sentences: a request that names no language the service speaks looks up the
	// game's classroom's default language, once in a while (api/language.go's languageCache).
	count("refused roll", 3, http.StatusConflict, func() *apitest.Response {
		return h.act(t, id, other, map[string]string{"type": "roll"})
	})
	count("refused roll again", 2, http.StatusConflict, func() *apitest.Response {
		return h.act(t, id, other, map[string]string{"type": "roll"})
	})
	move := legalActions(t, h, id, token)[0]
	count("move", 1, http.StatusCreated, func() *apitest.Response { return h.act(t, id, token, move) })

	// The record the move wrote is kept once its announcement is heard (repo/records.go), so a GET
	// sends only the barrier's ping, which shows that no change is unheard; the listening
	// connection sends it, so the pool makes no round trip. (Under load one ping answers every
	// read that waits for it.)
	heardAll()
	pings := func(do func()) int64 {
		before := db.RecordCacheStats().Pings
		do()
		return db.RecordCacheStats().Pings - before
	}
	for _, caller := range []struct{ name, token string }{{"seat", token}, {"creator", c.CreatorToken}, {"anonymous", ""}} {
		var headers []string
		if caller.token != "" {
			headers = bearer(caller.token)
		}
		for _, read := range []string{"", " again"} {
			var resp *apitest.Response
			var n int
			var statements []string
			sent := pings(func() { n, statements = trips.Count(func() { resp = h.Get("/v1/games/"+id, headers...) }) })
			if resp.StatusCode != http.StatusOK || n != 0 || sent != 1 {
				t.Errorf("GET game as %s%s = %d: %d round trips of the pool and %d pings, want none and 1:\n  %s", caller.name, read, resp.StatusCode,
					n, sent, strings.Join(statements, "\n  "))
			}
		}
	}

	class := h.newClassroom(t, "4C", "Ada", "Ben")
	students := []string{class.students["Ada"].id, class.students["Ben"].id}
	var cg client.CreatedGame
	h.Post("/v1/games", map[string]any{"game": "prime-climb", "players": []map[string]string{{"student_id": students[0]}, {"student_id": students[1]}}},
		bearer(class.teacher)...).JSON(t, &cg)
	cid := cg.Game.Id.String()
	g := h.game(t, cid, class.teacher)
	student := class.students[[]string{"Ada", "Ben"}[g.Turn.ToAct[0]]].token
	// The student's token looked up, then as a seat token on the kept record.
	count("student's keyed roll", 2, http.StatusCreated, func() *apitest.Response {
		return h.act(t, cid, student, map[string]string{"type": "roll"}, "Idempotency-Key", randomKey())
	})
	studentMove := legalActions(t, h, cid, student)[0]
	count("student's move", 2, http.StatusCreated, func() *apitest.Response { return h.act(t, cid, student, studentMove) })
	heardAll()
	for name, token := range map[string]string{"teacher": class.teacher, "student": student} {
		if sent := pings(func() {
			count("GET classroom game as "+name, 1, http.StatusOK, func() *apitest.Response { return h.Get("/v1/games/"+cid, bearer(token)...) })
		}); sent != 1 {
			t.Errorf("GET classroom game as %s: %d pings, want 1", name, sent)
		}
	}
}

// A retry gets the very bytes of the first answer even once the game has moved on, the action it
// sent being echoed as sent (not as Postgres normalises it), and an action's key is kept on its
// history entry as two hashes, small whatever the state, with no row of its own.
func TestRetriedActionAnswersTheSameBytesAfterTheGameMovedOn(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	c := h.create(t, map[string]any{"game": "prime-climb", "players": names(2)})
	id := c.Game.Id.String()
	type sent struct {
		token, key string
		body       []byte
		resp       *apitest.Response
	}
	var posted []sent
	post := func(token string, body []byte) {
		t.Helper()
		s := sent{token: token, key: randomKey(), body: body}
		s.resp = h.act(t, id, token, body, "Idempotency-Key", s.key)
		if s.resp.StatusCode != http.StatusCreated {
			t.Fatalf("POST %s = %d %s", body, s.resp.StatusCode, s.resp.Body)
		}
		posted = append(posted, s)
	}
	for range 3 { // three turns: a roll and a move each, the move's keys in an order of their own
		token, _ := tokenToAct(t, h, c)
		post(token, []byte(`{ "type" : "roll" }`))
		post(token, scrambled(t, legalActions(t, h, id, token)[0]))
	}
	for _, s := range posted {
		retry := h.act(t, id, s.token, s.body, "Idempotency-Key", s.key)
		if retry.StatusCode != http.StatusCreated || !bytes.Equal(retry.Body, s.resp.Body) || retry.Header.Get("ETag") != s.resp.Header.Get("ETag") {
			t.Errorf("retry of %s = %d ETag %s\n%s\nwant ETag %s\n%s", s.body, retry.StatusCode, retry.Header.Get("ETag"), retry.Body,
				s.resp.Header.Get("ETag"), s.resp.Body)
		}
	}
	var keyed, ownRows, biggest int
	if err := h.db.Pool.QueryRow(context.Background(), `SELECT count(*), coalesce(max(pg_column_size(key_lookup) + pg_column_size(key_request_hash)), 0),
			(SELECT count(*) FROM idempotency_keys)
		FROM actions WHERE game_id = $1 AND key_lookup IS NOT NULL`, id).Scan(&keyed, &biggest, &ownRows); err != nil {
		t.Fatal(err)
	}
	if keyed != len(posted) || ownRows != 0 {
		t.Errorf("%d history entries carry a key and idempotency_keys has %d rows, want %d and 0", keyed, ownRows, len(posted))
	}
	if biggest > 200 {
		t.Errorf("an action's key takes %d bytes, want at most 200", biggest)
	}
	t.Logf("largest key kept with an action: %d bytes", biggest)
}

// legalActions are the actions (without their descriptions) the token's seat may take now.
func legalActions(t *testing.T, h *gamesHarness, id, token string) []json.RawMessage {
	t.Helper()
	var legal struct {
		Actions []struct{ Action json.RawMessage }
	}
	resp := h.Get("/v1/games/"+id+"/legal-actions", bearer(token)...)
	resp.JSON(t, &legal)
	if len(legal.Actions) == 0 {
		t.Fatalf("no legal action: %s", resp.Body)
	}
	var actions []json.RawMessage
	for _, a := range legal.Actions {
		actions = append(actions, a.Action)
	}
	return actions
}

// scrambled writes an action object with its keys in reverse order and spaces around them, as a
// client may; Postgres keeps it in an order and form of its own.
func scrambled(t *testing.T, action json.RawMessage) []byte {
	t.Helper()
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(action, &fields); err != nil {
		t.Fatal(err)
	}
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	slices.Reverse(keys)
	var b bytes.Buffer
	b.WriteString("{ ")
	for i, k := range keys {
		if i > 0 {
			b.WriteString(" , ")
		}
		name, _ := json.Marshal(k)
		b.Write(name)
		b.WriteString(" : ")
		b.Write(fields[k])
	}
	b.WriteString(" }")
	return b.Bytes()
}
