package play

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net/url"
	"slices"
	"strings"
	"time"

	"primegames/domain"
)

// Webhooks push a game's news to a backend (issue 26). Who may subscribe to what:
//
//   - a game: a seat's token (that seat's player events, and the game's entries) or the creator's
//     token (every seat's player events, and the entries), or the teacher of its classroom;
//   - a classroom (every game of it, those created later included): its teacher;
//   - the whole service: the operator's admin token.
//
// What a webhook carries is never more than its subscriber may read over the API: a player event
// names a game, a seat, a history entry's seq, the game's version and status (and the winners),
// as GET /v1/me/events does; an entry event names the entry (seq, seat, whether the server made it)
// and leaves its action and outcome to GET /v1/games/{id}/actions, which redacts them for the token
// that asks. No card, hidden or not, is in any webhook.

// Webhook event types, as a subscription lists them and a payload's `type` says.
const (
	WebhookEntry = "entry"
)

// WebhookEventTypes are the event types a subscription may ask for: the player events and entries.
var WebhookEventTypes = []string{GameStarted.String(), YourTurn.String(), TimedOut.String(), GameEnded.String(), WebhookEntry}

// WebhookSender sends webhooks over HTTP; cmd/primegames injects one (package outbound), so that
// the operator's rules of which addresses may be called hold at the one place that dials.
type WebhookSender interface {
	// CheckURL refuses a URL webhooks may not be sent to, with a sentence saying why.
	CheckURL(rawURL string) error
	// Send posts body to rawURL, signed with h, and returns the response's status; err describes a
	// request that got no status (refused address, timeout, connection failure).
	Send(ctx context.Context, rawURL string, h WebhookHeaders, body []byte) (status int, err error)
}

// WebhookConfig bounds the webhooks and paces their deliveries.
type WebhookConfig struct {
	// Quota is how many subscriptions one owner (a token, or the admin) may hold.
	Quota int
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

// DefaultWebhookConfig: 10 subscriptions per owner; 16 attempts, 10 s after the first failure,
// doubling up to 2 h, so a receiver is tried for 6 to 13 hours (12.8 without the jitter) before its
// subscription is disabled, or sooner once 10,000 of its deliveries wait; 64 deliveries claimed at
// a time, 256 in flight at once (DeliveriesPerSubscription of them per subscription).
var DefaultWebhookConfig = WebhookConfig{Quota: 10, Attempts: 16, FirstRetry: 10 * time.Second, MaxRetry: 2 * time.Hour,
	Lease: time.Minute, Batch: 64, Concurrency: 256, Poll: time.Second, Backlog: 10_000}

// SetWebhooks makes this instance accept subscriptions with cfg's bounds and lets RunWebhooks send
// through sender. Without it, subscriptions are refused.
func (s *Service) SetWebhooks(cfg WebhookConfig, sender WebhookSender) {
	s.webhookCfg, s.webhookSender = cfg, sender
}

// NewWebhookRequest is a subscription asked for.
type NewWebhookRequest struct {
	Scope       WebhookScope
	GameID      string // ScopeGame
	ClassroomID string // ScopeClassroom
	URL         string
	// Events are the event types wanted; none means all of them.
	Events []string
}

// maxWebhookURL bounds a subscription's URL.
const maxWebhookURL = 2048

// CreateWebhook subscribes the principal's backend, if the principal may see what it asks for.
// It returns the subscription and its secret, shown this once.
func (s *Service) CreateWebhook(ctx context.Context, p Principal, req NewWebhookRequest) (*Webhook, string, error) {
	if s.webhookSender == nil {
		return nil, "", domain.Errorf(domain.KindUnavailable, "webhooks_disabled", "This server sends no webhooks.")
	}
	w := &Webhook{Scope: req.Scope, URL: strings.TrimSpace(req.URL), CreatedAt: s.now()}
	if err := s.checkWebhookURL(w.URL); err != nil {
		return nil, "", err
	}
	events, err := webhookEvents(req.Events)
	if err != nil {
		return nil, "", err
	}
	w.Events = events
	if w.Owner, err = s.authorizeWebhook(ctx, p, req, w); err != nil {
		return nil, "", err
	}
	key, shown := newWebhookSecret()
	w.Secret = key
	err = s.store.InsertWebhook(ctx, w, s.webhookCfg.Quota)
	if errors.Is(err, ErrWebhookQuota) {
		return nil, "", domain.Errorf(domain.KindConflict, "webhook_quota_exceeded",
			"This token holds %d webhook subscriptions, the most allowed; delete one before creating another.", s.webhookCfg.Quota)
	}
	if err != nil {
		return nil, "", err
	}
	return w, shown, nil
}

func (s *Service) checkWebhookURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.User != nil || len(raw) > maxWebhookURL {
		return domain.Invalid("invalid_webhook_url", "The url must be an absolute http or https URL without credentials, of at most %d characters; got %q.", maxWebhookURL, raw)
	}
	if err := s.webhookSender.CheckURL(raw); err != nil {
		return domain.Errorf(domain.KindIllegal, "webhook_url_not_allowed", "This server does not send webhooks to %q: %v.", raw, err)
	}
	return nil
}

