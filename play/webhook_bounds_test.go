package play_test

import (
	"context"
	"encoding/base64"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"primegames/domain"
	"primegames/play"
)

// The bounds of subscriptions (per owner, per address) and of pending deliveries (per
// subscription, per owner), and "retry now".

// A subscription of scope game without game_id is refused naming the field (it was a 500 from
// Postgres' uuid parsing); so is one of scope classroom without classroom_id.
func TestWebhookWithoutItsSubjectIsRefusedNamingTheField(t *testing.T) {
	t.Parallel()
	r := newHookRig(t)
	_, creator := r.lobby()
	for field, req := range map[string]play.NewWebhookRequest{
		"game_id":      {Scope: play.ScopeGame, URL: "http://127.0.0.1:9/hook"},
		"classroom_id": {Scope: play.ScopeClassroom, URL: "http://127.0.0.1:9/hook"},
	} {
		_, _, err := r.master.CreateWebhook(context.Background(), creator, req)
		var refusal *domain.Error
		if !errors.As(err, &refusal) || refusal.Kind != domain.KindIllegal || refusal.Code != "missing_field" || len(refusal.Fields) != 1 || refusal.Fields[0].Field != field {
			t.Errorf("without %s: %v", field, err)
		}
	}
}

// One address makes at most AddressQuota subscriptions, whatever tokens it uses.
func TestWebhookQuotaPerAddressHoldsAcrossTokens(t *testing.T) {
	t.Parallel()
	r := newHookRig(t)
	cfg := testWebhookConfig
	cfg.AddressQuota = 2
	r.configure(cfg, r.sender())
	ctx := context.Background()
	for i := range 3 {
		created, creator := r.lobby()
		_, _, err := r.master.CreateWebhook(ctx, creator, play.NewWebhookRequest{Scope: play.ScopeGame, GameID: created.Game.ID,
			URL: "http://127.0.0.1:9/hook", Address: "192.0.2.7"})
		var refusal *domain.Error
		switch {
		case i < 2 && err != nil:
			t.Fatalf("subscription %d: %v", i, err)
		case i == 2 && (!errors.As(err, &refusal) || refusal.Kind != domain.KindRateLimited ||
			refusal.Facts != (play.QuotaFacts{Quota: "webhook_subscriptions", Scope: "address", Limit: 2, Count: 2})):
			t.Fatalf("the third from one address: %v", err)
		}
	}
	created, creator := r.lobby()
	if _, _, err := r.master.CreateWebhook(ctx, creator, play.NewWebhookRequest{Scope: play.ScopeGame, GameID: created.Game.ID,
		URL: "http://127.0.0.1:9/hook", Address: "192.0.2.8"}); err != nil {
		t.Fatalf("from another address: %v", err)
	}
}

// A subscription takes at most PendingPerSubscription waiting deliveries, an owner at most
// PendingPerOwner over all of its subscriptions: the events beyond are dropped and counted.
func TestWebhookPendingDeliveriesAreBoundedAndTheRestCounted(t *testing.T) {
	t.Parallel()
	r := newHookRig(t)
	cfg := testWebhookConfig
	cfg.PendingPerSubscription, cfg.PendingPerOwner = 2, 3
	r.configure(cfg, r.sender())
	created, creator := r.lobby()
	id := created.Game.ID
	a, _ := r.subscribe(creator, play.NewWebhookRequest{Scope: play.ScopeGame, GameID: id, URL: "http://127.0.0.1:9/a", Events: []string{"entry"}})
	b, _ := r.subscribe(creator, play.NewWebhookRequest{Scope: play.ScopeGame, GameID: id, URL: "http://127.0.0.1:9/b", Events: []string{"entry"}})
	seats := r.fill(created, creator)
	for range 3 {
		r.move(id, seats)
	}
	r.queue() // entries 0 to 3: 8 events, 3 queued
	if n := r.count(`SELECT count(*) FROM webhook_deliveries`); n != 3 {
		t.Fatalf("%d deliveries pending, want the owner's 3", n)
	}
	if n := r.count(`SELECT max(n) FROM (SELECT count(*) AS n FROM webhook_deliveries GROUP BY subscription_id) p`); n != 2 {
		t.Fatalf("%d pending for one subscription, want at most 2", n)
	}
	wa, wb := r.subscription(creator, a.ID), r.subscription(creator, b.ID)
	if wa.Dropped+wb.Dropped != 5 || wa.LastDroppedAt == nil || wb.LastDroppedAt == nil {
		t.Fatalf("dropped %d and %d, want 5 in all", wa.Dropped, wb.Dropped)
	}
}

