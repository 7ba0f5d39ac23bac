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
	"primegames/play/webhooks"
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
//
// A subscription belongs to the principal whose token made it (issue 39), not to the token: the
// classroom for its teacher, the student, the game token itself, or the admin (webhookOwner). It
// delivers only while that principal's authority holds, which the store works out from the
// owner's rows as they are when the events are fanned out and again right before each delivery
// is sent: suspended once the teacher's or student's token was replaced (the new token may resume
// it), ended once the seat was left or the student removed.

// Webhook event types, as a subscription lists them and a payload's `type` says.
const (
	WebhookEntry = "entry"
)

// WebhookEventTypes are the event types a subscription may ask for: the player events and entries.
var WebhookEventTypes = []string{GameStarted.String(), YourTurn.String(), TimedOut.String(), GameEnded.String(), WebhookEntry,
	AssignmentDoneEvent, AssignmentDueSoonEvent}

// NewWebhookRequest is a subscription asked for.
type NewWebhookRequest struct {
	Scope       WebhookScope
	GameID      string // ScopeGame
	ClassroomID string // ScopeClassroom
	URL         string
	// Events are the event types wanted; none means all of them.
	Events []string
	// Address is the address the request came from ("" when not known), for the quota per address.
	Address string
}

// maxWebhookURL bounds a subscription's URL.
const maxWebhookURL = 2048

// CreateWebhook subscribes the principal's backend, if the principal may see what it asks for.
// It returns the subscription and its secret, shown this once.
func (s *Service) CreateWebhook(ctx context.Context, p Principal, req NewWebhookRequest) (*Webhook, string, error) {
	return s.subscriptions.CreateWebhook(ctx, p, req)
}

// webhookQuotaRefusal is a subscription refused at a quota: 429 with which bound, its limit and
// the count held.
func webhookQuotaRefusal(q *WebhookQuotaError) error {
	who := "Whoever holds this token holds"
	if q.Scope == "address" {
		who = "The clients at this address hold"
	}
	return domain.Errorf(domain.KindRateLimited, "quota_exceeded",
		"%s %d webhook subscriptions, the most allowed; delete one before creating another.", who, q.Count).
		WithFacts(QuotaFacts{Quota: "webhook_subscriptions", Scope: q.Scope, Limit: q.Limit, Count: q.Count})
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

// missingField is a request refused for lacking a field its other fields call for: well-formed
// JSON the contract takes, but not a request that can be carried out (422).
func missingField(field, why string) error {
	e := domain.Errorf(domain.KindIllegal, "missing_field", "%s is required: %s.", field, why)
	e.Fields = []domain.FieldError{{Field: field, Message: "required: " + why}}
	return e
}

// webhookOwner is the principal whose subscriptions p lists, deletes and makes: the admin, a
// classroom's teacher, a student, or a game token (its own principal), with the token that now
// holds its authority. A teacher's or student's token that no longer works is refused, as
// everywhere.
func webhookOwner(p Principal) (WebhookOwner, error) {
	switch {
	case p.Kind == Admin:
		return WebhookOwner{Key: "admin", Kind: "admin"}, nil
	case p.Kind == Anonymous:
		return WebhookOwner{}, domain.Errorf(domain.KindUnauthorized, "unauthorized", "This request needs a token: send it as Authorization: Bearer <token>.")
	case p.Kind == Teacher || p.Kind == Student:
		if !p.Resolved {
			return WebhookOwner{}, domain.Errorf(domain.KindUnauthorized, "unauthorized",
				"This token is not valid (a replaced teacher or student token, or a removed student's, stops working).")
		}
		if p.Kind == Teacher {
			return WebhookOwner{Key: "classroom:" + p.ClassroomID, Kind: "teacher", ClassroomID: p.ClassroomID, TokenHash: p.TokenHash}, nil
		}
		return WebhookOwner{Key: "student:" + p.StudentID, Kind: "student", ClassroomID: p.ClassroomID, StudentID: p.StudentID, TokenHash: p.TokenHash}, nil
	}
	return WebhookOwner{Key: "token:" + hex.EncodeToString(p.TokenHash), Kind: "token", TokenHash: p.TokenHash}, nil
}

// Webhooks lists the principal's subscriptions: those made with an earlier token of the same
// teacher or student too, suspended.
func (s *Service) Webhooks(ctx context.Context, p Principal) ([]Webhook, error) {
	return s.subscriptions.Webhooks(ctx, p)
}

// DeleteWebhook deletes one of the principal's subscriptions; its pending deliveries are dropped.
func (s *Service) DeleteWebhook(ctx context.Context, p Principal, id string) error {
	return s.subscriptions.DeleteWebhook(ctx, p, id)
}

func webhookNotFound(id string) error {
	return domain.Errorf(domain.KindNotFound, "webhook_not_found", "No webhook subscription %s of this token's holder.", id)
}

// ResumeWebhook makes a suspended subscription (one made with the holder's earlier token) deliver
// again, under the token presented; the events of its suspension are not sent. Resuming an active
// or disabled one changes nothing.
func (s *Service) ResumeWebhook(ctx context.Context, p Principal, id string) (*Webhook, error) {
	return s.subscriptions.ResumeWebhook(ctx, p, id)
}

// RetryWebhook is "retry now": the subscription's waiting deliveries are due at once, a disabled
// one is enabled again (its failures count from 0) and a suspended one resumed, since the holder
// asking has fixed what failed.
func (s *Service) RetryWebhook(ctx context.Context, p Principal, id string) (*Webhook, error) {
	return s.subscriptions.RetryWebhook(ctx, p, id)
}

// RotatedSecret is a subscription's new secret, shown once, and until when the one it replaces
// still signs (beside it).
type RotatedSecret struct {
	Webhook               *Webhook
	Secret                string
	PreviousSecretExpires time.Time
}

// RotateWebhookSecret gives a subscription a new signing secret. For SecretOverlap the
// deliveries are signed with both, so that a receiver can switch to the new one at its pace.
func (s *Service) RotateWebhookSecret(ctx context.Context, p Principal, id string) (*RotatedSecret, error) {
	return s.subscriptions.RotateWebhookSecret(ctx, p, id)
}

// newUUID is a random (version 4) UUID.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read does not fail
	b[6], b[8] = b[6]&0x0f|0x40, b[8]&0x3f|0x80
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// newWebhookID is a delivery's webhook-id: "msg_" and 16 random bytes in hex. It stays the same
// across the delivery's attempts, so that a receiver can tell a repeat.
func newWebhookID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b) // crypto/rand.Read does not fail
	return "msg_" + hex.EncodeToString(b)
}

