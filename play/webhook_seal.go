package play

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"encoding/json"
	"errors"
	"log/slog"
	"time"

	"primegames/play/webhooks"
)

// A subscription's signing keys are kept sealed: AES-256-GCM under a key derived from the
// operator's SECRET_KEY (WebhookConfig.SealingKey), bound to the subscription's id, so
// that the database alone (a dump, a replica, a backup) holds nothing that signs, and a sealed
// value copied onto another subscription does not open. The sealed value holds the current key
// and, for a while after a rotation, the previous one, which still signs until PreviousUntil.

// webhookKeys are a subscription's signing keys.
type webhookKeys struct {
	Current       []byte    `json:"current"`
	Previous      []byte    `json:"previous,omitempty"`
	PreviousUntil time.Time `json:"previous_until,omitzero"`
}

// signing are the keys that sign at now: the current one, and the previous one within its overlap.
func (k webhookKeys) signing(now time.Time) [][]byte {
	keys := [][]byte{k.Current}
	if len(k.Previous) > 0 && now.Before(k.PreviousUntil) {
		keys = append(keys, k.Previous)
	}
	return keys
}

// rawWebhookKey is a signing key stored as it is, from before keys were sealed (a sealed value is
// longer: a nonce, the keys and a tag).
func rawWebhookKey(stored []byte) bool { return len(stored) == webhooks.SecretBytes }

// sealWebhookKeys seals the keys of subscription id.
func (s *Service) sealWebhookKeys(id string, keys webhookKeys) ([]byte, error) {
	return s.subscriptions.sealWebhookKeys(id, keys)
}

// openWebhookKeys opens the keys of subscription id as stored: sealed, or a raw key from before.
func (s *Service) openWebhookKeys(id string, stored []byte) (webhookKeys, error) {
	return s.subscriptions.openWebhookKeys(id, stored)
}

// SealRawWebhookSecrets seals the signing keys stored raw before keys were sealed, and reports how
// many it sealed. The worker runs it as it starts, before it sends anything; it may run on every
// instance at once (a key sealed by another meanwhile is left as that one sealed it).
func (s *Service) SealRawWebhookSecrets(ctx context.Context) (int, error) {
	return s.subscriptions.SealRawWebhookSecrets(ctx)
}

func (sb *subscriptions) webhookAEAD() (cipher.AEAD, error) {
	if len(sb.cfg.SealingKey) == 0 {
		return nil, errors.New("webhooks: no sealing key (SECRET_KEY)")
	}
	block, err := aes.NewCipher(deriveKey32(sb.cfg.SealingKey, "primegames webhook signing keys"))
	if err != nil {
		return nil, err
	}
	return cipher.NewGCMWithRandomNonce(block)
}

func (sb *subscriptions) sealWebhookKeys(id string, keys webhookKeys) ([]byte, error) {
	aead, err := sb.webhookAEAD()
	if err != nil {
		return nil, err
	}
	plain, err := json.Marshal(keys)
	if err != nil {
		return nil, err
	}
	return aead.Seal(nil, nil, plain, []byte(id)), nil
}

func (sb *subscriptions) openWebhookKeys(id string, stored []byte) (webhookKeys, error) {
	if rawWebhookKey(stored) {
		return webhookKeys{Current: stored}, nil
	}
	aead, err := sb.webhookAEAD()
	if err != nil {
		return webhookKeys{}, err
	}
	plain, err := aead.Open(nil, nil, stored, []byte(id))
	if err != nil {
		return webhookKeys{}, errors.New("webhooks: a subscription's keys do not open with this SECRET_KEY")
	}
	var keys webhookKeys
	err = json.Unmarshal(plain, &keys)
	return keys, err
}

// sealRawWebhookSecretsAtStart runs SealRawWebhookSecrets for the worker as it starts; a failure
// is a warning (the raw keys still sign) and the worker goes on.
func (s *Service) sealRawWebhookSecretsAtStart(ctx context.Context, logger *slog.Logger) {
	n, err := s.SealRawWebhookSecrets(ctx)
	switch {
	case err != nil && ctx.Err() == nil:
		logger.Warn("webhooks: sealing the signing keys stored raw failed; they still sign", "sealed", n, "error", err.Error())
	case n > 0:
		logger.Info("webhooks: sealed the signing keys stored raw", "sealed", n)
	}
}

func (sb *subscriptions) SealRawWebhookSecrets(ctx context.Context) (int, error) {
	sealed := 0
	for {
		raw, err := sb.store.RawWebhookSecrets(ctx, 100)
		if err != nil || len(raw) == 0 {
			return sealed, err
		}
		for id, key := range raw {
			value, err := sb.sealWebhookKeys(id, webhookKeys{Current: key})
			if err != nil {
				return sealed, err
			}
			if err := sb.store.SealWebhookSecret(ctx, id, key, value); err != nil {
				return sealed, err
			}
			sealed++
		}
	}
}
