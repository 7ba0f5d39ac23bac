package play

import (
	"context"
	"encoding/json"
	"slices"
	"time"
)

// The fan-out turns a game's outbox rows (the changes its transactions recorded) into one
// delivery per event per subscription that wants it. A game's player events are worked out as
// GET /v1/me/events works them out (SeatFollower), from the history, outside any game's
// transaction.

// webhookPayload is a webhook's body, as Standard Webhooks shapes it.
type webhookPayload struct {
	Type      string    `json:"type"`
	Timestamp time.Time `json:"timestamp"`
	Data      any       `json:"data"`
}

// webhookPlayerEvent is the data of a player event: the contract's PlayerEvent.
type webhookPlayerEvent struct {
	Event   string `json:"event"`
	GameID  string `json:"game_id"`
	Game    string `json:"game"`
	Seat    int    `json:"seat"`
	Seq     int64  `json:"seq"`
	Version int64  `json:"version"`
	Status  Status `json:"status"`
	Winners *[]int `json:"winners,omitempty"`
}

// webhookEntryEvent is the data of an entry event: which entry, not what it holds.
type webhookEntryEvent struct {
	GameID  string `json:"game_id"`
	Game    string `json:"game"`
	Seq     int64  `json:"seq"`
	Seat    *int   `json:"seat"`
	Version int64  `json:"version"`
	Status  Status `json:"status"`
	Timeout bool   `json:"timeout"`
	Service bool   `json:"service"`
}

// webhookEvent is one event of a game, for one seat (player events) or for all (entries).
type webhookEvent struct {
	Type string
	Seat *int
	At   time.Time
	Data any
}

// FanOutWebhooks turns the outbox rows of one game into deliveries; it reports whether there was
// a game to fan out. Only active subscriptions get deliveries (the store leaves out the suspended
// and disabled, and deletes the ended), and none beyond its bounds of pending deliveries: the
// events beyond are dropped and counted on the subscription.
func (s *Service) FanOutWebhooks(ctx context.Context) (bool, error) {
	now := s.now()
	return s.store.FanOut(ctx, now, func(b OutboxBatch) (FanOutResult, error) {
		var out FanOutResult
		if len(b.Subscriptions) == 0 {
			return out, nil
		}
		var events []webhookEvent
		var err error
		if slices.Contains(b.Seqs, DueSoonOutboxSeq) { // an assignment's row, under its id (assignments.go)
			events, err = s.assignmentDueSoonWebhookEvents(ctx, b.GameID, now)
		} else {
			events, err = s.gameWebhookEvents(ctx, b.GameID, b.Seqs, now)
		}
		if err != nil {
			return out, err
		}
		owners := map[string]int{} // pending per owner, as this batch adds to them
		for _, sub := range b.Subscriptions {
			owners[sub.Owner.Key] = max(owners[sub.Owner.Key], sub.OwnerPending)
		}
		for _, ev := range events {
			body, err := json.Marshal(webhookPayload{Type: ev.Type, Timestamp: ev.At.UTC(), Data: ev.Data})
			if err != nil {
				return out, err
			}
			for i := range b.Subscriptions {
				sub := &b.Subscriptions[i]
				if !wantsWebhookEvent(sub, ev) {
					continue
				}
				if s.pendingFull(sub.Pending, owners[sub.Owner.Key]) {
					if out.Dropped == nil {
						out.Dropped = map[string]int{}
					}
					out.Dropped[sub.ID]++
					continue
				}
				sub.Pending++
				owners[sub.Owner.Key]++
				out.Deliveries = append(out.Deliveries, NewDelivery{SubscriptionID: sub.ID, WebhookID: newWebhookID(), GameID: b.GameID, Type: ev.Type, Payload: body})
			}
		}
		return out, nil
	})
}

// pendingFull reports whether a subscription with pending deliveries waiting, of an owner with
// ownerPending, may take no more.
func (s *Service) pendingFull(pending, ownerPending int) bool {
	c := s.webhookCfg
	return (c.PendingPerSubscription > 0 && pending >= c.PendingPerSubscription) ||
		(c.PendingPerOwner > 0 && ownerPending >= c.PendingPerOwner)
}

// wantsWebhookEvent reports whether sub asked for ev: its type, and for a seat's subscription only
// that seat's player events.
func wantsWebhookEvent(sub *Webhook, ev webhookEvent) bool {
	if !slices.Contains(sub.Events, ev.Type) {
		return false
	}
	return sub.Seat == nil || ev.Seat == nil || *sub.Seat == *ev.Seat
}

// gameWebhookEvents are the events of a game's entries seqs (in order; -1 for the end of an
// aborted game): per entry, the entry, then each person's player events; the game's end last.
func (s *Service) gameWebhookEvents(ctx context.Context, gameID string, seqs []int64, now time.Time) ([]webhookEvent, error) {
	entrySeqs := slices.DeleteFunc(slices.Clone(seqs), func(seq int64) bool { return seq < 0 })
	ended := len(entrySeqs) < len(seqs)
	after, limit := int64(-1), 0
	if len(entrySeqs) > 0 {
		after, limit = entrySeqs[0]-1, int(entrySeqs[len(entrySeqs)-1]-entrySeqs[0]+1)
	}
	p, err := s.Progress(ctx, gameID, after, limit)
	if err != nil {
		return nil, err
	}
	g := p.Game
	followers := map[int]*SeatFollower{}
	var events []webhookEvent
	for _, e := range p.Entries {
		if !slices.Contains(entrySeqs, e.Seq) {
			continue
		}
		status := g.StatusAfter(e)
		events = append(events, webhookEvent{Type: WebhookEntry, At: e.CreatedAt, Data: webhookEntryEvent{
			GameID: g.ID, Game: g.Kind, Seq: e.Seq, Seat: e.Seat, Version: e.Version, Status: status, Timeout: e.Timeout, Service: e.Service}})
		for _, seat := range g.Seats {
			if seat.Bot != "" {
				continue
			}
			f := followers[seat.Seat]
			if f == nil {
				if f, err = s.FollowSeat(ctx, g, seat.Seat, e.Seq-1); err != nil {
					return nil, err
				}
				followers[seat.Seat] = f
			}
			happened, err := f.Next(g, e)
			if err != nil {
				return nil, err
			}
			for _, ev := range happened {
				events = append(events, playerWebhookEvent(g, seat.Seat, ev, e.Seq, e.Version, status, nil, e.CreatedAt))
			}
		}
		if g.Status == StatusFinished && e.Seq == p.LastSeq {
			ended = true // the last entry of a finished game (its version may have moved on since: a rematch linked)
		}
	}
	if ended && g.Status.Over() {
		done, err := s.assignmentDoneWebhookEvents(ctx, g, now)
		if err != nil {
			return nil, err
		}
		events = append(events, done...)
		winners := append([]int{}, g.Winners...)
		for _, seat := range g.Seats {
			if seat.Bot == "" {
				events = append(events, playerWebhookEvent(g, seat.Seat, GameEnded, p.LastSeq, g.Version, g.Status, &winners, now))
			}
		}
	}
	return events, nil
}

func playerWebhookEvent(g *Game, seat int, ev PlayerEvent, seq, version int64, status Status, winners *[]int, at time.Time) webhookEvent {
	return webhookEvent{Type: ev.String(), Seat: &seat, At: at, Data: webhookPlayerEvent{
		Event: ev.String(), GameID: g.ID, Game: g.Kind, Seat: seat, Seq: seq, Version: version, Status: status, Winners: winners}}
}
