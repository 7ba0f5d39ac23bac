package api_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"primegames"
	"primegames.dev/client"
	"primegames/api"
	"primegames/api/apitest"
	"primegames/contract"
	"primegames/domain/games"
	"primegames/outbound"
	"primegames/play"
	"primegames/repo"
	"primegames/repo/repotest"
)

// Webhooks over HTTP end to end: a backend subscribes with a seat's token, the game is played
// through the API, and the instance's webhook worker calls a real receiver, which verifies each
// signature with the secret the subscription showed once.

// hookCall is one request the receiver got.
type hookCall struct {
	header http.Header
	body   []byte
}

// verifyHook is a receiver's check of a Standard Webhooks signature, in a few lines of its own.
func verifyHook(secret string, h http.Header, body []byte) bool {
	key, _ := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(h.Get("webhook-id") + "." + h.Get("webhook-timestamp") + "." + string(body)))
	want := "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil))
	return hmac.Equal([]byte(h.Get("webhook-signature")), []byte(want))
}

// hookInstance is an instance of the service with its webhook worker running (polling every
// 100 ms), and a receiver of its own whose calls come on calls.
type hookInstance struct {
	s       *apitest.Server
	service *play.Service
	calls   chan hookCall
	url     string // the receiver's
}

// startHookInstance starts a hookInstance over db reading clock (nil: the system clock).
func startHookInstance(t *testing.T, db *repo.DB, clock play.Clock) hookInstance {
	t.Helper()
	calls := make(chan hookCall, 1000)
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		calls <- hookCall{r.Header.Clone(), body}
	}))
	t.Cleanup(receiver.Close)
	sender, err := outbound.New(outbound.Config{AllowedHosts: []string{"127.0.0.1"}, Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	cfg := play.DefaultWebhookConfig
	cfg.Poll = 100 * time.Millisecond
	cfg.SealingKey = []byte("test sealing key")
	opts := []play.Option{play.WithWebhooks(cfg, sender)}
	if clock != nil {
		opts = append(opts, play.WithClock(clock))
	}
	service := play.New(db.Games().Stores(), games.All(), opts...)
	srv, err := api.New(testConfig(), api.Deps{Play: service, Database: db, Feed: db}, quietLogger())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	ctx, stop := context.WithCancel(context.Background())
	worker := make(chan struct{})
	go func() { defer close(worker); service.RunWebhooks(ctx, quietLogger()) }()
	t.Cleanup(func() { stop(); <-worker })
	return hookInstance{s: apitest.Start(t, srv), service: service, calls: calls, url: receiver.URL}
}

// decodeHook checks a webhook's body against the contract's WebhookPayload and decodes it into p.
func decodeHook(t *testing.T, body []byte, p any) {
	t.Helper()
	spec, err := contract.Load(primegames.OpenAPI)
	if err != nil {
		t.Fatal(err)
	}
	var generic any
	if err := json.Unmarshal(body, &generic); err != nil {
		t.Fatal(err)
	}
	if err := spec.Components.Schemas["WebhookPayload"].Value.VisitJSON(generic); err != nil {
		t.Fatalf("webhook %s against the contract: %v", body, err)
	}
	if err := json.Unmarshal(body, p); err != nil {
		t.Fatal(err)
	}
}

func TestWebhookYourTurnReachesTheBackendSigned(t *testing.T) {
	t.Parallel()
	in := startHookInstance(t, repotest.NewDB(t), nil)
	s := in.s
	g := newEvGame(t, s, "primed", nil, 2, 3)
	if resp := s.Post("/v1/webhooks", map[string]any{"scope": "game", "game_id": g.id, "url": in.url}); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("without a token = %d", resp.StatusCode)
	}
	if resp := s.Post("/v1/webhooks", map[string]any{"scope": "game", "game_id": g.id, "url": "http://10.0.0.7/hook"}, bearer(g.tokens[0])...); resp.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("to a private address = %d: %s", resp.StatusCode, resp.Body)
	}
	resp := s.Post("/v1/webhooks", map[string]any{"scope": "game", "game_id": g.id, "url": in.url + "/push",
		"events": []string{"your_turn", "game_ended"}}, bearer(g.tokens[0])...)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("subscribe = %d: %s", resp.StatusCode, resp.Body)
	}
	var created client.CreatedWebhook
	resp.JSON(t, &created)
	if created.Seat == nil || *created.Seat != 0 || !strings.HasPrefix(created.Secret, "whsec_") {
		t.Fatalf("created %+v", created)
	}

	// Play until seat 0 has had its turn twice; each your_turn arrives signed, for seat 0 only, as
	// the contract's WebhookPayload describes it.
	turns := 0
	deadline := time.After(evWait)
	for turns < 2 {
		for g.toAct != 0 && g.status == "active" {
			g.play()
		}
		if g.status != "active" {
			t.Fatal("the game ended before seat 0 had two turns")
		}
		select {
		case call := <-in.calls:
			if !verifyHook(created.Secret, call.header, call.body) {
				t.Fatalf("signature %q does not verify", call.header.Get("webhook-signature"))
			}
			var p struct {
				Type string             `json:"type"`
				Data client.PlayerEvent `json:"data"`
			}
			decodeHook(t, call.body, &p)
			if p.Type != "your_turn" || p.Data.Seat != 0 || p.Data.GameId.String() != g.id {
				t.Fatalf("webhook %s", call.body)
			}
			turns++
			for g.toAct == 0 && g.status == "active" {
				g.play() // seat 0 plays its turn, which may take more than one action (a draw, then a play)
			}
		case <-deadline:
			t.Fatalf("no your_turn webhook within %s (%d so far)", evWait, turns)
		}
	}

	var list client.WebhookList
	s.Get("/v1/webhooks", bearer(g.tokens[0])...).JSON(t, &list)
	if len(list.Webhooks) != 1 || list.Webhooks[0].LastSuccessAt == nil || list.Webhooks[0].Failures != 0 || list.Webhooks[0].DisabledAt != nil {
		t.Fatalf("list %+v", list)
	}
	if other := s.Get("/v1/webhooks", bearer(g.tokens[1])...); !strings.Contains(string(other.Body), `"webhooks":[]`) {
		t.Fatalf("the other seat lists %s", other.Body)
	}
	path := "/v1/webhooks/" + created.Id.String()
	if resp := s.Do(s.Request(http.MethodDelete, path, nil, bearer(g.tokens[1])...)); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("deleting another token's subscription = %d", resp.StatusCode)
	}
	if resp := s.Do(s.Request(http.MethodDelete, path, nil, bearer(g.tokens[0])...)); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("delete = %d: %s", resp.StatusCode, resp.Body)
	}
}
