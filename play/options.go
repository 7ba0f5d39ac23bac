package play

import "time"

// Option configures a Service at New; a Service is not reconfigured once made.
type Option func(*Service)

// WithClock makes the service read c (SystemClock by default).
func WithClock(c Clock) Option { return func(s *Service) { s.clock = c } }

// WithAbandonTTLs says when the worker aborts abandoned games (DefaultLobbyTTL, DefaultIdleGameTTL).
func WithAbandonTTLs(ttls AbandonTTLs) Option { return func(s *Service) { s.ttls = ttls } }

// WithQuotas sets the bounds Create enforces (DefaultQuotas).
func WithQuotas(q Quotas) Option { return func(s *Service) { s.quotas = q } }

// WithWorkerPassTimeout sets how long one pass of the worker may take (DefaultWorkerPassTimeout).
func WithWorkerPassTimeout(d time.Duration) Option { return func(s *Service) { s.passTimeout = d } }

// WithWebhooks makes the service accept subscriptions with cfg's bounds and lets RunWebhooks send
// through sender. Without it, or without cfg.SealingKey, subscriptions are refused.
func WithWebhooks(cfg WebhookConfig, sender WebhookSender) Option {
	return func(s *Service) {
		if len(cfg.SealingKey) == 0 {
			sender = nil
		}
		s.webhookCfg, s.webhookSender = cfg, sender
	}
}

// WithLinkSecret sets the secret picture links are sealed with; every instance of a deployment
// needs the same, for a link made by one to open on another. Without it, a random secret of this
// process's seals them.
func WithLinkSecret(secret []byte) Option {
	return func(s *Service) { s.links = newLinkSealer(secret) }
}
