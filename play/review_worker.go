package play

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// The worker reviews each finished classroom game once (issue 42 item 5): the step that finishes one
// queues it (ProgressTx.QueueReview), and the worker, when no game is due for a turn, a computer
// player or an abort, takes one queued game a pass, the classrooms in turn (the one after the
// classroom it served last), makes and keeps the game's move review, keeps each student seat's
// summary for the statistics, and adds the missed opportunities to the students' progress of the
// day the game finished. Statistics then only read what is kept; no request reviews.

// ReviewSeat is one student's seat in a reviewed game, as the statistics read it.
type ReviewSeat struct {
	Seat      int
	StudentID string
	Judged    int
	Labels    map[string]int
	Missed    map[string]int
}

// QueuedReview is a finished game the worker claimed for its review.
type QueuedReview struct {
	GameID, ClassroomID string
}

// ReviewQueueTx is the worker's review queue, in a transaction of its own.
type ReviewQueueTx interface {
	// ClaimReview locks the queued game of the first classroom after afterClassroom (from the first
	// classroom when none is after it) with one due by the transaction's now, the oldest due of
	// that classroom, skipping games other transactions hold; nil when none is due.
	ClaimReview(ctx context.Context, afterClassroom string) (*QueuedReview, error)
	// PostponeReview makes a queued game due again after `after` from the transaction's now.
	PostponeReview(ctx context.Context, gameID string, after time.Duration) error
	// KeepReviewSeats keeps the summaries of a reviewed game's students' seats, adds their missed
	// opportunities to their progress of the day the game finished, and takes the game off the
	// queue.
	KeepReviewSeats(ctx context.Context, gameID, classroomID, kind string, seats []ReviewSeat) error
}

// reviewRetry is how long a game whose review failed waits before the worker tries it again, so
// that one game that cannot be reviewed neither spins the worker nor holds up the others.
const reviewRetry = 10 * time.Minute

// reviewRound is the worker's round robin over the classrooms with games to review.
type reviewRound struct {
	mu    sync.Mutex
	after string // the classroom served last
}

// ReviewQueuedGame reviews one queued finished game, as one pass of the worker does when nothing
// else is due. acted reports whether a game was claimed; a game whose review failed is tried
// again reviewRetry later.
func (s *Service) ReviewQueuedGame(ctx context.Context) (acted bool, err error) {
	s.reviewRound.mu.Lock()
	after := s.reviewRound.after
	s.reviewRound.mu.Unlock()
	var claimed string
	err = s.update(ctx, func(tx Tx) error {
		q, err := tx.ClaimReview(ctx, after)
		if err != nil || q == nil {
			return err
		}
		acted, claimed = true, q.GameID
		s.reviewRound.mu.Lock()
		s.reviewRound.after = q.ClassroomID
		s.reviewRound.mu.Unlock()
		kind, seats, err := s.reviewSeats(ctx, q.GameID)
		if err != nil {
			return fmt.Errorf("reviewing game %s: %w", q.GameID, err)
		}
		return tx.KeepReviewSeats(ctx, q.GameID, q.ClassroomID, kind, seats)
	})
	if err != nil && claimed != "" && ctx.Err() == nil {
		if perr := s.update(ctx, func(tx Tx) error { return tx.PostponeReview(ctx, claimed, reviewRetry) }); perr != nil {
			err = errors.Join(err, perr)
		}
	}
	return acted, err
}

// reviewSeats makes (or reads) the kept review of a finished game and sums up its students' seats;
// a game whose kind has no advisor has none.
func (s *Service) reviewSeats(ctx context.Context, gameID string) (kind string, seats []ReviewSeat, err error) {
	g, err := s.Load(ctx, gameID)
	if errors.Is(err, ErrNotFound) {
		return "", nil, nil
	}
	if err != nil {
		return "", nil, err
	}
	k, ok := s.kinds.Lookup(g.Kind)
	if !ok || k.Advisor == nil || !g.Status.Over() {
		return g.Kind, nil, nil
	}
	review, err := s.reviews.finalReview(ctx, g, k.Advisor)
	if err != nil {
		return "", nil, err
	}
	return g.Kind, studentReviewSeats(g, review), nil
}

// studentReviewSeats is the summary of each student's seat of g in its review.
func studentReviewSeats(g *Game, review *MoveReview) []ReviewSeat {
	var out []ReviewSeat
	for _, seat := range g.Seats {
		if seat.StudentID == nil {
			continue
		}
		for _, sum := range review.Seats {
			if sum.Seat == seat.Seat {
				out = append(out, ReviewSeat{Seat: seat.Seat, StudentID: *seat.StudentID, Judged: sum.Judged,
					Labels: orEmptyCounts(sum.Labels), Missed: orEmptyCounts(sum.Missed)})
			}
		}
	}
	return out
}

func orEmptyCounts(m map[string]int) map[string]int {
	if m == nil {
		return map[string]int{}
	}
	return m
}

// ReviewSeats makes (or reads) the kept review of a finished game and sums up its students' seats,
// as the worker does: for tools/scalefill, whose copies of a game share its review.
func (s *Service) ReviewSeats(ctx context.Context, gameID string) (kind string, seats []ReviewSeat, err error) {
	return s.reviewSeats(ctx, gameID)
}
