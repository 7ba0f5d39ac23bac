package play

import "context"

// Entries returns up to limit history entries of g with seq > after, in order.
func (s *Service) Entries(ctx context.Context, g *Game, after int64, limit int) ([]Entry, error) {
	return s.histories.Entries(ctx, g, after, limit)
}

// ExportPage is how many history entries EachEntry reads at once.
const ExportPage = 500

// EachEntry calls fn for every history entry of g in order, for streaming: it reads them a page of
// ExportPage at a time and holds no database connection while fn runs, so a client that reads
// slowly holds one page in memory and no connection, however long the game.
func (s *Service) EachEntry(ctx context.Context, g *Game, fn func(Entry) error) error {
	return s.histories.EachEntry(ctx, g, fn)
}

// EntryCount is the number of entries in g's history, the start included.
func (s *Service) EntryCount(ctx context.Context, g *Game) (int64, error) {
	return s.histories.EntryCount(ctx, g)
}

// Attempts lists g's refused actions, oldest first, to a caller who may review them.
func (s *Service) Attempts(ctx context.Context, g *Game, caller Caller) ([]Attempt, error) {
	return s.histories.Attempts(ctx, g, caller)
}

func (h *histories) Entries(ctx context.Context, g *Game, after int64, limit int) ([]Entry, error) {
	return h.history.Entries(ctx, g.ID, after, limit)
}

func (h *histories) EachEntry(ctx context.Context, g *Game, fn func(Entry) error) error {
	for after := int64(-1); ; {
		entries, err := h.history.Entries(ctx, g.ID, after, ExportPage)
		if err != nil {
			return err
		}
		for _, e := range entries {
			if err := fn(e); err != nil {
				return err
			}
			after = e.Seq
		}
		if len(entries) < ExportPage {
			return nil
		}
	}
}

func (h *histories) EntryCount(ctx context.Context, g *Game) (int64, error) {
	return h.history.EntryCount(ctx, g.ID)
}

func (h *histories) Attempts(ctx context.Context, g *Game, caller Caller) ([]Attempt, error) {
	if err := MayReview(g.Status, caller); err != nil {
		return nil, err
	}
	return h.history.Attempts(ctx, g.ID)
}
