package play_test

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"primegames/domain"
	"primegames/outbound"
	"primegames/play"
)

// Webhooks from the outbox to a real HTTP receiver: signed, in order, once per event; retried with
// the same webhook-id after a failure, a timeout or a worker's death; a subscription disabled by
// 410 or by failing for good; and never an outbox row for a change that did not commit.

// The creator's subscription gets, for every entry, the entry and each seat's player events, in the
// order of the game, each signed with the secret shown at creation and with its own webhook-id; a
// seat's subscription gets only its own seat's player events.
func TestWebhooksDeliverSignedEventsInOrder(t *testing.T) {
	t.Parallel()
	r := newHookRig(t)
	rc := newReceiver(t, nil)
	created, creator := r.lobby()
	id := created.Game.ID
	all, secret := r.subscribe(creator, play.NewWebhookRequest{Scope: play.ScopeGame, GameID: id, URL: rc.URL + "/all"})
	if !strings.HasPrefix(secret, "whsec_") || len(all.Events) != len(play.WebhookEventTypes) {
		t.Fatalf("secret %q, events %v", secret, all.Events)
	}
	seats := r.fill(created, creator)
	seatHook, seatSecret := r.subscribe(seats[1], play.NewWebhookRequest{Scope: play.ScopeGame, GameID: id, URL: rc.URL + "/seat1",
		Events: []string{"your_turn", "game_ended"}})
	if seatHook.Seat == nil || *seatHook.Seat != 1 {
		t.Fatalf("a seat's subscription has seat %v", seatHook.Seat)
	}
	for range 6 {
		r.move(id, seats)
	}
	r.drain()

	got := rc.requests()
	ids := map[string]bool{}
	var lastSeq int64 = -1
	var seatTurns, turns int
	for _, g := range got {
		p := decodePayload(t, g)
		sec := secret
		if p.Type == "your_turn" && p.Data.Seat != nil && *p.Data.Seat == 1 && verifySignature(seatSecret, g) {
			sec = seatSecret
			seatTurns++
		}
		if !verifySignature(sec, g) {
			t.Fatalf("webhook %s: the signature %q does not verify", g.ID, g.Signature)
		}
		if ids[g.ID] || !strings.HasPrefix(g.ID, "msg_") {
			t.Fatalf("webhook-id %q repeated or malformed", g.ID)
		}
		ids[g.ID] = true
		if sec == secret {
			if p.Data.Seq < lastSeq {
				t.Fatalf("entry %d after entry %d: out of order", p.Data.Seq, lastSeq)
			}
			lastSeq = p.Data.Seq
			if p.Type == "your_turn" {
				turns++
			}
		}
		if p.Data.GameID != id || strings.Contains(string(g.Body), "hand") {
			t.Fatalf("webhook body %s", g.Body)
		}
	}
	if lastSeq != 6 || turns < 3 || seatTurns == 0 {
		t.Fatalf("up to entry %d, %d turns for the creator, %d for seat 1's own subscription", lastSeq, turns, seatTurns)
	}
	for _, g := range got {
		if p := decodePayload(t, g); verifySignature(seatSecret, g) && (p.Type != "your_turn" || *p.Data.Seat != 1) {
			t.Fatalf("seat 1's subscription got %s for seat %v", p.Type, p.Data.Seat)
		}
	}
	if n := r.count(`SELECT count(*) FROM webhook_outbox`) + r.count(`SELECT count(*) FROM webhook_deliveries`); n != 0 {
		t.Fatalf("%d outbox rows and deliveries left after delivery", n)
	}
}

