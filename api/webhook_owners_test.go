package api_test

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"primegames.dev/client"
	"primegames/api"
	"primegames/api/apitest"
	"primegames/domain/games"
	"primegames/outbound"
	"primegames/play"
	"primegames/repo/repotest"
)

// Webhook subscriptions over HTTP, each answer checked against the contract: the 422 naming a
// missing game_id, the teacher's subscription suspended by a rotation and resumed by the new
// token, retry now, a secret's rotation, and the quota's 429 with its facts.

func newWebhookServer(t *testing.T, quota int) *apitest.Server {
	t.Helper()
	db := repotest.NewDB(t)
	sender, err := outbound.New(outbound.Config{AllowedHosts: []string{"127.0.0.1"}, Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	cfg := play.DefaultWebhookConfig
	cfg.Quota, cfg.SealingKey = quota, []byte("test sealing key")
	service := play.New(db.Games().Stores(), games.All(), play.WithWebhooks(cfg, sender))
	srv, err := api.New(testConfig(), api.Deps{Play: service, Database: db, Feed: db}, quietLogger())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	return apitest.Start(t, srv)
}

func TestWebhookOwnedByTheClassroomOverHTTP(t *testing.T) {
	t.Parallel()
	s := newWebhookServer(t, 2)
	class := newClassroomOn(t, s, "Room 9")
	hookURL := "http://127.0.0.1:9/hook"

	resp := s.Post("/v1/webhooks", map[string]any{"scope": "game", "url": hookURL}, bearer(class.teacher)...)
	if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(string(resp.Body), `"field":"game_id"`) {
		t.Fatalf("scope game without game_id = %d: %s", resp.StatusCode, resp.Body)
	}

	resp = s.Post("/v1/webhooks", map[string]any{"scope": "classroom", "classroom_id": class.id, "url": hookURL}, bearer(class.teacher)...)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("subscribe = %d: %s", resp.StatusCode, resp.Body)
	}
	var created client.CreatedWebhook
	resp.JSON(t, &created)
	if created.Status != client.WebhookStatusActive {
		t.Fatalf("created %+v", created)
	}
	if resp := s.Post("/v1/webhooks", map[string]any{"scope": "classroom", "classroom_id": class.id, "url": hookURL}, bearer(class.teacher)...); resp.StatusCode != http.StatusCreated {
		t.Fatalf("the second = %d: %s", resp.StatusCode, resp.Body)
	}
	resp = s.Post("/v1/webhooks", map[string]any{"scope": "classroom", "classroom_id": class.id, "url": hookURL}, bearer(class.teacher)...)
	var problem struct {
		Code  string          `json:"code"`
		Facts play.QuotaFacts `json:"facts"`
	}
	if err := json.Unmarshal(resp.Body, &problem); err != nil || resp.StatusCode != http.StatusTooManyRequests || problem.Code != "quota_exceeded" ||
		problem.Facts != (play.QuotaFacts{Quota: "webhook_subscriptions", Scope: "owner", Limit: 2, Count: 2}) {
		t.Fatalf("beyond the quota = %d: %s", resp.StatusCode, resp.Body)
	}

	rotated := s.Post("/v1/classrooms/"+class.id+"/teacher-token", nil, bearer(class.teacher)...)
	var teacher client.TeacherToken
	rotated.JSON(t, &teacher)
	if resp := s.Get("/v1/webhooks", bearer(class.teacher)...); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("the old token lists = %d: %s", resp.StatusCode, resp.Body)
	}
	var list client.WebhookList
	s.Get("/v1/webhooks", bearer(teacher.TeacherToken)...).JSON(t, &list)
	if len(list.Webhooks) != 2 || list.Webhooks[0].Id != created.Id || list.Webhooks[0].Status != client.WebhookStatusSuspended {
		t.Fatalf("the new token lists %+v", list)
	}
	path := "/v1/webhooks/" + created.Id.String()
	if resp := s.Post(path+"/resume", nil, bearer(class.teacher)...); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("the old token resumes = %d", resp.StatusCode)
	}
	var w client.Webhook
	s.Post(path+"/resume", nil, bearer(teacher.TeacherToken)...).JSON(t, &w)
	if w.Status != client.WebhookStatusActive {
		t.Fatalf("resumed %+v", w)
	}
	s.Post(path+"/retry", nil, bearer(teacher.TeacherToken)...).JSON(t, &w)
	if w.Status != client.WebhookStatusActive || w.Failures != 0 {
		t.Fatalf("retried %+v", w)
	}
	var secret client.RotatedWebhookSecret
	s.Post(path+"/rotate-secret", nil, bearer(teacher.TeacherToken)...).JSON(t, &secret)
	if !strings.HasPrefix(secret.Secret, "whsec_") || secret.Secret == created.Secret || !secret.PreviousSecretExpiresAt.After(time.Now()) {
		t.Fatalf("rotated %+v", secret)
	}
	if resp := s.Post("/v1/webhooks/"+list.Webhooks[1].Id.String()+"/rotate-secret", nil, bearer("pgt_not_a_token")...); resp.StatusCode == http.StatusOK {
		t.Fatal("a stranger rotates a secret")
	}
	if resp := s.Do(s.Request(http.MethodDelete, "/v1/webhooks/"+list.Webhooks[1].Id.String(), nil, bearer(teacher.TeacherToken)...)); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("the new token deletes the suspended one = %d", resp.StatusCode)
	}
}

// The webhook refusals (a missing field, the quota, a server without a sealing key) are answered
// without an ERROR line in the log: refusals are not faults.
func TestWebhookRefusalsLogNoError(t *testing.T) {
	t.Parallel()
	db := repotest.NewDB(t)
	logs := &lockedBuffer{}
	logger := slog.New(slog.NewJSONHandler(logs, nil))
	sender, err := outbound.New(outbound.Config{AllowedHosts: []string{"127.0.0.1"}, Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	for _, sealing := range []string{"", "test sealing key"} {
		cfg := play.DefaultWebhookConfig
		cfg.Quota, cfg.SealingKey = 1, []byte(sealing)
		service := play.New(db.Games().Stores(), games.All(), play.WithWebhooks(cfg, sender))
		srv, err := api.New(testConfig(), api.Deps{Play: service, Database: db, Feed: db}, logger)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(srv.Close)
		s := apitest.Start(t, srv)
		g := newEvGame(t, s, "primed", nil, 2, 3)
		want := []int{http.StatusUnprocessableEntity, http.StatusCreated, http.StatusTooManyRequests}
		if sealing == "" {
			want = []int{http.StatusServiceUnavailable, http.StatusServiceUnavailable, http.StatusServiceUnavailable}
		}
		for i, body := range []map[string]any{
			{"scope": "game", "url": "http://127.0.0.1:9/hook"},
			{"scope": "game", "game_id": g.id, "url": "http://127.0.0.1:9/hook"},
			{"scope": "game", "game_id": g.id, "url": "http://127.0.0.1:9/hook"},
		} {
			if resp := s.Post("/v1/webhooks", body, bearer(g.tokens[0])...); resp.StatusCode != want[i] {
				t.Fatalf("sealing key %q, request %d = %d, want %d: %s", sealing, i, resp.StatusCode, want[i], resp.Body)
			}
		}
	}
	for _, line := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		if strings.Contains(line, `"level":"ERROR"`) {
			t.Errorf("logged as an error: %s", line)
		}
	}
}
