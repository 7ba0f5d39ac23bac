package play_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"primegames/domain/games"
	"primegames/live"
	"primegames/outbound"
	"primegames/play"
	"primegames/play/playclock"
	"primegames/repo"
	"primegames/repo/repotest"
)

// failAfter bounds the wait for what a test expects: only a failure waits that long.
const failAfter = 30 * time.Second

// runSender runs master's webhook worker until the test ends, through a sender that waits a
// minute for an answer (longer than any test): a receiver that hangs holds its request.
func runSender(t *testing.T, db *repo.DB, clock *playclock.Clock, cfg play.WebhookConfig) *play.Service {
	t.Helper()
	sender, err := outbound.New(outbound.Config{AllowedHosts: []string{"127.0.0.1"}, Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	master := play.New(db.Games().Stores(), games.All(), play.WithClock(clock), play.WithWebhooks(cfg, sender))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		master.RunWebhooks(ctx, slog.New(slog.NewTextHandler(io.Discard, nil)))
	}()
	t.Cleanup(func() { cancel(); <-done })
	return master
}

// hangingReceivers starts n receivers that answer nothing until the test ends; inFlight counts
// the requests they hold, and arrived hears of each as it comes (a buffer of 4n: what goes beyond
// is counted, not heard).
func hangingReceivers(t *testing.T, n int, inFlight *atomic.Int32, arrived chan<- struct{}) []string {
	t.Helper()
	release := make(chan struct{})
	urls := make([]string, n)
	for i := range urls {
		srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
			inFlight.Add(1)
			select {
			case arrived <- struct{}{}:
			default:
			}
			<-release
		}))
		t.Cleanup(srv.Close)
		urls[i] = srv.URL
	}
	t.Cleanup(func() { close(release) }) // before the servers close, which wait for their requests
	return urls
}

// 64 receivers that never answer, each with deliveries pending, hold their requests; another
// subscriber's delivery still goes out at once, while every one of them still hangs.
func TestAHangingReceiverDelaysOnlyItsOwnDeliveries(t *testing.T) {
	t.Parallel()
	r := newHookRig(t)
	cfg := play.DefaultWebhookConfig
	cfg.Quota, cfg.AddressQuota, cfg.Poll = 100, 100, 20*time.Millisecond
	cfg.SealingKey = testWebhookConfig.SealingKey
	master := runSender(t, r.db, r.clock, cfg)

	var hanging atomic.Int32
	arrived := make(chan struct{}, 4*64)
	urls := hangingReceivers(t, 64, &hanging, arrived)
	attacked, attacker := r.lobby()
	for _, u := range urls {
		if _, _, err := master.CreateWebhook(context.Background(), attacker, play.NewWebhookRequest{Scope: play.ScopeGame, GameID: attacked.Game.ID, URL: u}); err != nil {
			t.Fatal(err)
		}
	}
	seats := r.fill(attacked, attacker) // several events for each hanging receiver
	r.move(attacked.Game.ID, seats)
	timeout := time.After(failAfter)
	for range 64 {
		select {
		case <-arrived:
		case <-timeout:
			t.Fatalf("%d of the 64 hanging receivers were called", hanging.Load())
		}
	}

	honest := newReceiver(t, nil)
	created, creator := r.lobby()
	r.subscribe(creator, play.NewWebhookRequest{Scope: play.ScopeGame, GameID: created.Game.ID, URL: honest.URL})
	r.fill(created, creator)
	select {
	case <-honest.calls:
	case <-time.After(failAfter):
		t.Fatalf("no delivery to the honest receiver while %d requests hang", hanging.Load())
	}
	if n := hanging.Load(); n < 64 {
		t.Fatalf("only %d requests hang", n)
	}
}

