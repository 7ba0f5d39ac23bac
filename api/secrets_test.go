package api_test

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"primegames.dev/client"
	"primegames/api/apitest"
	"primegames/repo/repotest"
)

// lockedBuffer is a log destination that the server's goroutines may share.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// secretsScenario issues every kind of token and uses each, with and without Idempotency-Key, and
// collects the tokens it was given.
type secretsScenario struct {
	t      *testing.T
	s      *apitest.Server
	tokens map[string]string // token -> what it is
}

func (sc *secretsScenario) keep(what, token string) string {
	sc.t.Helper()
	if token == "" {
		sc.t.Fatalf("no %s was issued", what)
	}
	sc.tokens[token] = what
	return token
}

// post sends body and decodes the answer into v, failing unless it is want.
func (sc *secretsScenario) post(path string, body any, want int, v any, headers ...string) {
	sc.t.Helper()
	resp := sc.s.Post(path, body, headers...)
	if resp.StatusCode != want {
		sc.t.Fatalf("POST %s = %d, want %d: %s", path, resp.StatusCode, want, resp.Body)
	}
	if v != nil {
		resp.JSON(sc.t, v)
	}
}

func (sc *secretsScenario) get(path string, want int, headers ...string) {
	sc.t.Helper()
	if resp := sc.s.Get(path, headers...); resp.StatusCode != want {
		sc.t.Fatalf("GET %s = %d, want %d: %s", path, resp.StatusCode, want, resp.Body)
	}
}

// createGame creates a game and keeps its creator and seat tokens.
func (sc *secretsScenario) createGame(body any, headers ...string) client.CreatedGame {
	sc.t.Helper()
	var c client.CreatedGame
	sc.post("/v1/games", body, http.StatusCreated, &c, headers...)
	sc.keep("creator token", c.CreatorToken)
	for _, seat := range c.Seats {
		sc.keep("seat token", seat.Token)
	}
	return c
}

// actOnce makes the first legal move of whoever is to act, with the given headers.
func (sc *secretsScenario) actOnce(gameID string, tokenBySeat func(int) string, headers ...string) {
	sc.t.Helper()
	var g client.Game
	resp := sc.s.Get("/v1/games/"+gameID, bearer(tokenBySeat(0))...)
	resp.JSON(sc.t, &g)
	if g.Turn == nil || len(g.Turn.ToAct) == 0 {
		sc.t.Fatalf("nobody is to act in game %s", gameID)
	}
	token := tokenBySeat(g.Turn.ToAct[0])
	var legal struct {
		Actions []struct {
			Action json.RawMessage `json:"action"`
		} `json:"actions"`
	}
	resp = sc.s.Get("/v1/games/"+gameID+"/legal-actions", bearer(token)...)
	resp.JSON(sc.t, &legal)
	if len(legal.Actions) == 0 {
		sc.t.Fatalf("no legal action in game %s", gameID)
	}
	sc.post("/v1/games/"+gameID+"/actions", []byte(legal.Actions[0].Action), http.StatusCreated, nil, append(bearer(token), headers...)...)
}

