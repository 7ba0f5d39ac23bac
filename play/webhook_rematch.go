package play

import "context"

// rematchWebhooks are the copies, for the rematch rematchID of game gameID, of the game's active
// subscriptions: a game subscription follows its game to the rematch, with the same owner, token,
// events, url and signing key (sealed anew, for the copy's id). A seat's copy is the same
// holder's seat in the rematch (the store finds a subscription's seat by its holder). None when
// this server sends no webhooks.
func (s *Service) rematchWebhooks(ctx context.Context, gameID, rematchID string) ([]Webhook, error) {
	if s.webhookSender == nil {
		return nil, nil
	}
	subs, err := s.store.FollowableWebhooks(ctx, gameID)
	if err != nil || len(subs) == 0 {
		return nil, err
	}
	copies := make([]Webhook, len(subs))
	for i, sub := range subs {
		keys, err := s.openWebhookKeys(sub.ID, sub.Secret)
		if err != nil {
			return nil, err
		}
		c := Webhook{ID: newUUID(), FollowedFrom: sub.ID, GameID: &rematchID, CreatedAt: s.now()}
		if c.Secret, err = s.sealWebhookKeys(c.ID, keys); err != nil {
			return nil, err
		}
		copies[i] = c
	}
	return copies, nil
}