// webhookEvents checks the event types asked for; none means all.
func webhookEvents(asked []string) ([]string, error) {
	if len(asked) == 0 {
		return slices.Clone(WebhookEventTypes), nil
	}
	var events []string
	for _, e := range asked {
		if !slices.Contains(WebhookEventTypes, e) {
			return nil, domain.Invalid("invalid_webhook_event", "Unknown event %q; the events are %s.", e, strings.Join(WebhookEventTypes, ", "))
		}
		if !slices.Contains(events, e) {
			events = append(events, e)
		}
	}
	return events, nil
}

// authorizeWebhook checks that p may subscribe to what req asks, fills in w's scope and returns the
// subscription's owner.
func (s *Service) authorizeWebhook(ctx context.Context, p Principal, req NewWebhookRequest, w *Webhook) ([]byte, error) {
	switch req.Scope {
	case ScopeService:
		if p.Kind != Admin {
			return nil, domain.Errorf(domain.KindForbidden, "forbidden", "Only the admin token subscribes to every game.")
		}
	case ScopeClassroom:
		if !p.IsTeacher() || p.ClassroomID != req.ClassroomID {
			return nil, domain.Errorf(domain.KindForbidden, "forbidden", "Only the classroom's teacher subscribes to its games.")
		}
		w.ClassroomID = &req.ClassroomID
	case ScopeGame:
		rec, err := s.store.Game(ctx, req.GameID)
		if errors.Is(err, ErrNotFound) {
			return nil, gameNotFound(req.GameID)
		}
		if err != nil {
			return nil, err
		}
		caller, err := RequireCaller(rec, p)
		if err != nil {
			return nil, err
		}
		switch {
		case caller.HasSeat():
			w.Seat = &caller.Seat
		case !caller.Creator:
			return nil, domain.Errorf(domain.KindForbidden, "forbidden", "Only a seat's token, the creator's or the classroom's teacher subscribes to a game.")
		}
		w.GameID = &rec.ID
	default:
		return nil, domain.Invalid("invalid_webhook_scope", "The scope must be game, classroom or service; got %q.", req.Scope)
	}
	return webhookOwner(p), nil
}

// webhookOwner is whose subscriptions a principal lists and deletes: its token's hash, or the admin.
func webhookOwner(p Principal) []byte {
	if p.Kind == Admin {
		return []byte("admin")
	}
	return p.TokenHash
}

// Webhooks lists the principal's subscriptions.
func (s *Service) Webhooks(ctx context.Context, p Principal) ([]Webhook, error) {
	if p.Kind == Anonymous {
		return nil, domain.Errorf(domain.KindUnauthorized, "unauthorized", "This request needs a token: send it as Authorization: Bearer <token>.")
	}
	return s.store.Webhooks(ctx, webhookOwner(p))
}

// DeleteWebhook deletes one of the principal's subscriptions; its pending deliveries are dropped.
func (s *Service) DeleteWebhook(ctx context.Context, p Principal, id string) error {
	if p.Kind == Anonymous {
		return domain.Errorf(domain.KindUnauthorized, "unauthorized", "This request needs a token: send it as Authorization: Bearer <token>.")
	}
	err := s.store.DeleteWebhook(ctx, webhookOwner(p), id)
	if errors.Is(err, ErrNotFound) {
		return domain.Errorf(domain.KindNotFound, "webhook_not_found", "No webhook subscription %s of this token.", id)
	}
	return err
}

// newWebhookID is a delivery's webhook-id: "msg_" and 16 random bytes in hex. It stays the same
// across the delivery's attempts, so that a receiver can tell a repeat.
func newWebhookID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b) // crypto/rand.Read does not fail
	return "msg_" + hex.EncodeToString(b)
}