// No token the service issues, nor the admin token it is configured with, is kept in plain text in
// any table or written to its log.
func TestNoTokenIsStoredOrLogged(t *testing.T) {
	t.Parallel()
	db := repotest.NewDB(t)
	logs := &lockedBuffer{}
	cfg := testConfig()
	cfg.AdminToken = "adm_" + randomKey()
	srv, err := newAPI(cfg, db, slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
	if err != nil {
		t.Fatal(err)
	}
	s := apitest.Start(t, srv)
	sc := &secretsScenario{t: t, s: s, tokens: map[string]string{}}
	sc.keep("admin token", cfg.AdminToken)
	key := func() []string { return []string{"Idempotency-Key", randomKey()} }

	// A classroom: the admin creates it, students join, the teacher manages it.
	var room client.CreatedClassroom
	sc.post("/v1/classrooms", map[string]string{"name": "4C"}, http.StatusCreated, &room, bearer(cfg.AdminToken)...)
	teacher := sc.keep("teacher token", room.TeacherToken)
	roomPath := "/v1/classrooms/" + room.Classroom.Id.String()
	students := map[string]string{} // name -> token
	ids := map[string]string{}      // name -> id
	for _, name := range []string{"Ada", "Ben", "Cy", "Di"} {
		var joined client.JoinedClassroom
		sc.post("/v1/classrooms/join", map[string]string{"join_code": room.Classroom.JoinCode, "name": name}, http.StatusCreated, &joined)
		students[name], ids[name] = sc.keep("student token", joined.Token), joined.Student.Id.String()
	}
	sc.get(roomPath, http.StatusOK, bearer(teacher)...)
	sc.get(roomPath+"/students", http.StatusOK, bearer(teacher)...)
	sc.post(roomPath+"/join-code", nil, http.StatusOK, nil, bearer(teacher)...)
	if resp := s.Do(s.Request(http.MethodPatch, roomPath+"/students/"+ids["Di"], map[string]string{"name": "Dee"}, bearer(teacher)...)); resp.StatusCode != http.StatusOK {
		t.Fatalf("rename = %d %s", resp.StatusCode, resp.Body)
	}

	// Games outside classrooms: started at once and in a lobby, with and without keys.
	started := sc.createGame(map[string]any{"game": "primed", "players": names(2)}, key()...)
	sc.createGame(map[string]any{"game": "prime-climb", "players": names(2)})
	bySeat := func(c client.CreatedGame) func(int) string {
		return func(seat int) string { return c.Seats[seat].Token }
	}
	sc.actOnce(started.Game.Id.String(), bySeat(started), "Idempotency-Key", "move-1")
	sc.actOnce(started.Game.Id.String(), bySeat(started))
	lobby := sc.createGame(map[string]any{"game": "primed", "public": true, "seats": 2}, key()...)
	var seats [2]client.JoinedGame
	sc.post("/v1/games/"+lobby.Game.Id.String()+"/players", map[string]string{"name": "Eve"}, http.StatusCreated, &seats[0], key()...)
	sc.post("/v1/games/"+lobby.Game.Id.String()+"/players", map[string]string{"name": "Fay"}, http.StatusCreated, &seats[1])
	for _, seat := range seats {
		sc.keep("seat token", seat.Seat.Token)
	}
	sc.post("/v1/games/"+lobby.Game.Id.String()+"/start", nil, http.StatusOK, nil, bearer(seats[0].Seat.Token)...)
	sc.post("/v1/games/"+lobby.Game.Id.String()+"/abort", nil, http.StatusOK, nil, bearer(lobby.CreatorToken)...)

	// Classroom games: a student's lobby joined with short keys, a started game, the teacher's groups.
	own := sc.createGame(map[string]any{"game": "primed", "seats": 2}, append(bearer(students["Ada"]), "Idempotency-Key", "k1")...)
	sc.post("/v1/games/"+own.Game.Id.String()+"/players", map[string]any{}, http.StatusCreated, nil, append(bearer(students["Ada"]), "Idempotency-Key", "j1")...)
	sc.post("/v1/games/"+own.Game.Id.String()+"/players", map[string]any{}, http.StatusCreated, nil, bearer(students["Ben"])...)
	sc.post("/v1/games/"+own.Game.Id.String()+"/start", nil, http.StatusOK, nil, bearer(own.CreatorToken)...)
	byStudent := func(seat int) string { return students[[]string{"Ada", "Ben"}[seat]] }
	sc.actOnce(own.Game.Id.String(), byStudent, "Idempotency-Key", "m1")
	sc.actOnce(own.Game.Id.String(), byStudent)
	sc.createGame(map[string]any{"game": "primed", "players": []map[string]string{{"student_id": ids["Cy"]}, {"student_id": ids["Di"]}}}, append(bearer(teacher), "Idempotency-Key", "t1")...)
	sc.post(roomPath+"/games", map[string]any{"game": "primed", "group_size": 2}, http.StatusCreated, nil, bearer(teacher)...)
	sc.get("/v1/games", http.StatusOK, bearer(students["Cy"])...)
	sc.get(roomPath+"/games", http.StatusOK, bearer(teacher)...)

	// Live updates with the token in the query, as a browser's EventSource sends it.
	for _, path := range []string{"/v1/games/" + started.Game.Id.String() + "/events?access_token=" + started.Seats[0].Token, roomPath + "/events?access_token=" + teacher} {
		openEvStream(t, s.URL, path).close()
	}
	sc.get(roomPath+"/stats", http.StatusOK, bearer(teacher)...)
	sc.get("/v1/games/"+own.Game.Id.String()+"/attempts", http.StatusOK, bearer(teacher)...)
	if resp := s.Do(s.Request(http.MethodDelete, roomPath+"/students/"+ids["Cy"], nil, bearer(teacher)...)); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("remove = %d %s", resp.StatusCode, resp.Body)
	}
	sc.get("/v1/games", http.StatusUnauthorized, bearer(students["Cy"])...)
	waitForLog(t, logs, `"route":"/v1/classrooms/:classroom_id/events"`)

	for _, leak := range findTokens(t, db.Pool, logs.String(), sc.tokens) {
		t.Error(leak)
	}
}

