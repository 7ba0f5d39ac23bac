package play

import (
	"context"
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

// fairness is the worker's round robin, per job, and what it reports of its passes.
type fairness struct {
	mu sync.Mutex
	// after is, per job, the owner whose game was served last.
	after [dueWorks][]byte
	// observe, when set, is told of each game served: its job and how late past its due time.
	observe func(work DueWork, late time.Duration)
}

func newFairness() *fairness { return &fairness{} }

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
