package play

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"
)

// The worker's fairness (issue 23). Its jobs come in an order of urgency: turns whose time has run
// out, then the computer players of games with a person in them, then those of games with no
// person, then abandoned games; a job is done only when none before it is due. Within each, the
// owners (the clients that created the games) take turns: the worker serves the soonest due game
// of the owner after the one it served last, so that one owner's backlog delays another owner's
// game by one pass at most. Games with no person in them may so wait while people's games are
// due; people's games never wait for them.

// fairness is the worker's claim of a due game: the ports it reads the due games from and claims
// one through, its round robin per job, and what it reports of its passes.
type fairness struct {
	dues    Dues
	updater Updater
	mu      sync.Mutex
	// after is, per job, the owner whose game was served last.
	after [dueWorks][]byte
	// observe, when set, is told of each game served: its job and how late past its due time.
	observe func(work DueWork, late time.Duration)
}

func newFairness(dues Dues, updater Updater) *fairness {
	return &fairness{dues: dues, updater: updater}
}

// ObserveWorker has fn told of each game the worker serves: which job, and how long after the game
// was due (0 for an abandoned game, which has no due time of its own). Call it before RunBots.
func (s *Service) ObserveWorker(fn func(work DueWork, late time.Duration)) {
	s.fair.mu.Lock()
	defer s.fair.mu.Unlock()
	s.fair.observe = fn
}

// nextAfter is the owner the round robin of work starts after.
func (f *fairness) nextAfter(work DueWork) []byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.after[work]
}

// served records that the worker claimed a game of owner for work, due at dueAt (nil when it has
// no due time), at now.
func (f *fairness) served(work DueWork, owner []byte, dueAt *time.Time, now time.Time) {
	f.mu.Lock()
	f.after[work] = owner
	observe := f.observe
	f.mu.Unlock()
	if observe == nil {
		return
	}
	late := time.Duration(0)
	if dueAt != nil && now.After(*dueAt) {
		late = now.Sub(*dueAt)
	}
	observe(work, late)
}

// claim reads a few games due for each of works at now, without locks, one per
// owner from the owner after the one served last, in one round trip; then, in one transaction of
// that time, claims the first still due that no other worker holds, the first work's games before
// the next's, and does work on it. It returns the game claimed and its work, nil when there was
// none (then work did not run), with work's error or the transaction's.
func (f *fairness) claim(ctx context.Context, now time.Time, ttls AbandonTTLs, works []DueWork, work func(work DueWork, tx Tx, g *GameRecord) error) (claimed *GameRecord, claimedFor DueWork, err error) {
	dues := make([]Due, len(works))
	for i, w := range works {
		dues[i] = Due{Work: w, Now: now, After: f.nextAfter(w), LobbyTTL: ttls.Lobby, IdleTTL: ttls.Idle}
	}
	found, err := f.dues.DueGames(ctx, dues, dueCandidates)
	if err != nil || !slices.ContainsFunc(found, func(c []DueGame) bool { return len(c) > 0 }) {
		return nil, 0, err
	}
	var dueAt *time.Time
	var owner []byte
	err = f.updater.Update(ctx, now, func(tx Tx) error {
		claimed = nil // a transaction run again after a lost connection starts afresh
		for i, candidates := range found {
			if len(candidates) == 0 {
				continue
			}
			ids := make([]string, len(candidates))
			for j, c := range candidates {
				ids[j] = c.ID
			}
			g, err := tx.ClaimDueGame(ctx, dues[i], ids)
			if errors.Is(err, ErrNotFound) {
				continue
			}
			if err != nil {
				return err
			}
			claimed, claimedFor, dueAt = g, works[i], dueTime(works[i], g) // before work moves the due time on
			owner = candidates[slices.IndexFunc(candidates, func(c DueGame) bool { return c.ID == g.ID })].Owner
			return work(works[i], tx, g)
		}
		return nil
	})
	if claimed != nil {
		f.served(claimedFor, owner, dueAt, now)
		if err != nil {
			err = fmt.Errorf("game %s: %w", claimed.ID, err)
		}
	}
	return claimed, claimedFor, err
}

// QueueDepthCap bounds what QueueDepth counts, so that a scrape costs the same however long the
// backlog: a depth of QueueDepthCap means at least that many.
const QueueDepthCap = 10000

// QueueDepth is how many games each of the worker's timed jobs has due now, up to QueueDepthCap:
// turns out of time, computer players' moves in games with a person, in games with none.
func (s *Service) QueueDepth(ctx context.Context) (map[DueWork]int, error) {
	now := s.now()
	out := map[DueWork]int{}
	for _, work := range []DueWork{DueTurn, DueBot, DueComputerGame} {
		n, err := s.store.DueCount(ctx, Due{Work: work, Now: now}, QueueDepthCap)
		if err != nil {
			return nil, err
		}
		out[work] = n
	}
	return out, nil
}