// The outbox row of a change is written in the change's transaction: a change rolled back leaves
// none; a game nobody subscribed to gets none.
func TestWebhookOutboxIsWrittenInTheChangesTransaction(t *testing.T) {
	t.Parallel()
	r := newHookRig(t)
	ctx := context.Background()
	created, creator := r.lobby()
	id := created.Game.ID
	seats := r.fill(created, creator)
	if n := r.count(`SELECT count(*) FROM webhook_outbox`); n != 0 {
		t.Fatalf("%d outbox rows for a game with no subscription", n)
	}
	r.subscribe(creator, play.NewWebhookRequest{Scope: play.ScopeGame, GameID: id, URL: "http://127.0.0.1:9/hook"})
	rollback := errors.New("rolled back")
	err := r.db.Games().Update(ctx, r.clock.Now(), func(tx play.Tx) error {
		seq, err := tx.NextSeq(ctx, id)
		if err != nil {
			return err
		}
		seat := 0
		if err := tx.AppendEntry(ctx, id, &play.Entry{Seq: seq, Version: 99, Seat: &seat, Action: []byte(`{"type":"pass"}`), Service: true}); err != nil {
			return err
		}
		return rollback
	})
	if !errors.Is(err, rollback) {
		t.Fatalf("update: %v", err)
	}
	if n := r.count(`SELECT count(*) FROM webhook_outbox`); n != 0 {
		t.Fatalf("a rolled-back change left %d outbox rows", n)
	}
	r.move(id, seats)
	if n := r.count(`SELECT count(*) FROM webhook_outbox WHERE game_id = $1`, id); n != 1 {
		t.Fatalf("a committed move left %d outbox rows, want 1", n)
	}
}

// A receiver that fails twice (500, then no answer within the timeout) gets the delivery again,
// with the same webhook-id, once the backoff has passed; the subscription shows the last error
// until a delivery succeeds.
func TestWebhookFailuresAndTimeoutsAreRetriedWithTheSameID(t *testing.T) {
	t.Parallel()
	r := newHookRig(t)
	release := make(chan struct{})
	rc := newReceiver(t, func(n int, w http.ResponseWriter, req *http.Request) {
		switch n {
		case 0:
			w.WriteHeader(http.StatusInternalServerError)
		case 1: // hangs past the sender's timeout
			select {
			case <-release:
			case <-req.Context().Done():
			}
		}
	})
	defer close(release)
	created, creator := r.lobby()
	hook, secret := r.subscribe(creator, play.NewWebhookRequest{Scope: play.ScopeGame, GameID: created.Game.ID, URL: rc.URL, Events: []string{"entry"}})
	seats := r.fill(created, creator)
	r.move(created.Game.ID, seats) // a second delivery, which waits behind the first

	r.drain()
	first := <-rc.calls
	if w := r.subscription(creator, hook.ID); w.LastError == nil || !strings.Contains(*w.LastError, "500") || w.Failures != 1 {
		t.Fatalf("after a 500: last error %v, failures %d", w.LastError, w.Failures)
	}
	// The worker waits for the retry: the delivery behind it is not due before it.
	if at, err := r.db.Games().NextWebhookDue(context.Background()); err != nil || at == nil || !at.After(r.clock.Now()) {
		t.Fatalf("next due %v (%v), now %s", at, err, r.clock.Now())
	}
	r.drain() // not due yet: nothing sent
	if len(rc.requests()) != 1 {
		t.Fatalf("%d requests before the retry was due", len(rc.requests()))
	}
	r.clock.Advance(testWebhookConfig.MaxRetry)
	r.drain()
	second := <-rc.calls
	if w := r.subscription(creator, hook.ID); w.LastError == nil || !strings.Contains(*w.LastError, "timeout") {
		t.Fatalf("after a timeout: last error %v", w.LastError)
	}
	r.clock.Advance(testWebhookConfig.MaxRetry)
	r.drain()
	third := <-rc.calls
	if first.ID != second.ID || second.ID != third.ID || !verifySignature(secret, third) {
		t.Fatalf("webhook-ids %s, %s, %s: want one id, signed", first.ID, second.ID, third.ID)
	}
	if first.Timestamp == third.Timestamp {
		t.Errorf("each attempt is signed with its own time; both say %s", first.Timestamp)
	}
	if w := r.subscription(creator, hook.ID); w.Failures != 0 || w.LastSuccessAt == nil || w.DisabledAt != nil {
		t.Fatalf("after the success: %+v", w)
	}
	if fourth := <-rc.calls; fourth.ID == first.ID || decodePayload(t, fourth).Data.Seq != 1 {
		t.Fatalf("the delivery behind: %s %s", fourth.ID, fourth.Body)
	}
}

