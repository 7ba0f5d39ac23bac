package play

import (
	"context"
	"encoding/json"
	"time"
)

// KeepActionKeyInItsOwnRow keeps an action's Idempotency-Key as releases before migration 00015
// did: the entry's seq sealed in a row of idempotency_keys of its own, through tx.
func KeepActionKeyInItsOwnRow(ctx context.Context, tx Tx, p Principal, gameID, key string, body json.RawMessage, seq int64) error {
	slot, err := NewIdempotency(&key, body).byPrincipal(p, "action:"+gameID)
	if err != nil {
		return err
	}
	return slot.keep(ctx, tx, keptAction{Seq: seq})
}

// StoreRematchOnly runs the first of a rematch's two transactions alone, as a request cut off
// between them would have, and returns the id of the rematch it stored.
func (s *Service) StoreRematchOnly(ctx context.Context, gameID string) (string, error) {
	old, err := s.loadGame(ctx, gameID)
	if err != nil {
		return "", err
	}
	rec, _, err := s.storeRematch(ctx, old)
	if err != nil {
		return "", err
	}
	return rec.ID, nil
}

// ActForDueGame is one pass of the worker: the first of its jobs that is due, in their order.
func (s *Service) ActForDueGame(ctx context.Context) (bool, error) { return s.actForDueGame(ctx) }

// HoldsDecodedState reports whether the service keeps a decoded state for the game.
func (s *Service) HoldsDecodedState(gameID string) bool {
	s.states.kept.mu.Lock()
	defer s.states.kept.mu.Unlock()
	_, ok := s.states.kept.byID[gameID]
	return ok
}

// WebhookRetryDelay is how long after its attempts-th failure a delivery is tried again.
func (s *Service) WebhookRetryDelay(attempts int) time.Duration { return s.webhookRetryDelay(attempts) }

// The services of play's tests check that a version of a game is one snapshot (decodedStates).
func init() { checkDecodedStates = true }
