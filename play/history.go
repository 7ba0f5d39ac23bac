package play

import (
	"context"
	"fmt"
	"slices"

	"primegames/domain"
)

// StateAt rebuilds the game's state after entry seq from the history alone (G-2), from the last
// checkpoint kept before it (checkpoints.go).
func (s *Service) StateAt(ctx context.Context, g *Game, seq int64) (domain.State, error) {
	if g.State == nil {
		return nil, domain.Errorf(domain.KindNotFound, "step_not_found", "Game %s has not started, so it has no steps yet.", g.ID)
	}
	_, state, found, err := s.foldWindow(ctx, g, seq, seq, nil)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, domain.Errorf(domain.KindNotFound, "step_not_found", "Game %s has no step %d.", g.ID, seq)
	}
	return state, nil
}

// Fold replays a game's entries, the start first, into the state they lead to.
func Fold(g *Game, entries []Entry) (domain.State, error) { return foldVisiting(g, entries, nil) }

// foldVisiting is Fold that shows visit the state before each action: i counts the engine's
// actions, so engineEntries(entries)[i+1] is the one about to be applied.
func foldVisiting(g *Game, entries []Entry, visit func(i int, before domain.State) error) (domain.State, error) {
	if len(entries) == 0 || entries[0].Seq != 0 {
		return nil, fmt.Errorf("game %s: history does not begin with its start", g.ID)
	}
	entries = engineEntries(entries)
	setup := domain.Setup{Options: g.Options, Seats: g.SeatCount, Random: entries[0].Random}
	records := make([]domain.Record, 0, len(entries)-1)
	for _, e := range entries[1:] {
		records = append(records, domain.Record{Seat: *e.Seat, Action: e.Action, Random: e.Random})
	}
	return domain.FoldVisiting(g.Rules, setup, records, visit)
}

// engineEntries are the entries the engine applied, without the service's own (G-3), which change
// no engine state; entries itself when it has none of those.
func engineEntries(entries []Entry) []Entry {
	if !slices.ContainsFunc(entries, func(e Entry) bool { return e.Service }) {
		return entries
	}
	return slices.DeleteFunc(slices.Clone(entries), func(e Entry) bool { return e.Service })
}

// Progress is a game and the next entries of its history, read from one snapshot so they agree.
type Progress struct {
	Game    *Game
	Entries []Entry
	LastSeq int64
}

// Progress reads the game and up to limit history entries after seq `after`.
func (s *Service) Progress(ctx context.Context, gameID string, after int64, limit int) (*Progress, error) {
	rec, err := s.store.Progress(ctx, gameID, after, limit)
	if err != nil {
		return nil, err
	}
	g, err := s.decodeGame(rec.Game)
	if err != nil {
		return nil, err
	}
	return &Progress{Game: g, Entries: rec.Entries, LastSeq: rec.LastSeq}, nil
}

// StatusAfter is the game's status right after entry e: the entry that produced a finished game's
// last version is the one that finished it; every other entry left the game active.
func (g *Game) StatusAfter(e Entry) Status {
	if g.Status == StatusFinished && e.Version == g.Version {
		return StatusFinished
	}
	return StatusActive
}

// Caught reports whether Entries reach the game's last entry.
func (p *Progress) Caught(after int64) bool {
	if len(p.Entries) > 0 {
		after = p.Entries[len(p.Entries)-1].Seq
	}
	return after >= p.LastSeq
}
