package webhooks

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"sync"
	"time"
)

// PerSubscription bounds the deliveries of one subscription in flight at once, on all
// instances: a receiver that hangs holds that many of the shared slots at most.
const PerSubscription = 2

// Clock is the time the loop reads: play.Clock.
type Clock interface {
	Now() time.Time
	Timer(at time.Time) (c <-chan time.Time, stop func())
}

// Queue is what the sender needs of the store: the deliveries.
type Queue interface {
	// ClaimDeliveries leases deliveries due at now, within c's bounds, each the oldest pending one
	// of its subscription and game (so that a game's events go out in order), until now+lease,
	// counting the attempt.
	ClaimDeliveries(ctx context.Context, now time.Time, lease time.Duration, c Claim) ([]Delivery, error)
	// DeliveryDone records the outcome of an attempt: delivered (the row goes), or failed with
	// errText and to be tried again at retryAt, or failed for good with the subscription disabled
	// for disableReason (its pending deliveries go).
	DeliveryDone(ctx context.Context, d *Delivery, now time.Time, outcome Outcome) error
	// NextWebhookDue is the earliest time a delivery that heads its queue is due (or its lease runs
	// out), nil when none is pending.
	NextWebhookDue(ctx context.Context) (*time.Time, error)
}

// Claim bounds a claim of deliveries.
type Claim struct {
	// Limit is how many deliveries to claim at most; Failing how many of them may be of
	// subscriptions whose last attempts failed (those come after the others).
	Limit, Failing int
	// PerSubscription is how many deliveries of a subscription may be in flight, those already
	// leased (by any worker) included.
	PerSubscription int
}

// Loop is the sender: what it sends from, through and by, and what play hands it to do.
type Loop struct {
	Queue  Queue
	Sender Sender
	Config Config
	Clock  Clock
	Logger *slog.Logger
	// FanOut turns one game's outbox rows into deliveries; it reports whether it found any.
	FanOut func(ctx context.Context) (bool, error)
	// MayDeliver says, right before a send, whether the subscription may still receive it, and
	// with which signing keys.
	MayDeliver func(ctx context.Context, d *Delivery) (keys [][]byte, send bool, err error)
	// Wake, when it receives, says that a change queued deliveries (on any instance).
	Wake <-chan struct{}
}

// sent is a send that ended.
type sent struct {
	failing bool
	err     error
}

// Run is the worker that delivers webhooks, on every instance, until ctx ends: it fans out
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
// It looks for work when Wake says a change queued some (on any instance, once committed),
// when one of its sends ends, when a delivery is due, and every Poll as a backstop.
func (l *Loop) Run(ctx context.Context) {
	limit := max(l.Config.Concurrency, 1)
	failingLimit := max(limit/2, 1)
	done := make(chan sent, limit)
	inFlight, failing := 0, 0
	defer func() {
		for ; inFlight > 0; inFlight-- {
			<-done
		}
	}()
	poll := time.NewTicker(l.Config.Poll)
	defer poll.Stop()
	ended := func(d sent) {
		inFlight--
		if d.failing {
			failing--
		}
		if d.err != nil && ctx.Err() == nil {
			l.Logger.Warn("webhooks: recording a delivery's outcome failed; it is sent again once its lease runs out", "error", d.err.Error())
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
			l.Logger.Warn("webhooks: a pass failed; trying again", "error", err.Error())
		}
		if err == nil && claimed > 0 && inFlight < limit {
			continue // more may be due
		}
		var due <-chan time.Time
		stop := func() {}
		if err == nil && inFlight < limit {
			// A due time already past is a delivery that waits for its subscription's sends or a
			// failing subscription's slot: the end of a send wakes the loop, not the time.
			if at, err := l.Queue.NextWebhookDue(ctx); err == nil && at != nil && at.After(l.Clock.Now()) {
				due, stop = l.Clock.Timer(*at)
			}
		}
		select {
		case <-ctx.Done():
		case d := <-done:
			ended(d)
		case <-l.Wake:
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
func (l *Loop) step(ctx context.Context, free, failing int, start func(*Delivery)) (int, error) {
	for range max(l.Config.Batch, 1) {
		found, err := l.FanOut(ctx)
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
	deliveries, err := l.Queue.ClaimDeliveries(ctx, l.Clock.Now(), l.Config.Lease,
		Claim{Limit: free, Failing: max(failing, 0), PerSubscription: PerSubscription})
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

// deliver sends one attempt of d and records its outcome. An attempt cut short by ctx (the
// instance stops) is not recorded: its lease runs out and it is sent again. Right before it sends,
// it asks whether the subscription's holder still has the authority (mayDeliver): a delivery
// queued before a token was replaced or a seat left does not go out after.
func (l *Loop) deliver(ctx context.Context, d *Delivery) error {
	keys, send, err := l.MayDeliver(ctx, d)
	if !send || err != nil {
		return err
	}
	h := Sign(keys, d.WebhookID, l.Clock.Now(), d.Payload)
	status, err := l.Sender.Send(ctx, d.URL, h, d.Payload)
	if ctx.Err() != nil {
		return nil
	}
	now := l.Clock.Now()
	var outcome Outcome
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
		if d.Attempts >= l.Config.Attempts {
			outcome.DisableReason = fmt.Sprintf("%d attempts of a delivery failed, over %s; the last: %s.",
				d.Attempts, now.Sub(d.CreatedAt).Round(time.Second), outcome.Error)
		} else {
			outcome.RetryAt = now.Add(RetryDelay(l.Config, d.Attempts))
			outcome.Backlog = l.Config.Backlog
			outcome.BacklogReason = fmt.Sprintf("More than %d deliveries waited while the receiver failed; the last: %s.", outcome.Backlog, outcome.Error)
		}
	}
	return l.Queue.DeliveryDone(ctx, d, now, outcome)
}

// RetryDelay is how long after its attempts-th failed attempt a delivery is tried again:
// FirstRetry, doubling with each attempt up to MaxRetry, from half of it to all of it at random so
// that the deliveries that failed together (a receiver down) do not all come back at once.
func RetryDelay(cfg Config, attempts int) time.Duration {
	d := cfg.FirstRetry
	for i := 1; i < attempts && d < cfg.MaxRetry; i++ {
		d *= 2
	}
	d = min(d, cfg.MaxRetry)
	return d/2 + rand.N(d/2+1)
}

// Pass fans out what the outbox holds, up to Batch games, then sends the deliveries due
// (up to Batch, Concurrency at once) and records their outcomes, all before it returns. It
// reports whether it found anything to do. Tests drain the queue with it; Run does not wait for a
// batch.
func (l *Loop) Pass(ctx context.Context) (bool, error) {
	fannedOut := false
	fanOut := l.FanOut
	l.FanOut = func(ctx context.Context) (bool, error) {
		found, err := fanOut(ctx)
		fannedOut = fannedOut || found
		return found, err
	}
	slots := make(chan struct{}, max(l.Config.Concurrency, 1))
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	claimed, err := l.step(ctx, max(l.Config.Batch, 1), max(l.Config.Batch, 1), func(d *Delivery) {
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
