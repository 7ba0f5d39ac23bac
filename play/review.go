package play

import "context"

// Entries returns up to limit history entries of g with seq > after, in order.
func (s *Service) Entries(ctx context.Context, g *Game, after int64, limit int) ([]Entry, error) {
	return s.store.Entries(ctx, g.ID, after, limit)
}

// EachEntry calls fn for every history entry of g in order, reading them as it goes, for streaming.
func (s *Service) EachEntry(ctx context.Context, g *Game, fn func(Entry) error) error {
	return s.store.EachEntry(ctx, g.ID, fn)
}

// EntryCount is the number of entries in g's history, the start included.
func (s *Service) EntryCount(ctx context.Context, g *Game) (int64, error) {
	return s.store.EntryCount(ctx, g.ID)
}

// Attempts lists g's refused actions, oldest first, to a caller who may review them.
func (s *Service) Attempts(ctx context.Context, g *Game, caller Caller) ([]Attempt, error) {
	if err := MayReview(g.Status, caller); err != nil {
		return nil, err
	}
	return s.store.Attempts(ctx, g.ID)
}
