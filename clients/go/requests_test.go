package client_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/google/uuid"

	"primegames.dev/client"
)

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestTypedGameRequests(t *testing.T) {
	t.Parallel()
	rounds, noCards := 2, false
	deck := client.PrimedOptionsDeckStandard
	for _, tc := range []struct {
		req  client.CreateGameRequest
		want string
	}{
		{client.PrimedGame(client.PrimedOptions{Rounds: &rounds, Deck: &deck}, client.Player("Ada"), client.Computer(client.BotLevelExpert)),
			`{"game":"primed","options":{"deck":"standard","rounds":2},"players":[{"name":"Ada"},{"bot":"expert"}]}`},
		{client.PrimeClimbGame(client.PrimeClimbOptions{PrimeCards: &noCards}, client.Player("Ada"), client.Player("Ben")),
			`{"game":"prime-climb","options":{"prime_cards":false},"players":[{"name":"Ada"},{"name":"Ben"}]}`},
		{client.PrimeClimbGame(client.PrimeClimbOptions{}), `{"game":"prime-climb","options":{}}`},
	} {
		if got := jsonOf(t, tc.req); got != tc.want {
			t.Errorf("request = %s, want %s", got, tc.want)
		}
	}
}

func TestTypedActions(t *testing.T) {
	t.Parallel()
	var move client.PrimeClimbAction
	if err := move.FromPrimeClimbMoveAction(client.PrimeClimbMoveAction{Type: client.PrimeClimbMoveActionTypeMove}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		action func() (client.Action, error)
		want   string
	}{
		{func() (client.Action, error) {
			return client.ActionOf(client.PrimeClimbRollAction{Type: client.PrimeClimbRollActionTypeRoll})
		}, `{"type":"roll"}`},
		{func() (client.Action, error) { return client.ActionOf(move) }, `{"type":"move"}`},
		{func() (client.Action, error) {
			return client.ActionOf(client.PrimedPlayAction{Type: client.PrimedPlayActionTypePlay, Cards: []int{3, 4}})
		}, `{"cards":[3,4],"type":"play"}`},
	} {
		got, err := tc.action()
		if err != nil || string(got) != tc.want {
			t.Errorf("action = %s, %v; want %s", got, err, tc.want)
		}
	}
	if got, err := client.ActionOf(client.PrimedAction{}); err == nil {
		t.Errorf("an empty PrimedAction made %s, want an error", got)
	}
}

func TestPostActionOfSendsTheTypedAction(t *testing.T) {
	t.Parallel()
	id := uuid.New()
	received := make(chan string, 1)
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		received <- r.Method + " " + r.URL.Path + " " + r.Header.Get("Authorization") + " " + string(body)
		w.WriteHeader(http.StatusTeapot)
	}))
	defer server.Close()
	api, err := client.NewClientWithResponses(server.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := client.PostActionOf(context.Background(), api, id, &client.PostActionParams{},
		client.PrimedDrawAction{Type: client.PrimedDrawActionTypeDraw}, client.Bearer("pgs_x"))
	if err != nil || resp.StatusCode() != http.StatusTeapot {
		t.Fatalf("PostActionOf = %v, %v", resp, err)
	}
	if got, want := <-received, "POST /v1/games/"+id.String()+`/actions Bearer pgs_x {"type":"draw"}`; got != want {
		t.Errorf("the server received %q, want %q", got, want)
	}
}
