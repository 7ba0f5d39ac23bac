package play

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"sync"
	"time"
)

// RunWebhooks is the worker that delivers webhooks, on every instance, until ctx ends: it fans out
// the outbox and sends the deliveries that are due, at most Concurrency at once, each the oldest
// pending one of its subscription and game, so that a game's events reach a subscriber in order.
// Every instance may run it: the store hands each delivery to one worker at a time (a lease), so a
// delivery goes out once per attempt, and again, with the same webhook-id, only when an attempt's
// outcome was not recorded (its worker died mid-send, or it failed). It sends nothing inside a
// game's transaction: a slow receiver holds up its own deliveries and nothing else.
func (s *Service) RunWebhooks(ctx context.Context, logger *slog.Logger) {
	if s.webhookSender == nil {
		return
	}
	s.sealRawWebhookSecretsAtStart(ctx, logger)
	poll := time.NewTicker(s.webhookCfg.Poll)
	defer poll.Stop()
	for ctx.Err() == nil {
		worked, err := s.WebhookPass(ctx)
		if err != nil && ctx.Err() == nil {
			logger.Warn("webhooks: a pass failed; trying again", "error", err.Error())
		}
		if worked && err == nil {
			continue
		}
		var due <-chan time.Time
		stop := func() {}
		if at, err := s.store.NextWebhookDue(ctx); err == nil && at != nil {
			due, stop = s.clock.Timer(*at)
		}
		select {
		case <-ctx.Done():
		case <-poll.C:
		case <-due:
		}
		stop()
	}
}

// statusGone is HTTP's 410 Gone: the receiver wants no more webhooks (Standard Webhooks).
const statusGone = 410

// WebhookPass fans out what the outbox holds, up to Batch games, then sends one batch of due
// deliveries and records their outcomes. It reports whether it found anything to do.
func (s *Service) WebhookPass(ctx context.Context) (bool, error) {
	worked := false
	for range s.webhookCfg.Batch {
		found, err := s.FanOutWebhooks(ctx)
		if err != nil {
			return worked, err
		}
		if !found {
			break
		}
		worked = true
	}
	deliveries, err := s.store.ClaimDeliveries(ctx, s.now(), s.webhookCfg.Lease, s.webhookCfg.Batch)
	if err != nil {
		return worked, err
	}
	slots := make(chan struct{}, max(s.webhookCfg.Concurrency, 1))
	errs := make(chan error, len(deliveries))
	var wg sync.WaitGroup
	for i := range deliveries {
		slots <- struct{}{}
		wg.Add(1)
		go func(d *Delivery) {
			defer func() { <-slots; wg.Done() }()
			errs <- s.deliver(ctx, d)
		}(&deliveries[i])
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			return true, err
		}
	}
	return worked || len(deliveries) > 0, nil
}

// deliver sends one attempt of d and records its outcome. An attempt cut short by ctx (the
// instance stops) is not recorded: its lease runs out and it is sent again. Right before it sends,
// it asks whether the subscription's holder still has the authority (mayDeliver): a delivery
// queued before a token was replaced or a seat left does not go out after.
func (s *Service) deliver(ctx context.Context, d *Delivery) error {
	keys, send, err := s.mayDeliver(ctx, d)
	if !send || err != nil {
		return err
	}
	h := SignWebhook(keys, d.WebhookID, s.now(), d.Payload)
	status, err := s.webhookSender.Send(ctx, d.URL, h, d.Payload)
	if ctx.Err() != nil {
		return nil
	}
	now := s.now()
	var outcome DeliveryOutcome
	switch {
	case err == nil && status >= 200 && status < 300:
		outcome.Delivered = true
	case err == nil && status == statusGone:
		outcome.Error = "the receiver answered 410 Gone"
		outcome.DisableReason = "The receiver answered 410 Gone: it wants no more webhooks."
	default:
		outcome.Error = fmt.Sprintf("the receiver answered %d", status)
		if err != nil {
			outcome.Error = err.Error()
		}
		if d.Attempts >= s.webhookCfg.Attempts {
			outcome.DisableReason = fmt.Sprintf("%d attempts of a delivery failed, over %s; the last: %s.",
				d.Attempts, now.Sub(d.CreatedAt).Round(time.Second), outcome.Error)
		} else {
			outcome.RetryAt = now.Add(s.webhookRetryDelay(d.Attempts))
			outcome.Backlog = s.webhookCfg.Backlog
			outcome.BacklogReason = fmt.Sprintf("More than %d deliveries waited while the receiver failed; the last: %s.", outcome.Backlog, outcome.Error)
		}
	}
	return s.store.DeliveryDone(ctx, d, now, outcome)
}

// webhookRetryDelay is how long after its attempts-th failed attempt a delivery is tried again:
// FirstRetry, doubling with each attempt up to MaxRetry, from half of it to all of it at random so
// that the deliveries that failed together (a receiver down) do not all come back at once.
func (s *Service) webhookRetryDelay(attempts int) time.Duration {
	d := s.webhookCfg.FirstRetry
	for i := 1; i < attempts && d < s.webhookCfg.MaxRetry; i++ {
		d *= 2
	}
	d = min(d, s.webhookCfg.MaxRetry)
	return d/2 + rand.N(d/2+1)
}
