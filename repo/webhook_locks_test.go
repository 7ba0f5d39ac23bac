package repo_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"primegames/play"
	"primegames/repo"
	"primegames/repo/repotest"
)

// webhookWithQueues stores an operator's subscription with one pending delivery, due at now, in
// each of games, and an outbox row for each game; it returns the subscription's id.
func webhookWithQueues(ctx context.Context, t *testing.T, db *repo.DB, now time.Time, games []string) string {
	t.Helper()
	var id string
	if err := db.Pool.QueryRow(ctx, `INSERT INTO webhook_subscriptions (owner_key, owner_kind, scope, url, secret, events, created_at)
		VALUES ('admin', 'admin', 'service', 'https://hooks.example.com/', 'k', '{}', $1) RETURNING id::text`, now).Scan(&id); err != nil {
		t.Fatal(err)
	}
	for _, g := range games {
		if _, err := db.Pool.Exec(ctx, `INSERT INTO webhook_deliveries (webhook_id, subscription_id, game_id, type, payload, next_attempt_at, created_at)
			VALUES ('msg_' || gen_random_uuid(), $1, $2, 'game.entry', '{}', $3, $3)`, id, g, now); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Pool.Exec(ctx, `INSERT INTO webhook_outbox (game_id, seq, created_at) VALUES ($1, 1, $2)`, g, now); err != nil {
			t.Fatal(err)
		}
	}
	return id
}

// fanOutTo is a fan-out that queues one delivery of the batch's game for each subscription handed
// to it.
func fanOutTo(b play.OutboxBatch) play.FanOutResult {
	var r play.FanOutResult
	for _, w := range b.Subscriptions {
		r.Deliveries = append(r.Deliveries, play.NewDelivery{SubscriptionID: w.ID, WebhookID: "msg_" + uuid.NewString(),
			GameID: b.GameID, Type: "game.entry", Payload: []byte(`{}`)})
	}
	return r
}

// A subscription deleted while a fan-out of one of its games holds that game's lock is deleted,
// and the fan-out then queues nothing for it: the deletion does not wait for the game's lock
// (promoting the next delivery of a queue whose subscription goes is pointless), and neither
// fails. Before, the deletion's cascade waited for the game's lock while the fan-out's insert
// waited for the subscription: Postgres broke the deadlock by failing one of them.
func TestWebhookDeletedWhileItsGameFansOut(t *testing.T) {
	t.Parallel()
	db := repotest.NewDB(t)
	ctx := context.Background()
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	game := uuid.NewString()
	id := webhookWithQueues(ctx, t, db, now, []string{game})

	deleted := make(chan error, 1)
	found, err := db.Games().FanOut(ctx, now, func(b play.OutboxBatch) (play.FanOutResult, error) {
		if len(b.Subscriptions) != 1 {
			return play.FanOutResult{}, fmt.Errorf("fan-out of %s handed %d subscriptions, want 1", b.GameID, len(b.Subscriptions))
		}
		// The game's lock is held here: delete the subscription, and go on once the deletion is
		// done or waits for a lock (as it did for the game's).
		go func() { deleted <- db.Games().DeleteWebhook(ctx, "admin", id) }()
		for {
			select {
			case err := <-deleted:
				deleted <- err
				return fanOutTo(b), nil
			default:
			}
			var waiting bool
			if err := db.Pool.QueryRow(ctx, `SELECT EXISTS (SELECT FROM pg_stat_activity
				WHERE wait_event_type = 'Lock' AND query LIKE 'DELETE FROM webhook_subscriptions%')`).Scan(&waiting); err != nil {
				return play.FanOutResult{}, err
			}
			if waiting {
				return fanOutTo(b), nil
			}
		}
	})
	if err != nil || !found {
		t.Fatalf("fan-out: found %v, %v", found, err)
	}
	if err := <-deleted; err != nil {
		t.Fatalf("deleting the subscription: %v", err)
	}
	var left int
	if err := db.Pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM webhook_deliveries) + (SELECT count(*) FROM webhook_outbox)`).Scan(&left); err != nil || left != 0 {
		t.Fatalf("%d deliveries and outbox rows left, %v; want none", left, err)
	}
}

// Deleting a subscription, fanning out its games, sending and disabling it, checking its standing
// and dropping another subscription's deliveries in the same games, all at once, round after round,
// never fails: no two of them wait on each other.
func TestWebhookDeletionsFanOutsAndDropsRaceWithoutDeadlock(t *testing.T) {
	t.Parallel()
	db := repotest.NewDB(t)
	ctx := context.Background()
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	store := db.Games()
	const rounds = 12
	for round := range rounds {
		games := []string{uuid.NewString(), uuid.NewString(), uuid.NewString(), uuid.NewString()}
		deleted := webhookWithQueues(ctx, t, db, now, games)
		disabled := webhookWithQueues(ctx, t, db, now, games)
		dropped := webhookWithQueues(ctx, t, db, now, games)
		// The third is disabled: its standing check drops its deliveries in every game.
		if _, err := db.Pool.Exec(ctx, `UPDATE webhook_subscriptions SET disabled_at = $2, disabled_reason = 'by hand' WHERE id = $1`,
			dropped, now); err != nil {
			t.Fatal(err)
		}
		claimed, err := store.ClaimDeliveries(ctx, now, time.Minute, play.DeliveryClaim{Limit: 64, PerSubscription: 4})
		if err != nil {
			t.Fatal(err)
		}
		var sent, failed []play.Delivery
		for _, d := range claimed {
			switch d.SubscriptionID {
			case deleted:
				sent = append(sent, d)
			case disabled:
				failed = append(failed, d)
			}
		}
		if len(sent) == 0 || len(failed) == 0 {
			t.Fatalf("round %d: claimed %d of the first subscription's deliveries and %d of the second's", round, len(sent), len(failed))
		}

		var wg sync.WaitGroup
		errs := make(chan error, 16)
		run := func(name string, fn func() error) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := fn(); err != nil {
					errs <- fmt.Errorf("round %d, %s: %w", round, name, err)
				}
			}()
		}
		run("delete", func() error { return store.DeleteWebhook(ctx, "admin", deleted) })
		for range 2 {
			run("fan-out", func() error {
				_, err := store.FanOut(ctx, now, func(b play.OutboxBatch) (play.FanOutResult, error) { return fanOutTo(b), nil })
				return err
			})
		}
		run("delivered", func() error { return store.DeliveryDone(ctx, &sent[0], now, play.DeliveryOutcome{Delivered: true}) })
		run("disable", func() error {
			return store.DeliveryDone(ctx, &failed[0], now, play.DeliveryOutcome{Error: "410", DisableReason: "gone"})
		})
		run("retry", func() error {
			d := failed[len(failed)-1]
			return store.DeliveryDone(ctx, &d, now, play.DeliveryOutcome{Error: "500", RetryAt: now.Add(time.Minute), Backlog: 1, BacklogReason: "behind"})
		})
		run("standing", func() error {
			_, err := store.WebhookStanding(ctx, dropped)
			return err
		})
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
		if t.Failed() {
			return
		}
		if _, err := db.Pool.Exec(ctx, `DELETE FROM webhook_subscriptions; DELETE FROM webhook_outbox`); err != nil {
			t.Fatal(err)
		}
	}
}