// Retry now: a disabled subscription, its receiver fixed, is enabled again and delivers; a
// delivery waiting for its backoff is sent at once.
func TestWebhookRetryNowEnablesAndSendsAtOnce(t *testing.T) {
	t.Parallel()
	r := newHookRig(t)
	ctx := context.Background()
	var broken atomic.Bool
	broken.Store(true)
	rc := newReceiver(t, func(_ int, w http.ResponseWriter, _ *http.Request) {
		if broken.Load() {
			w.WriteHeader(http.StatusGone)
		}
	})
	created, creator := r.lobby()
	id := created.Game.ID
	hook, _ := r.subscribe(creator, play.NewWebhookRequest{Scope: play.ScopeGame, GameID: id, URL: rc.URL, Events: []string{"entry"}})
	seats := r.fill(created, creator)
	r.drain()
	if w := r.subscription(creator, hook.ID); w.Status != play.WebhookDisabled {
		t.Fatalf("after a 410: %s", w.Status)
	}
	broken.Store(false)
	w, err := r.master.RetryWebhook(ctx, creator, hook.ID)
	if err != nil || w.Status != play.WebhookActive || w.DisabledAt != nil || w.Failures != 0 {
		t.Fatalf("retry: %+v, %v", w, err)
	}
	r.move(id, seats)
	r.drain()
	if n := len(rc.requests()); n != 2 {
		t.Fatalf("%d requests, want the one refused and the entry after the retry", n)
	}

	// A failure (503) puts the next attempt a backoff away; retry makes it due now.
	rc.answer = func(n int, w http.ResponseWriter, _ *http.Request) {
		if n == 2 {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	}
	r.move(id, seats)
	r.drain()
	if n := len(rc.requests()); n != 3 {
		t.Fatalf("%d requests, want 3", n)
	}
	if _, err := r.master.RetryWebhook(ctx, creator, hook.ID); err != nil {
		t.Fatal(err)
	}
	r.drain() // the clock has not moved
	if got := rc.requests(); len(got) != 4 || got[3].ID != got[2].ID {
		t.Fatalf("%d requests after retry now, want the failed one again", len(got))
	}
	if err := r.master.DeleteWebhook(ctx, creator, hook.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := r.master.RetryWebhook(ctx, creator, hook.ID); domain.ErrorCode(err) != "webhook_not_found" {
		t.Fatalf("retrying a deleted subscription: %v", err)
	}
}

// The signing key is sealed at rest: the database holds nothing of it, and an instance with
// another sealing key cannot sign with it. A raw key from before is sealed when the worker starts
// and still signs.
func TestWebhookSigningKeysAreSealedAtRest(t *testing.T) {
	t.Parallel()
	r := newHookRig(t)
	ctx := context.Background()
	rc := newReceiver(t, nil)
	created, creator := r.lobby()
	id := created.Game.ID
	hook, secret := r.subscribe(creator, play.NewWebhookRequest{Scope: play.ScopeGame, GameID: id, URL: rc.URL, Events: []string{"entry"}})
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil {
		t.Fatal(err)
	}
	var stored []byte
	if err := r.db.Pool.QueryRow(ctx, `SELECT secret FROM webhook_subscriptions WHERE id = $1`, hook.ID).Scan(&stored); err != nil {
		t.Fatal(err)
	}
	if len(stored) <= len(key) || strings.Contains(string(stored), string(key)) {
		t.Fatalf("stored %x holds the key %x", stored, key)
	}

	other := rigOn(t, r.db, r.clock)
	cfg := testWebhookConfig
	cfg.SealingKey = []byte("another sealing key")
	other.configure(cfg, r.sender())
	seats := r.fill(created, creator)
	if _, err := other.master.WebhookPass(ctx); err == nil || len(rc.requests()) != 0 {
		t.Fatalf("an instance with another sealing key sent %d (%v)", len(rc.requests()), err)
	}

	// A key stored raw, as before sealing: sealed by the worker's start, and it signs.
	if _, err := r.db.Pool.Exec(ctx, `UPDATE webhook_subscriptions SET secret = $2 WHERE id = $1`, hook.ID, key); err != nil {
		t.Fatal(err)
	}
	if n, err := r.master.SealRawWebhookSecrets(ctx); err != nil || n != 1 {
		t.Fatalf("sealed %d: %v", n, err)
	}
	if n := r.count(`SELECT count(*) FROM webhook_subscriptions WHERE octet_length(secret) = 32`); n != 0 {
		t.Fatalf("%d raw keys left", n)
	}
	r.clock.Advance(testWebhookConfig.Lease + 1)
	r.move(id, seats)
	r.drain()
	got := rc.requests()
	if len(got) == 0 {
		t.Fatal("nothing sent")
	}
	for _, g := range got {
		if !verifySignature(secret, g) {
			t.Fatalf("%s does not verify with the secret shown at creation", g.Signature)
		}
	}
}

// A secret rotated: the new one is shown once; for the overlap each delivery carries both
// signatures, so a receiver with either secret verifies it; after it, only the new one's.
func TestWebhookSecretRotationSignsWithBothDuringTheOverlap(t *testing.T) {
	t.Parallel()
	r := newHookRig(t)
	ctx := context.Background()
	rc := newReceiver(t, nil)
	created, creator := r.lobby()
	id := created.Game.ID
	hook, oldSecret := r.subscribe(creator, play.NewWebhookRequest{Scope: play.ScopeGame, GameID: id, URL: rc.URL, Events: []string{"entry"}})
	rotated, err := r.master.RotateWebhookSecret(ctx, creator, hook.ID)
	if err != nil {
		t.Fatal(err)
	}
	if rotated.Secret == oldSecret || !strings.HasPrefix(rotated.Secret, "whsec_") ||
		!rotated.PreviousSecretExpires.Equal(r.clock.Now().Add(testWebhookConfig.SecretOverlap)) {
		t.Fatalf("rotated %+v", rotated)
	}
	seats := r.fill(created, creator)
	r.drain()
	during := rc.requests()
	if len(during) == 0 {
		t.Fatal("nothing sent")
	}
	for _, g := range during {
		if len(strings.Fields(g.Signature)) != 2 || !verifySignature(oldSecret, g) || !verifySignature(rotated.Secret, g) {
			t.Fatalf("during the overlap: %q", g.Signature)
		}
	}
	r.clock.Advance(testWebhookConfig.SecretOverlap)
	r.move(id, seats)
	r.drain()
	after := rc.requests()[len(during):]
	if len(after) == 0 {
		t.Fatal("nothing sent after the overlap")
	}
	for _, g := range after {
		if len(strings.Fields(g.Signature)) != 1 || verifySignature(oldSecret, g) || !verifySignature(rotated.Secret, g) {
			t.Fatalf("after the overlap: %q", g.Signature)
		}
	}
	if _, err := r.master.RotateWebhookSecret(ctx, seats[0], hook.ID); domain.ErrorCode(err) != "webhook_not_found" {
		t.Fatalf("another token rotates it: %v", err)
	}
}
