package webhooks

import (
	"context"
	"time"
)

// Sender sends webhooks over HTTP; cmd/primegames injects one (package outbound), so that
// the operator's rules of which addresses may be called hold at the one place that dials.
type Sender interface {
	// CheckURL refuses a URL webhooks may not be sent to, with a sentence saying why.
	CheckURL(rawURL string) error
	// Send posts body to rawURL, signed with h, and returns the response's status; err describes a
	// request that got no status (refused address, timeout, connection failure).
	Send(ctx context.Context, rawURL string, h Headers, body []byte) (status int, err error)
}

// Config bounds the webhooks and paces their deliveries.
type Config struct {
	// Quota is how many subscriptions one owner (a principal: a classroom's teacher, a student, a
	// game token, the admin) may hold; AddressQuota how many may be made from one address (0: no
	// bound).
	Quota, AddressQuota int
	// PendingPerSubscription and PendingPerOwner bound the deliveries waiting for one subscription
	// and for all of one owner's: the events beyond are not queued for it but counted (dropped).
	PendingPerSubscription, PendingPerOwner int
	// SealingKey seals the subscriptions' signing keys at rest (SECRET_KEY): without it the
	// database holds nothing that signs. SecretOverlap is how long a rotated secret still signs
	// beside the new one.
	SealingKey    []byte
	SecretOverlap time.Duration
	// Attempts is how many times a delivery is tried before its subscription is disabled.
	Attempts int
	// FirstRetry and MaxRetry bound the backoff between attempts: FirstRetry after the first
	// failure, twice as long after each next, at most MaxRetry, each with jitter (from half to all of it).
	FirstRetry, MaxRetry time.Duration
	// Lease is how long a worker holds a delivery it is sending: longer than a send can take; once
	// it has run out (the worker died) another worker sends it again, with the same webhook-id.
	Lease time.Duration
	// Batch is how many deliveries a worker claims at once; Concurrency how many it sends at once.
	Batch, Concurrency int
	// Backlog is how many deliveries a failing subscription may have pending; beyond, it is disabled.
	Backlog int
	// Poll is how often (in real time) the worker looks for work written by other instances.
	Poll time.Duration
}

// DefaultConfig: 10 subscriptions per owner, 20 per address; 1,000 deliveries pending per
// subscription, 2,000 per owner; a rotated secret signs for 24 hours more; 16 attempts, 10 s after
// the first failure, doubling up to 2 h, so a receiver is tried for 6 to 13 hours (12.8 without the
// jitter) before its subscription is disabled, or sooner once 10,000 of its deliveries wait; 64
// deliveries claimed at a time, 256 in flight at once (PerSubscription of them per
// subscription). It has no sealing key: play.WithWebhooks needs one.
var DefaultConfig = Config{Quota: 10, AddressQuota: 20, PendingPerSubscription: 1_000, PendingPerOwner: 2_000,
	SecretOverlap: 24 * time.Hour, Attempts: 16, FirstRetry: 10 * time.Second, MaxRetry: 2 * time.Hour,
	Lease: time.Minute, Batch: 64, Concurrency: 256, Poll: time.Second, Backlog: 10_000}

// Delivery is a claimed delivery, with where and how to send it.
type Delivery struct {
	ID             int64
	WebhookID      string
	SubscriptionID string
	GameID         string
	Type           string
	Payload        []byte
	Attempts       int // this one included
	CreatedAt      time.Time
	URL            string
	Secret         []byte
	// Failing says that the subscription's last attempts failed (Claim.Failing).
	Failing bool
}

// Outcome is what an attempt came to.
type Outcome struct {
	Delivered bool
	// RetryAt, for a failed attempt, is when to try again; DisableReason, when set, disables the
	// subscription instead.
	RetryAt       time.Time
	Error         string
	DisableReason string
	// Backlog, for a failed attempt to be tried again, disables the subscription (for
	// BacklogReason) instead when more than Backlog of its deliveries are pending: a receiver
	// down does not pile up an unbounded queue while its retries run.
	Backlog       int
	BacklogReason string
}
