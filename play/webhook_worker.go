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
// the outbox and sends the deliveries that are due, each the oldest pending one of its subscription
// and game, so that a game's events reach a subscriber in order. Every instance may run it: the
// store hands each delivery to one worker at a time (a lease), so a delivery goes out once per
// attempt, and again, with the same webhook-id, only when an attempt's outcome was not recorded
// (its worker died mid-send, or it failed). It sends nothing inside a game's transaction.
//
// A slow or dead receiver delays only its own deliveries: each send runs on its own and frees its
// slot when it ends, without waiting for others; a subscription has at most
// DeliveriesPerSubscription in flight (on all instances); at most Concurrency are in flight on the
// instance, of which subscriptions whose last attempts failed may hold half; and each claim takes
// every subscription's first delivery before any's second, healthy subscriptions first.
//
// It looks for work when WakeWebhooks says a change queued some (on any instance, once committed),
// when one of its sends ends, when a delivery is due, and every Poll as a backstop.
func (s *Service) RunWebhooks(ctx context.Context, logger *slog.Logger) {
	if s.webhookSender == nil {
		return
	}
	s.sealRawWebhookSecretsAtStart(ctx, logger)
	s.webhookLoop(logger).run(ctx)
}

// DeliveriesPerSubscription bounds the deliveries of one subscription in flight at once, on all
// instances: a receiver that hangs holds that many of the shared slots at most.
const DeliveriesPerSubscription = 2

// WakeWebhooks tells the worker that a change queued webhooks (the store's notice of a commit, on
// any instance). It never blocks; wakes that come while one is pending are one.
func (s *Service) WakeWebhooks() {
	select {
	case s.webhookWake <- struct{}{}:
	default:
	}
}

// DeliveryQueue is what the sender needs of the store: the deliveries.
type DeliveryQueue interface {
	// ClaimDeliveries leases deliveries due at now, within c's bounds, each the oldest pending one
	// of its subscription and game (so that a game's events go out in order), until now+lease,
	// counting the attempt.
	ClaimDeliveries(ctx context.Context, now time.Time, lease time.Duration, c DeliveryClaim) ([]Delivery, error)
	// DeliveryDone records the outcome of an attempt: delivered (the row goes), or failed with
	// errText and to be tried again at retryAt, or failed for good with the subscription disabled
	// for disableReason (its pending deliveries go).
	DeliveryDone(ctx context.Context, d *Delivery, now time.Time, outcome DeliveryOutcome) error
	// NextWebhookDue is the earliest time a delivery that heads its queue is due (or its lease runs
	// out), nil when none is pending.
	NextWebhookDue(ctx context.Context) (*time.Time, error)
}

// DeliveryClaim bounds a claim of deliveries.
type DeliveryClaim struct {
	// Limit is how many deliveries to claim at most; Failing how many of them may be of
	// subscriptions whose last attempts failed (those come after the others).
	Limit, Failing int
	// PerSubscription is how many deliveries of a subscription may be in flight, those already
	// leased (by any worker) included.
	PerSubscription int
}

// webhookLoop is the sender's state, apart from the Service so that it can run on a fake queue.
type webhookLoop struct {
	queue  DeliveryQueue
	sender WebhookSender
	cfg    WebhookConfig
	clock  Clock
	logger *slog.Logger
	// fanOut turns one game's outbox rows into deliveries; it reports whether it found any.
	fanOut func(ctx context.Context) (bool, error)
	// mayDeliver says, right before a send, whether the subscription may still receive it, and
	// with which signing keys.
	mayDeliver func(ctx context.Context, d *Delivery) (keys [][]byte, send bool, err error)
	wake       <-chan struct{}
}

func (s *Service) webhookLoop(logger *slog.Logger) *webhookLoop {
	return &webhookLoop{queue: s.store, sender: s.webhookSender, cfg: s.webhookCfg, clock: s.clock, logger: logger,
		fanOut: s.FanOutWebhooks, mayDeliver: s.mayDeliver, wake: s.webhookWake}
}

// sent is a send that ended.
type sent struct {
	failing bool
	err     error
}

func (l *webhookLoop) run(ctx context.Context) {
	limit := max(l.cfg.Concurrency, 1)
	failingLimit := max(limit/2, 1)
	done := make(chan sent, limit)
	inFlight, failing := 0, 0
	defer func() {
		for ; inFlight > 0; inFlight-- {
			<-done
		}
	}()
	poll := time.NewTicker(l.cfg.Poll)
	defer poll.Stop()
	ended := func(d sent) {
		inFlight--
		if d.failing {
			failing--
		}
		if d.err != nil && ctx.Err() == nil {
			l.logger.Warn("webhooks: recording a delivery's outcome failed; it is sent again once its lease runs out", "error", d.err.Error())
		}
	}
	for ctx.Err() == nil {
		claimed, err := l.step(ctx, limit-inFlight, failingLimit-failing, func(d *Delivery) {
			inFlight++
			if d.Failing {
				failing++
			}
			go func() { done <- sent{failing: d.Failing, err: l.deliver(ctx, d)} }()
		})
		if err != nil && ctx.Err() == nil {
			l.logger.Warn("webhooks: a pass failed; trying again", "error", err.Error())
		}
		if err == nil && claimed > 0 && inFlight < limit {
			continue // more may be due
		}
		var due <-chan time.Time
		stop := func() {}
		if err == nil && inFlight < limit {
			// A due time already past is a delivery that waits for its subscription's sends or a
			// failing subscription's slot: the end of a send wakes the loop, not the time.
			if at, err := l.queue.NextWebhookDue(ctx); err == nil && at != nil && at.After(l.clock.Now()) {
				due, stop = l.clock.Timer(*at)
			}
		}
		select {
		case <-ctx.Done():
		case d := <-done:
			ended(d)
		case <-l.wake:
		case <-poll.C:
		case <-due:
		}
		stop()
		for drained := false; !drained; { // every send that ended meanwhile frees its slot
			select {
			case d := <-done:
				ended(d)
			default:
				drained = true
			}
		}
	}
}