func (sb *subscriptions) CreateWebhook(ctx context.Context, p Principal, req NewWebhookRequest) (*Webhook, string, error) {
	if sb.sender == nil {
		return nil, "", domain.Errorf(domain.KindUnavailable, "webhooks_disabled", "This server sends no webhooks.")
	}
	owner, err := webhookOwner(p)
	if err != nil {
		return nil, "", err
	}
	w := &Webhook{ID: newUUID(), Owner: owner, Scope: req.Scope, URL: strings.TrimSpace(req.URL), CreatedAt: sb.clock.Now(), Address: req.Address}
	if err := sb.checkWebhookURL(w.URL); err != nil {
		return nil, "", err
	}
	events, err := webhookEvents(req.Events)
	if err != nil {
		return nil, "", err
	}
	w.Events = events
	if err := sb.authorizeWebhook(ctx, p, req, w); err != nil {
		return nil, "", err
	}
	key, shown := webhooks.NewSecret()
	if w.Secret, err = sb.sealWebhookKeys(w.ID, webhookKeys{Current: key}); err != nil {
		return nil, "", err
	}
	var quota *WebhookQuotaError
	err = sb.store.InsertWebhook(ctx, w, WebhookQuotas{Owner: sb.cfg.Quota, Address: sb.cfg.AddressQuota})
	if errors.As(err, &quota) {
		return nil, "", webhookQuotaRefusal(quota)
	}
	if err != nil {
		return nil, "", err
	}
	w.Status = WebhookActive
	return w, shown, nil
}

func (sb *subscriptions) checkWebhookURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.User != nil || len(raw) > maxWebhookURL {
		return domain.Invalid("invalid_webhook_url", "The url must be an absolute http or https URL without credentials, of at most %d characters; got %q.", maxWebhookURL, raw)
	}
	if err := sb.sender.CheckURL(raw); err != nil {
		return domain.Errorf(domain.KindIllegal, "webhook_url_not_allowed", "This server does not send webhooks to %q: %v.", raw, err)
	}
	return nil
}

