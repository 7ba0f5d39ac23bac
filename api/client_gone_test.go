package api_test

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"primegames.dev/client"
	"primegames/api/apitest"
	"primegames/repo/repotest"
)

// A client that gives up while its action waits for the game's row lock is not a server error: the
// request is counted and logged (at info) as 499, and no 500 is recorded.
func TestClientThatGivesUpIs499NotAnError(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := repotest.NewDB(t)
	logs := &lockedBuffer{}
	srv, err := newAPI(testConfig(), db, slog.New(slog.NewJSONHandler(logs, nil)))
	if err != nil {
		t.Fatal(err)
	}
	s := apitest.Start(t, srv)
	resp := s.Post("/v1/games", map[string]any{"game": "prime-climb", "players": []map[string]string{{"name": "A"}, {"name": "B"}}})
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("create = %d: %s", resp.StatusCode, resp.Body)
	}
	var g client.CreatedGame
	resp.JSON(t, &g)

	holder, err := db.Pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Rollback(ctx) //nolint:errcheck
	if _, err := holder.Exec(ctx, `SELECT 1 FROM games WHERE id = $1 FOR UPDATE`, g.Game.Id.String()); err != nil {
		t.Fatal(err)
	}
	reqCtx, giveUp := context.WithCancel(ctx)
	req := s.Request(http.MethodPost, "/v1/games/"+g.Game.Id.String()+"/actions", `{"type":"roll"}`, bearer(g.Seats[0].Token)...)
	sent := make(chan error, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req.WithContext(reqCtx))
		if err == nil {
			resp.Body.Close()
		}
		sent <- err
	}()
	repotest.LockWaiter(t, db, 0, nil)
	giveUp()
	if err := <-sent; !errors.Is(err, context.Canceled) {
		t.Fatalf("the client's request ended with %v, want it canceled", err)
	}

	const route = `method="POST",route="/v1/games/:id/actions"`
	metrics := ""
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(metrics, route); {
		if time.Now().After(deadline) {
			t.Fatalf("the abandoned request was never counted:\n%s", metrics)
		}
		time.Sleep(10 * time.Millisecond)
		metrics = string(s.Get("/metrics").Body)
	}
	if want := `http_requests_total{` + route + `,status="499"} 1`; !strings.Contains(metrics, want) {
		t.Errorf("metrics lack %s", want)
	}
	if strings.Contains(metrics, `status="500"`) {
		t.Errorf("an abandoned request was counted as 500")
	}
	found := false
	for _, line := range strings.Split(logs.String(), "\n") {
		var entry struct {
			Level  string `json:"level"`
			Msg    string `json:"msg"`
			Route  string `json:"route"`
			Status int    `json:"status"`
		}
		if line == "" || json.Unmarshal([]byte(line), &entry) != nil {
			continue
		}
		if entry.Level == "ERROR" {
			t.Errorf("an abandoned request logged an error: %s", line)
		}
		if entry.Msg == "request" && entry.Route == "/v1/games/:id/actions" {
			found = true
			if entry.Status != 499 || entry.Level != "INFO" {
				t.Errorf("the abandoned request's log line has status %d at %s, want 499 at INFO: %s", entry.Status, entry.Level, line)
			}
		}
	}
	if !found {
		t.Errorf("no access log line for the abandoned request:\n%s", logs.String())
	}
}