// 410 Gone disables the subscription at once, with its reason, and drops what it had pending; a
// receiver that fails every attempt is disabled after the last one.
func TestWebhookSubscriptionsAreDisabledBy410AndByFailingForGood(t *testing.T) {
	t.Parallel()
	r := newHookRig(t)
	gone := newReceiver(t, func(_ int, w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusGone) })
	failing := newReceiver(t, func(_ int, w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusBadGateway) })
	created, creator := r.lobby()
	id := created.Game.ID
	goneHook, _ := r.subscribe(creator, play.NewWebhookRequest{Scope: play.ScopeGame, GameID: id, URL: gone.URL})
	failingHook, _ := r.subscribe(creator, play.NewWebhookRequest{Scope: play.ScopeGame, GameID: id, URL: failing.URL, Events: []string{"entry"}})
	seats := r.fill(created, creator)
	r.drain()
	w := r.subscription(creator, goneHook.ID)
	if w.DisabledAt == nil || w.DisabledReason == nil || !strings.Contains(*w.DisabledReason, "410") || len(gone.requests()) != 1 {
		t.Fatalf("after 410: %+v, %d requests", w, len(gone.requests()))
	}
	if n := r.count(`SELECT count(*) FROM webhook_deliveries WHERE subscription_id = $1`, goneHook.ID); n != 0 {
		t.Fatalf("%d deliveries left to a subscription disabled", n)
	}
	for range testWebhookConfig.Attempts {
		r.clock.Advance(testWebhookConfig.MaxRetry)
		r.drain()
	}
	w = r.subscription(creator, failingHook.ID)
	if w.DisabledAt == nil || w.DisabledReason == nil || !strings.Contains(*w.DisabledReason, "4 attempts") || len(failing.requests()) != testWebhookConfig.Attempts {
		t.Fatalf("after failing for good: %+v (reason %v), %d requests", w, w.DisabledReason, len(failing.requests()))
	}
	// Disabled subscriptions want nothing more: a move writes no outbox row.
	r.move(id, seats)
	if n := r.count(`SELECT count(*) FROM webhook_outbox`); n != 0 {
		t.Fatalf("%d outbox rows for disabled subscriptions", n)
	}
}

// Two instances' workers, working at once, deliver each event once and a game's in order; a
// delivery whose worker died mid-send (its lease taken, no outcome recorded) is sent again, with
// the same webhook-id, once the lease has run out.
func TestWebhooksAcrossWorkersOnceAndAfterAWorkerDies(t *testing.T) {
	t.Parallel()
	a := newHookRig(t)
	b := rigOn(t, a.db, a.clock)
	rc := newReceiver(t, nil)
	created, creator := a.lobby()
	id := created.Game.ID
	a.subscribe(creator, play.NewWebhookRequest{Scope: play.ScopeGame, GameID: id, URL: rc.URL})
	seats := a.fill(created, creator)
	for range 10 {
		a.move(id, seats)
	}
	var wg sync.WaitGroup
	for _, r := range []*hookRig{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 200 {
				worked, err := r.master.WebhookPass(context.Background())
				if err != nil {
					t.Error(err)
					return
				}
				if !worked && a.count(`SELECT count(*) FROM webhook_deliveries`)+a.count(`SELECT count(*) FROM webhook_outbox`) == 0 {
					return
				}
			}
		}()
	}
	wg.Wait()
	got := rc.requests()
	seen := map[string]bool{}
	var lastSeq int64 = -1
	for _, g := range got {
		if seen[g.ID] {
			t.Fatalf("webhook %s delivered twice", g.ID)
		}
		seen[g.ID] = true
		p := decodePayload(t, g)
		if p.Data.Seq < lastSeq {
			t.Fatalf("entry %d after %d", p.Data.Seq, lastSeq)
		}
		lastSeq = p.Data.Seq
	}
	if lastSeq != 10 {
		t.Fatalf("delivered up to entry %d, want 10", lastSeq)
	}

	// A worker claims the next delivery and dies before sending it: nothing goes until its lease
	// runs out; then the other worker sends it, with the id the dead one held.
	a.move(id, seats)
	if _, err := a.master.FanOutWebhooks(context.Background()); err != nil {
		t.Fatal(err)
	}
	claimed, err := a.db.Games().ClaimDeliveries(context.Background(), a.clock.Now(), testWebhookConfig.Lease, play.DeliveryClaim{Limit: 1, Failing: 1, PerSubscription: 1})
	if err != nil || len(claimed) != 1 {
		t.Fatalf("claim: %v, %d", err, len(claimed))
	}
	before := len(rc.requests())
	b.drain()
	if len(rc.requests()) != before {
		t.Fatal("a delivery under lease was sent")
	}
	a.clock.Advance(testWebhookConfig.Lease + time.Second)
	b.drain()
	after := rc.requests()
	if len(after) == before || after[before].ID != claimed[0].WebhookID {
		t.Fatalf("after the lease: %d requests, want the claimed %s first", len(after)-before, claimed[0].WebhookID)
	}
}