// authorizeWebhook checks that p may subscribe to what req asks and fills in w's scope.
func (sb *subscriptions) authorizeWebhook(ctx context.Context, p Principal, req NewWebhookRequest, w *Webhook) error {
	switch req.Scope {
	case ScopeService:
		if p.Kind != Admin {
			return domain.Errorf(domain.KindForbidden, "forbidden", "Only the admin token subscribes to every game.")
		}
	case ScopeClassroom:
		if req.ClassroomID == "" {
			return missingField("classroom_id", "a subscription of scope classroom names its classroom")
		}
		if !p.IsTeacher() || p.ClassroomID != req.ClassroomID {
			return domain.Errorf(domain.KindForbidden, "forbidden", "Only the classroom's teacher subscribes to its games.")
		}
		w.ClassroomID = &req.ClassroomID
	case ScopeGame:
		if req.GameID == "" {
			return missingField("game_id", "a subscription of scope game names its game")
		}
		rec, err := sb.games.Game(ctx, req.GameID)
		if errors.Is(err, ErrNotFound) {
			return gameNotFound(req.GameID)
		}
		if err != nil {
			return err
		}
		caller, err := RequireCaller(rec, p)
		if err != nil {
			return err
		}
		switch {
		case caller.HasSeat():
			w.Seat = &caller.Seat
		case !caller.Creator:
			return domain.Errorf(domain.KindForbidden, "forbidden", "Only a seat's token, the creator's or the classroom's teacher subscribes to a game.")
		}
		w.GameID = &rec.ID
	default:
		return domain.Invalid("invalid_webhook_scope", "The scope must be game, classroom or service; got %q.", req.Scope)
	}
	return nil
}

func (sb *subscriptions) Webhooks(ctx context.Context, p Principal) ([]Webhook, error) {
	owner, err := webhookOwner(p)
	if err != nil {
		return nil, err
	}
	return sb.store.Webhooks(ctx, owner.Key)
}

func (sb *subscriptions) DeleteWebhook(ctx context.Context, p Principal, id string) error {
	owner, err := webhookOwner(p)
	if err != nil {
		return err
	}
	err = sb.store.DeleteWebhook(ctx, owner.Key, id)
	if errors.Is(err, ErrNotFound) {
		return webhookNotFound(id)
	}
	return err
}

func (sb *subscriptions) ResumeWebhook(ctx context.Context, p Principal, id string) (*Webhook, error) {
	return sb.reviveWebhook(ctx, p, id, WebhookRevival{Resume: true})
}

func (sb *subscriptions) RetryWebhook(ctx context.Context, p Principal, id string) (*Webhook, error) {
	return sb.reviveWebhook(ctx, p, id, WebhookRevival{Resume: true, Enable: true, DueNow: true})
}

func (sb *subscriptions) reviveWebhook(ctx context.Context, p Principal, id string, how WebhookRevival) (*Webhook, error) {
	owner, err := webhookOwner(p)
	if err != nil {
		return nil, err
	}
	how.TokenHash, how.Now = owner.TokenHash, sb.clock.Now()
	w, err := sb.store.ReviveWebhook(ctx, owner.Key, id, how)
	if errors.Is(err, ErrNotFound) {
		return nil, webhookNotFound(id)
	}
	return w, err
}

func (sb *subscriptions) RotateWebhookSecret(ctx context.Context, p Principal, id string) (*RotatedSecret, error) {
	if sb.sender == nil {
		return nil, domain.Errorf(domain.KindUnavailable, "webhooks_disabled", "This server sends no webhooks.")
	}
	owner, err := webhookOwner(p)
	if err != nil {
		return nil, err
	}
	var rotated RotatedSecret
	w, err := sb.store.RotateWebhookSecret(ctx, owner.Key, id, func(sealed []byte) ([]byte, error) {
		keys, err := sb.openWebhookKeys(id, sealed)
		if err != nil {
			return nil, err
		}
		now := sb.clock.Now()
		key, shown := webhooks.NewSecret()
		rotated.Secret, rotated.PreviousSecretExpires = shown, now.Add(sb.cfg.SecretOverlap)
		return sb.sealWebhookKeys(id, webhookKeys{Current: key, Previous: keys.Current, PreviousUntil: rotated.PreviousSecretExpires})
	})
	if errors.Is(err, ErrNotFound) {
		return nil, webhookNotFound(id)
	}
	if err != nil {
		return nil, err
	}
	rotated.Webhook = w
	return &rotated, nil
}
