package play

import (
	"context"
	"fmt"
	"math"
	"sync"

	"primegames/domain"
)

// A game's history only grows: the state after entry seq never changes once the entry is recorded.
// So the states a fold passes through every checkpointEvery entries are kept (per instance, in
// memory) and the next fold of the same game starts from the last one before where it needs to be,
// not from the start. The cost of rebuilding any step of a game is then bounded by checkpointEvery
// entries, whatever the game's length, once the game has been folded through that far; the first
// fold of a long game on an instance reads its history in pages of foldPage entries, so it holds
// a page of entries at most.
const (
	checkpointEvery = 256
	// checkpointGames bounds the games whose checkpoints are kept: a state is a few kilobytes and
	// a game of the longest kind (Primed, 100 rounds, 6 seats: ~5,700 entries) has ~22 checkpoints.
	checkpointGames = 256
	foldPage        = 1024
)

type checkpoints struct {
	mu     sync.Mutex
	byGame map[string]map[int64]domain.State
}

func newCheckpoints() *checkpoints {
	return &checkpoints{byGame: map[string]map[int64]domain.State{}}
}

// before is the latest checkpoint of the game with a seq below seq: its seq and state, or -1 and nil.
func (c *checkpoints) before(gameID string, seq int64) (int64, domain.State) {
	c.mu.Lock()
	defer c.mu.Unlock()
	best, state := int64(-1), domain.State(nil)
	for at, s := range c.byGame[gameID] {
		if at < seq && at > best {
			best, state = at, s
		}
	}
	return best, state
}

// keep remembers the state after entry seq. When the limit of games is reached, some other game is
// forgotten (whichever the map gives first).
func (c *checkpoints) keep(gameID string, seq int64, state domain.State) {
	c.mu.Lock()
	defer c.mu.Unlock()
	kept, ok := c.byGame[gameID]
	if !ok {
		if len(c.byGame) >= checkpointGames {
			for other := range c.byGame {
				delete(c.byGame, other)
				break
			}
		}
		kept = map[int64]domain.State{}
		c.byGame[gameID] = kept
	}
	kept[seq] = state
}

// foldWindow rebuilds the game through entry `through` (all of it when through < 0), starting from
// the last checkpoint before from, and calls visit, when it is not nil, with every engine entry of
// seq >= from and the state right after it. It returns the last engine entry read and the state
// after it; found is false when the history has no entry `through` (for through >= 0).
func (s *Service) foldWindow(ctx context.Context, g *Game, from, through int64, visit func(e Entry, after domain.State) error) (last Entry, state domain.State, found bool, err error) {
	end := through
	if through < 0 {
		end = math.MaxInt64
	}
	at, state := s.checkpoints.before(g.ID, min(from, end))
	lastSeq, haveLast := at, false
	for lastSeq < end {
		limit := int64(foldPage)
		if through >= 0 && through-limit < lastSeq { // without overflowing for a through near math.MaxInt64
			limit = through - lastSeq
		}
		entries, err := s.store.Entries(ctx, g.ID, lastSeq, int(limit))
		if err != nil {
			return last, nil, false, err
		}
		for _, e := range entries {
			switch {
			case e.Seq == 0:
				state, err = domain.FoldVisiting(g.Rules, domain.Setup{Options: g.Options, Seats: g.SeatCount, Random: e.Random}, nil, nil)
				if err != nil {
					return last, nil, false, fmt.Errorf("game %s: replaying the start: %w", g.ID, err)
				}
			case state == nil:
				return last, nil, false, fmt.Errorf("game %s: history does not begin with its start", g.ID)
			case !e.Service:
				if state, err = domain.Replay(state, domain.Record{Seat: *e.Seat, Action: e.Action, Random: e.Random}); err != nil {
					return last, nil, false, fmt.Errorf("game %s: replaying entry %d: %w", g.ID, e.Seq, err)
				}
			}
			if e.Seq%checkpointEvery == 0 {
				s.checkpoints.keep(g.ID, e.Seq, state)
			}
			if !e.Service {
				last, haveLast = e, true
				if e.Seq >= from && visit != nil {
					if err := visit(e, state); err != nil {
						return last, nil, false, err
					}
				}
			}
			lastSeq = e.Seq
		}
		if len(entries) < int(limit) {
			break
		}
	}
	if state == nil {
		return last, nil, false, nil
	}
	if !haveLast {
		// Started from a checkpoint and no engine entry followed it in the window: the entry
		// that led to the checkpoint's state is read for its outcome.
		prev, err := s.lastEngineEntry(ctx, g.ID, at)
		if err != nil {
			return last, nil, false, err
		}
		last = prev
	}
	return last, state, through < 0 || lastSeq == through, nil
}

// lastEngineEntry is the last engine entry with seq <= through.
func (s *Service) lastEngineEntry(ctx context.Context, gameID string, through int64) (Entry, error) {
	for after := through - 16; ; after -= 16 {
		entries, err := s.store.Entries(ctx, gameID, max(after, -1), int(through-max(after, -1)))
		if err != nil {
			return Entry{}, err
		}
		for i := len(entries) - 1; i >= 0; i-- {
			if !entries[i].Service {
				return entries[i], nil
			}
		}
		if after < 0 {
			return Entry{}, fmt.Errorf("game %s: no engine entry through %d", gameID, through)
		}
	}
}