// Who may subscribe to what, within a quota per token.
func TestWebhookSubscribersAndQuota(t *testing.T) {
	t.Parallel()
	r := newHookRig(t)
	ctx := context.Background()
	created, creator := r.lobby()
	id := created.Game.ID
	url := "http://127.0.0.1:9/hook"
	other, _ := r.lobby()
	refusals := []struct {
		p    play.Principal
		req  play.NewWebhookRequest
		code string
	}{
		{play.IdentifyToken(other.CreatorToken, ""), play.NewWebhookRequest{Scope: play.ScopeGame, GameID: id, URL: url}, "unauthorized"},
		{creator, play.NewWebhookRequest{Scope: play.ScopeService, URL: url}, "forbidden"},
		{creator, play.NewWebhookRequest{Scope: play.ScopeClassroom, ClassroomID: "x", URL: url}, "forbidden"},
		{creator, play.NewWebhookRequest{Scope: play.ScopeGame, GameID: id, URL: "ftp://127.0.0.1/x"}, "invalid_webhook_url"},
		{creator, play.NewWebhookRequest{Scope: play.ScopeGame, GameID: id, URL: "http://10.0.0.1/x"}, "webhook_url_not_allowed"},
		{creator, play.NewWebhookRequest{Scope: play.ScopeGame, GameID: id, URL: url, Events: []string{"moves"}}, "invalid_webhook_event"},
	}
	for _, c := range refusals {
		if _, _, err := r.master.CreateWebhook(ctx, c.p, c.req); domain.ErrorCode(err) != c.code {
			t.Errorf("%+v: %v, want %s", c.req, err, c.code)
		}
	}
	admin := play.Principal{Kind: play.Admin}
	if _, _, err := r.master.CreateWebhook(ctx, admin, play.NewWebhookRequest{Scope: play.ScopeService, URL: url}); err != nil {
		t.Fatalf("the admin's service-wide subscription: %v", err)
	}
	for range testWebhookConfig.Quota {
		r.subscribe(creator, play.NewWebhookRequest{Scope: play.ScopeGame, GameID: id, URL: url})
	}
	_, _, err := r.master.CreateWebhook(ctx, creator, play.NewWebhookRequest{Scope: play.ScopeGame, GameID: id, URL: url})
	var refusal *domain.Error
	if !errors.As(err, &refusal) || refusal.Code != "quota_exceeded" || refusal.Kind != domain.KindRateLimited ||
		refusal.Facts != (play.QuotaFacts{Quota: "webhook_subscriptions", Scope: "owner", Limit: testWebhookConfig.Quota, Count: testWebhookConfig.Quota}) {
		t.Fatalf("beyond the quota: %v", err)
	}
	list, err := r.master.Webhooks(ctx, creator)
	if err != nil || len(list) != testWebhookConfig.Quota {
		t.Fatalf("list: %d, %v", len(list), err)
	}
	if err := r.master.DeleteWebhook(ctx, admin, list[0].ID); domain.ErrorCode(err) != "webhook_not_found" {
		t.Fatalf("deleting another's subscription: %v", err)
	}
	if err := r.master.DeleteWebhook(ctx, creator, list[0].ID); err != nil {
		t.Fatal(err)
	}
	deleted := list[0].ID
	if list, _ := r.master.Webhooks(ctx, creator); len(list) != testWebhookConfig.Quota-1 || slices.ContainsFunc(list, func(w play.Webhook) bool { return w.ID == deleted }) {
		t.Fatalf("after the delete: %d", len(list))
	}
}

