package play

import "context"

// mayDeliver reports whether d may be sent now, with the keys that sign it: not when its
// subscription is no longer active (the store has then dropped its pending deliveries, d with them).
func (s *Service) mayDeliver(ctx context.Context, d *Delivery) ([][]byte, bool, error) {
	standing, err := s.store.WebhookStanding(ctx, d.SubscriptionID)
	if err != nil || standing != WebhookActive {
		return nil, false, err
	}
	keys, err := s.openWebhookKeys(d.SubscriptionID, d.Secret)
	if err != nil {
		return nil, false, err
	}
	return keys.signing(s.now()), true, nil
}