// waitForLog waits until the log holds want: a stream writes its access log line when the server
// notices the client has gone.
func waitForLog(t *testing.T, logs *lockedBuffer, want string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(logs.String(), want); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the log never showed %s", want)
		}
	}
}

// findTokens searches every row of every table, as text (bytea shows as hex there), and the log for
// each token, whole or without its prefix.
func findTokens(t *testing.T, pool *pgxpool.Pool, logs string, tokens map[string]string) []string {
	t.Helper()
	ctx := context.Background()
	rows, err := pool.Query(ctx, `SELECT quote_ident(table_schema) || '.' || quote_ident(table_name) FROM information_schema.tables
		WHERE table_schema NOT IN ('pg_catalog', 'information_schema') AND table_type = 'BASE TABLE'`)
	if err != nil {
		t.Fatal(err)
	}
	tables, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	var leaks []string
	for _, table := range tables {
		rows, err := pool.Query(ctx, `SELECT r::text FROM `+table+` r`)
		if err != nil {
			t.Fatal(err)
		}
		texts, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatal(err)
		}
		for _, text := range texts {
			for token, what := range tokens {
				if where := tokenIn(text, token); where != "" {
					leaks = append(leaks, fmt.Sprintf("a %s is stored %s in table %s: %.200s", what, where, table, text))
				}
			}
		}
	}
	if len(tables) < 5 {
		t.Fatalf("searched only tables %v", tables)
	}
	for _, line := range strings.Split(logs, "\n") {
		for token, what := range tokens {
			if where := tokenIn(line, token); where != "" {
				leaks = append(leaks, fmt.Sprintf("a %s is logged %s: %s", what, where, line))
			}
		}
	}
	if !strings.Contains(logs, `"route":"/v1/games"`) {
		t.Fatal("the access log was not captured")
	}
	return leaks
}

// tokenIn says how text holds token, if it does: as it is, without its prefix, or hex-encoded.
func tokenIn(text, token string) string {
	_, secret, _ := strings.Cut(token, "_")
	switch {
	case strings.Contains(text, token):
		return "in plain text"
	case len(secret) >= 16 && strings.Contains(text, secret):
		return "without its prefix"
	case strings.Contains(text, hex.EncodeToString([]byte(token))), len(secret) >= 16 && strings.Contains(text, hex.EncodeToString([]byte(secret))):
		return "as hex bytes"
	}
	return ""
}
