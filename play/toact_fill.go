package play

import (
	"context"
	"errors"
)

// FillToAct records whose turn it is in the active games saved before games kept it (migration
// 00009), and returns how many it filled. It is safe on any number of instances at once and beside
// live play: a game is written only at the version it was read, and only while it has no to_act.
func (s *Service) FillToAct(ctx context.Context) (int, error) {
	filled, after := 0, "00000000-0000-0000-0000-000000000000"
	for {
		ids, err := s.store.GamesWithoutToAct(ctx, after, 100)
		if err != nil || len(ids) == 0 {
			return filled, err
		}
		for _, id := range ids {
			rec, err := s.store.Game(ctx, id)
			if errors.Is(err, ErrNotFound) {
				continue
			}
			if err != nil {
				return filled, err
			}
			g, err := s.decodeGame(rec)
			if err != nil {
				return filled, err
			}
			if err := s.store.SetToAct(ctx, id, rec.Version, g.State.Status().ToAct); err != nil {
				return filled, err
			}
			filled++
		}
		after = ids[len(ids)-1]
	}
}