// The sender sleeps until a change that queued webhooks commits, on another instance: it does not
// poll (its poll is an hour, its clock does not move), it is woken by the notification.
func TestTheWebhookSenderIsWokenByACommitOnAnyInstance(t *testing.T) {
	t.Parallel()
	dbA, url := repotest.NewDBWithURL(t)
	a := rigOn(t, dbA, playclock.New(time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)))
	dbB, err := repo.Open(context.Background(), url, repo.PoolOptions{MaxConns: 4})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(dbB.Close)
	cfg := testWebhookConfig
	cfg.Poll = time.Hour
	b := runSender(t, dbB, a.clock, cfg)
	dbB.OnWebhookQueued(b.WakeWebhooks)
	listen(t, dbB)

	rc := newReceiver(t, nil)
	created, creator := a.lobby()
	a.subscribe(creator, play.NewWebhookRequest{Scope: play.ScopeGame, GameID: created.Game.ID, URL: rc.URL})
	a.fill(created, creator)
	select {
	case got := <-rc.calls:
		if p := decodePayload(t, got); p.Data.GameID != created.Game.ID {
			t.Fatalf("delivered %+v", p)
		}
	case <-time.After(failAfter):
		t.Fatal("the sender on the other instance was not woken")
	}
}

// listen runs db's listener, as a server's hub does, until the test ends; it returns once it listens.
func listen(t *testing.T, db *repo.DB) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	connected, done := make(chan struct{}, 1), make(chan struct{})
	go func() {
		defer close(done)
		db.Listen(ctx, live.Listener{
			Connected: func() {
				select {
				case connected <- struct{}{}:
				default:
				}
			},
			Notice: func(live.Notice) {},
			Failed: func(error, time.Duration) {},
		})
	}()
	t.Cleanup(func() { cancel(); <-done })
	select {
	case <-connected:
	case <-time.After(failAfter):
		t.Fatal("the listener did not connect")
	}
}

// Only a queue's head is due; the deliveries behind it wait (at 'infinity', found by no search)
// until it goes, however it goes: delivered, or deleted by another path, after which the next
// goes out, in order. Deliveries made due by hand behind their head are not sent before it.
func TestADeliveryBehindItsHeadWaitsUntilTheHeadGoes(t *testing.T) {
	t.Parallel()
	r := newHookRig(t)
	rc := newReceiver(t, nil)
	created, creator := r.lobby()
	r.subscribe(creator, play.NewWebhookRequest{Scope: play.ScopeGame, GameID: created.Game.ID, URL: rc.URL, Events: []string{"entry"}})
	seats := r.fill(created, creator)
	r.move(created.Game.ID, seats)
	r.move(created.Game.ID, seats)
	if _, err := r.master.FanOutWebhooks(context.Background()); err != nil {
		t.Fatal(err)
	}
	pending := r.count(`SELECT count(*) FROM webhook_deliveries`)
	if due := r.count(`SELECT count(*) FROM webhook_deliveries WHERE next_attempt_at < 'infinity'`); pending < 3 || due != 1 {
		t.Fatalf("%d pending, %d of them due; want one head due", pending, due)
	}
	r.count(`WITH gone AS (DELETE FROM webhook_deliveries WHERE id = (SELECT min(id) FROM webhook_deliveries) RETURNING 1) SELECT count(*) FROM gone`)
	if due := r.count(`SELECT count(*) FROM webhook_deliveries WHERE next_attempt_at < 'infinity'`); due != 1 {
		t.Fatalf("%d due after the head was deleted; want the next one", due)
	}
	r.count(`WITH due AS (UPDATE webhook_deliveries SET next_attempt_at = created_at RETURNING 1) SELECT count(*) FROM due`)
	r.drain()
	got := rc.requests()
	if len(got) != pending-1 {
		t.Fatalf("%d delivered, want %d", len(got), pending-1)
	}
	for i := 1; i < len(got); i++ {
		if a, b := decodePayload(t, got[i-1]).Data.Seq, decodePayload(t, got[i]).Data.Seq; b <= a {
			t.Fatalf("entry %d after %d", b, a)
		}
	}
}
