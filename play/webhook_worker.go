package play

import (
	"context"
	"log/slog"
	"time"

	"primegames/play/webhooks"
)

// The sending of webhooks is package webhooks'; play hands its loop the store's queue, the fan-out
// of the outbox and the check of a subscription's standing right before a send.

// The delivery side's types, under the names the store and the adapters know them by.
type (
	WebhookSender   = webhooks.Sender
	WebhookConfig   = webhooks.Config
	WebhookHeaders  = webhooks.Headers
	DeliveryQueue   = webhooks.Queue
	DeliveryClaim   = webhooks.Claim
	Delivery        = webhooks.Delivery
	DeliveryOutcome = webhooks.Outcome
)

// DefaultWebhookConfig is webhooks.DefaultConfig.
var DefaultWebhookConfig = webhooks.DefaultConfig

// DeliveriesPerSubscription bounds the deliveries of one subscription in flight at once, on all
// instances (webhooks.PerSubscription).
const DeliveriesPerSubscription = webhooks.PerSubscription

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
	s.webhookLoop(logger).Run(ctx)
}

// WakeWebhooks tells the worker that a change queued webhooks (the store's notice of a commit, on
// any instance). It never blocks; wakes that come while one is pending are one.
func (s *Service) WakeWebhooks() {
	select {
	case s.webhookWake <- struct{}{}:
	default:
	}
}

func (s *Service) webhookLoop(logger *slog.Logger) *webhooks.Loop {
	return &webhooks.Loop{Queue: s.store.WebhookOutbox, Sender: s.webhookSender, Config: s.webhookCfg, Clock: s.clock, Logger: logger,
		FanOut: s.FanOutWebhooks, MayDeliver: s.mayDeliver, Wake: s.webhookWake}
}

// WebhookPass fans out what the outbox holds, up to Batch games, then sends the deliveries due
// (up to Batch, Concurrency at once) and records their outcomes, all before it returns. It
// reports whether it found anything to do. Tests drain the queue with it; RunWebhooks does not
// wait for a batch.
func (s *Service) WebhookPass(ctx context.Context) (bool, error) {
	return s.webhookLoop(slog.Default()).Pass(ctx)
}

// webhookRetryDelay is webhooks.RetryDelay with the service's bounds.
func (s *Service) webhookRetryDelay(attempts int) time.Duration {
	return webhooks.RetryDelay(s.webhookCfg, attempts)
}