// A classroom's teacher gets the events of the classroom's games created after subscribing, the
// admin those of every game; neither gets another classroom's.
func TestWebhookClassroomAndServiceScopes(t *testing.T) {
	t.Parallel()
	r := newHookRig(t)
	ctx := context.Background()
	rc := newReceiver(t, nil)
	room, teacherToken, err := r.master.CreateClassroom(ctx, "Room 5")
	if err != nil {
		t.Fatal(err)
	}
	teacher, err := r.master.Resolve(ctx, play.IdentifyToken(teacherToken, ""))
	if err != nil {
		t.Fatal(err)
	}
	var students []string
	for _, name := range []string{"Ada", "Bo"} {
		st, _, _, err := r.master.JoinClassroom(ctx, room.JoinCode, name)
		if err != nil {
			t.Fatal(err)
		}
		students = append(students, st.ID)
	}
	r.subscribe(teacher, play.NewWebhookRequest{Scope: play.ScopeClassroom, ClassroomID: room.ID, URL: rc.URL + "/teacher", Events: []string{"game_started"}})
	r.subscribe(play.Principal{Kind: play.Admin}, play.NewWebhookRequest{Scope: play.ScopeService, URL: rc.URL + "/admin", Events: []string{"game_started"}})
	groups, err := r.master.CreateGroups(ctx, play.GroupGames{ClassroomID: room.ID, Kind: "primed", GroupSize: 2, Students: students})
	if err != nil || len(groups) != 1 {
		t.Fatalf("groups: %v", err)
	}
	outside, creator := r.lobby()
	r.fill(outside, creator)
	r.drain()
	byPath := map[string][]string{} // the game of each game_started, by receiver path
	for _, g := range rc.requests() {
		p := decodePayload(t, g)
		byPath[p.Type] = append(byPath[p.Type], p.Data.GameID)
	}
	// Two seats each: game_started twice per game per subscription.
	want := map[string]int{groups[0].ID: 4, outside.Game.ID: 2}
	got := map[string]int{}
	for _, id := range byPath["game_started"] {
		got[id]++
	}
	if got[groups[0].ID] != want[groups[0].ID] || got[outside.Game.ID] != want[outside.Game.ID] {
		t.Fatalf("game_started per game %v, want %v (the classroom's to the teacher and the admin, the other to the admin)", got, want)
	}
}

// Retries back off: from half to all of FirstRetry, doubling, never beyond MaxRetry.
func TestWebhookRetryDelayDoublesWithJitterUpToTheCap(t *testing.T) {
	t.Parallel()
	master := play.New(play.Stores{}, nil, play.WithWebhooks(testWebhookConfig, nil))
	full := testWebhookConfig.FirstRetry
	for attempts := 1; attempts <= 8; attempts++ {
		for range 50 {
			if d := master.WebhookRetryDelay(attempts); d < full/2 || d > full {
				t.Fatalf("after %d attempts: %s, want %s to %s", attempts, d, full/2, full)
			}
		}
		full = min(2*full, testWebhookConfig.MaxRetry)
	}
}

// A failing receiver does not pile up deliveries: past the backlog its subscription is disabled
// and what waited is dropped.
func TestWebhookBacklogOfAFailingReceiverIsBounded(t *testing.T) {
	t.Parallel()
	r := newHookRig(t)
	sender, err := outbound.New(outbound.Config{AllowedHosts: []string{"127.0.0.1"}, Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	cfg := testWebhookConfig
	cfg.Attempts, cfg.Backlog = 100, 3
	r.configure(cfg, sender)
	failing := newReceiver(t, func(_ int, w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusServiceUnavailable) })
	created, creator := r.lobby()
	hook, _ := r.subscribe(creator, play.NewWebhookRequest{Scope: play.ScopeGame, GameID: created.Game.ID, URL: failing.URL, Events: []string{"entry"}})
	seats := r.fill(created, creator)
	for range 4 {
		r.move(created.Game.ID, seats)
	}
	r.drain()
	w := r.subscription(creator, hook.ID)
	if w.DisabledAt == nil || w.DisabledReason == nil || !strings.Contains(*w.DisabledReason, "More than 3 deliveries") || len(failing.requests()) != 1 {
		t.Fatalf("after 5 entries to a failing receiver: %+v, %d requests", w, len(failing.requests()))
	}
	if n := r.count(`SELECT count(*) FROM webhook_deliveries`); n != 0 {
		t.Fatalf("%d deliveries left", n)
	}
}
