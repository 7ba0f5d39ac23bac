package play

import (
	"context"
	"errors"
	"time"
)

// ErrWebhookQuota is what the store answers when an owner holds as many subscriptions as it may.
var ErrWebhookQuota = errors.New("webhook quota reached")

// WebhookStore keeps webhook subscriptions, the outbox of game changes and the deliveries. The
// outbox is written by Tx.AppendEntry and Tx.AbortGame, in the change's own transaction.
type WebhookStore interface {
	// InsertWebhook stores a subscription unless its owner holds quota of them already
	// (ErrWebhookQuota).
	InsertWebhook(ctx context.Context, w *Webhook, quota int) error
	// Webhooks lists the owner's subscriptions, oldest first.
	Webhooks(ctx context.Context, owner []byte) ([]Webhook, error)
	// DeleteWebhook deletes one of the owner's subscriptions with its pending deliveries;
	// ErrNotFound when the owner has none of that id.
	DeleteWebhook(ctx context.Context, owner []byte, id string) error
	// FanOut takes the outbox rows of one game that no other worker holds and calls fn with them
	// and the live subscriptions that may want them; in the same transaction it stores the
	// deliveries fn returns and deletes the rows. It reports whether there was a game to take.
	FanOut(ctx context.Context, now time.Time, fn func(OutboxBatch) ([]NewDelivery, error)) (bool, error)
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

// Webhook is one subscription.
type Webhook struct {
	ID          string
	Owner       []byte
	Scope       WebhookScope
	GameID      *string
	ClassroomID *string
	// Seat, for a seat's subscription to its game, limits the player events to that seat's.
	Seat      *int
	URL       string
	Secret    []byte
	Events    []string
	CreatedAt time.Time
	// Failures counts the attempts that failed in a row.
	Failures       int
	LastAttemptAt  *time.Time
	LastSuccessAt  *time.Time
	LastError      *string
	DisabledAt     *time.Time
	DisabledReason *string
}

// WebhookScope is what a subscription covers.
type WebhookScope string

const (
	ScopeGame      WebhookScope = "game"      // one game: a seat's or its creator's
	ScopeClassroom WebhookScope = "classroom" // every game of a classroom: its teacher's
	ScopeService   WebhookScope = "service"   // every game: the operator's
)

// OutboxBatch is the outbox rows of one game and the subscriptions that may want them.
type OutboxBatch struct {
	GameID string
	// Seqs are the history entries recorded, in order; -1 stands for the end of an aborted game.
	Seqs          []int64
	Subscriptions []Webhook
}

// NewDelivery is an event to send to a subscription.
type NewDelivery struct {
	SubscriptionID string
	WebhookID      string
	GameID         string
	Type           string
	Payload        []byte
}

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
	// Failing says that the subscription's last attempts failed (DeliveryClaim.Failing).
	Failing bool
}

// DeliveryOutcome is what an attempt came to.
type DeliveryOutcome struct {
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
