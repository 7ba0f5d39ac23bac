package play

import (
	"context"
	"fmt"
	"time"
)

// WebhookQuotaError is what the store answers when a subscription would take its owner or its
// address beyond a quota: which (Scope "owner" or "address"), its Limit and the Count held.
type WebhookQuotaError struct {
	Scope        string
	Limit, Count int
}

func (e *WebhookQuotaError) Error() string {
	return fmt.Sprintf("webhook quota reached: %d of %d per %s", e.Count, e.Limit, e.Scope)
}

// WebhookQuotas bound the subscriptions of one owner and of one address (0: no bound).
type WebhookQuotas struct{ Owner, Address int }

// WebhookRevival is what ResumeWebhook and RetryWebhook change: Resume binds a suspended
// subscription to TokenHash, the holder's current token; Enable enables a disabled one again;
// DueNow makes its waiting deliveries due at Now.
type WebhookRevival struct {
	Resume, Enable, DueNow bool
	TokenHash              []byte
	Now                    time.Time
}

// WebhookSubscriptions keeps webhook subscriptions, each under its owner's key.
//
// A subscription's standing (Webhook.Status) is worked out by the store from its owner's
// authority as it is now: active, suspended (made with a teacher's or student's token since
// replaced), disabled, or ended (its seat left, its student removed, its classroom gone), which
// the store deletes when it finds it and never lists.
type WebhookSubscriptions interface {
	// InsertWebhook stores a subscription (under w.ID) unless its owner or its address holds as
	// many as quotas allow (*WebhookQuotaError).
	InsertWebhook(ctx context.Context, w *Webhook, quotas WebhookQuotas) error
	// Webhooks lists the owner's subscriptions, oldest first, with their standing.
	Webhooks(ctx context.Context, ownerKey string) ([]Webhook, error)
	// DeleteWebhook deletes one of the owner's subscriptions with its pending deliveries;
	// ErrNotFound when the owner has none of that id.
	DeleteWebhook(ctx context.Context, ownerKey string, id string) error
	// ReviveWebhook changes one of the owner's subscriptions as how says and returns it.
	ReviveWebhook(ctx context.Context, ownerKey string, id string, how WebhookRevival) (*Webhook, error)
	// RotateWebhookSecret replaces the sealed keys of one of the owner's subscriptions by
	// reseal's answer, in one transaction that holds the row.
	RotateWebhookSecret(ctx context.Context, ownerKey string, id string, reseal func(sealed []byte) ([]byte, error)) (*Webhook, error)
	// FollowableWebhooks lists the active subscriptions of a game not yet followed to a rematch.
	FollowableWebhooks(ctx context.Context, gameID string) ([]Webhook, error)
	// RawWebhookSecrets lists up to limit subscriptions whose signing key is stored raw (from
	// before keys were sealed); SealWebhookSecret replaces one by its sealed form, unless it has
	// changed since.
	RawWebhookSecrets(ctx context.Context, limit int) (map[string][]byte, error)
	SealWebhookSecret(ctx context.Context, id string, raw, sealed []byte) error
}

// WebhookOutbox turns the outbox of game changes into deliveries and hands them to the sender.
// The outbox is written by Tx.AppendEntry and Tx.AbortGame, in the change's own transaction.
type WebhookOutbox interface {
	DeliveryQueue
	// FanOut takes the outbox rows of one game that no other worker holds and calls fn with them
	// and the active subscriptions that may want them, with their pending deliveries counted; in
	// the same transaction it stores the deliveries fn returns, counts those it dropped, deletes
	// the ended subscriptions it found and deletes the rows. It reports whether there was a game to take.
	FanOut(ctx context.Context, now time.Time, fn func(OutboxBatch) (FanOutResult, error)) (bool, error)
	// WebhookStanding is a subscription's standing as it is now, for a delivery about to be sent:
	// a suspended or disabled one's pending deliveries are dropped, an ended one is deleted (its
	// deliveries with it), a deleted one is WebhookEnded.
	WebhookStanding(ctx context.Context, id string) (WebhookStatus, error)
}

// Webhook is one subscription.
type Webhook struct {
	ID     string
	Owner  WebhookOwner
	Status WebhookStatus
	// Address is where the request that made it came from ("" when not known); the store keeps
	// only a keyed hash of it.
	Address     string
	Scope       WebhookScope
	GameID      *string
	ClassroomID *string
	// Seat, for a seat's subscription to its game, limits the player events to that seat's: the
	// seat its holder holds now.
	Seat *int
	URL  string
	// Secret is the sealed signing keys (sealWebhookKeys).
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
	// Dropped counts the events not queued for it because it or its owner had as many deliveries
	// pending as allowed; LastDroppedAt is when the last was.
	Dropped       int64
	LastDroppedAt *time.Time
	// FollowedFrom, for a copy made for a rematch (Tx.FollowWebhooks), is the subscription copied.
	FollowedFrom string
	// Pending and OwnerPending, in a fan-out's batch, are the deliveries waiting for it and for
	// its owner's subscriptions (counted up to a bound above the quotas).
	Pending, OwnerPending int
}

// WebhookOwner is the principal a subscription belongs to: Key names it ("admin",
// "classroom:<id>" for its teacher, "student:<id>", "token:<hash>" for a game token); Kind is
// admin, teacher, student or token; TokenHash the token that holds its authority.
type WebhookOwner struct {
	Key, Kind              string
	ClassroomID, StudentID string
	TokenHash              []byte
}

// WebhookStatus is a subscription's standing.
type WebhookStatus string

const (
	WebhookActive    WebhookStatus = "active"
	WebhookSuspended WebhookStatus = "suspended" // made with a token since replaced: resume or delete it
	WebhookDisabled  WebhookStatus = "disabled"  // failed for good, or answered 410: retry or delete it
	WebhookEnded     WebhookStatus = "ended"     // its holder's authority ended: it is deleted
)

// FanOutResult is what a fan-out of one game comes to: the deliveries to queue, and per
// subscription the events dropped at a bound of pending deliveries.
type FanOutResult struct {
	Deliveries []NewDelivery
	Dropped    map[string]int
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