// step fans out what the outbox holds, up to Batch games, then claims what free slots allow
// (failing of them for failing subscriptions) and hands each delivery to start.
func (l *webhookLoop) step(ctx context.Context, free, failing int, start func(*Delivery)) (int, error) {
	for range max(l.cfg.Batch, 1) {
		found, err := l.fanOut(ctx)
		if err != nil {
			return 0, err
		}
		if !found {
			break
		}
	}
	if free <= 0 {
		return 0, nil
	}
	deliveries, err := l.queue.ClaimDeliveries(ctx, l.clock.Now(), l.cfg.Lease,
		DeliveryClaim{Limit: free, Failing: max(failing, 0), PerSubscription: DeliveriesPerSubscription})
	if err != nil {
		return 0, err
	}
	for i := range deliveries {
		start(&deliveries[i])
	}
	return len(deliveries), nil
}

// statusGone is HTTP's 410 Gone: the receiver wants no more webhooks (Standard Webhooks).
const statusGone = 410

// WebhookPass fans out what the outbox holds, up to Batch games, then sends the deliveries due
// (up to Batch, Concurrency at once) and records their outcomes, all before it returns. It
// reports whether it found anything to do. Tests drain the queue with it; RunWebhooks does not
// wait for a batch.
func (s *Service) WebhookPass(ctx context.Context) (bool, error) {
	l := s.webhookLoop(slog.Default())
	fannedOut := false
	fanOut := l.fanOut
	l.fanOut = func(ctx context.Context) (bool, error) {
		found, err := fanOut(ctx)
		fannedOut = fannedOut || found
		return found, err
	}
	slots := make(chan struct{}, max(s.webhookCfg.Concurrency, 1))
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	claimed, err := l.step(ctx, max(s.webhookCfg.Batch, 1), max(s.webhookCfg.Batch, 1), func(d *Delivery) {
		slots <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-slots; wg.Done() }()
			if err := l.deliver(ctx, d); err != nil {
				mu.Lock()
				firstErr = err
				mu.Unlock()
			}
		}()
	})
	wg.Wait()
	if err == nil {
		err = firstErr
	}
	return fannedOut || claimed > 0, err
}

// deliver sends one attempt of d and records its outcome. An attempt cut short by ctx (the
// instance stops) is not recorded: its lease runs out and it is sent again. Right before it sends,
// it asks whether the subscription's holder still has the authority (mayDeliver): a delivery
// queued before a token was replaced or a seat left does not go out after.
func (l *webhookLoop) deliver(ctx context.Context, d *Delivery) error {
	keys, send, err := l.mayDeliver(ctx, d)
	if !send || err != nil {
		return err
	}
	h := SignWebhook(keys, d.WebhookID, l.clock.Now(), d.Payload)
	status, err := l.sender.Send(ctx, d.URL, h, d.Payload)
	if ctx.Err() != nil {
		return nil
	}
	now := l.clock.Now()
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
		if d.Attempts >= l.cfg.Attempts {
			outcome.DisableReason = fmt.Sprintf("%d attempts of a delivery failed, over %s; the last: %s.",
				d.Attempts, now.Sub(d.CreatedAt).Round(time.Second), outcome.Error)
		} else {
			outcome.RetryAt = now.Add(webhookRetryDelay(l.cfg, d.Attempts))
			outcome.Backlog = l.cfg.Backlog
			outcome.BacklogReason = fmt.Sprintf("More than %d deliveries waited while the receiver failed; the last: %s.", outcome.Backlog, outcome.Error)
		}
	}
	return l.queue.DeliveryDone(ctx, d, now, outcome)
}

// webhookRetryDelay is how long after its attempts-th failed attempt a delivery is tried again:
// FirstRetry, doubling with each attempt up to MaxRetry, from half of it to all of it at random so
// that the deliveries that failed together (a receiver down) do not all come back at once.
func webhookRetryDelay(cfg WebhookConfig, attempts int) time.Duration {
	d := cfg.FirstRetry
	for i := 1; i < attempts && d < cfg.MaxRetry; i++ {
		d *= 2
	}
	d = min(d, cfg.MaxRetry)
	return d/2 + rand.N(d/2+1)
}

// webhookRetryDelay is webhookRetryDelay with the service's bounds.
func (s *Service) webhookRetryDelay(attempts int) time.Duration {
	return webhookRetryDelay(s.webhookCfg, attempts)
}
