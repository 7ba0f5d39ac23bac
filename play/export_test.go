package play

import "context"

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
