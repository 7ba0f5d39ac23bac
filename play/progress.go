package play

import (
	"context"
	"slices"
	"time"
)

// A classroom's progress over time (issue 42 item 3): per student and day (UTC), the games played
// (started), finished and won, the hints asked, the student's own moves and the time they took, and
// the missed opportunities their finished games' reviews found. The figures are kept as the games
// go, in each step's transaction (recordStep, resign), so that reading a term's progress reads a
// few rows per student and week, never the games.

// ProgressDelta is what one step adds to a student's figures of the transaction's day.
type ProgressDelta struct {
	ClassroomID, StudentID                      string
	Played, Finished, Won, Moves, Hints, Missed int
	// MoveMS is the time the student's moves took, in milliseconds, each counted from the game's
	// step before it.
	MoveMS int64
}

// ProgressTx keeps a classroom's progress in the transaction of each step of its games.
type ProgressTx interface {
	// AddProgress adds deltas to the students' figures of the transaction's day (UTC).
	AddProgress(ctx context.Context, deltas []ProgressDelta) error
	// QueueReview puts a finished classroom game in the worker's review queue.
	QueueReview(ctx context.Context, gameID, classroomID string) error
}

// stepProgress is what a step of g (before it, as locked) adds to its students' progress: the
// start plays the game for each student, a student's own move counts with the time since the
// game's step before it (elapsed), and the step that finishes the game finishes it for each student,
// won for those in a winning seat the computer does not play. nil outside classrooms.
func stepProgress(g *GameRecord, e *Entry, finished bool, winners []int, elapsed time.Duration) []ProgressDelta {
	if g.ClassroomID == nil {
		return nil
	}
	var out []ProgressDelta
	for _, seat := range g.Seats {
		if seat.StudentID == nil {
			continue
		}
		d := ProgressDelta{ClassroomID: *g.ClassroomID, StudentID: *seat.StudentID}
		if e.Seq == 0 {
			d.Played = 1
		}
		if e.Seq > 0 && !e.Service && !e.Timeout && e.Bot == "" && e.Seat != nil && *e.Seat == seat.Seat {
			d.Moves, d.MoveMS = 1, max(0, elapsed.Milliseconds())
		}
		if finished {
			d.Finished = 1
			if seat.Bot == "" && slices.Contains(winners, seat.Seat) {
				d.Won = 1
			}
		}
		if d != (ProgressDelta{ClassroomID: d.ClassroomID, StudentID: d.StudentID}) {
			out = append(out, d)
		}
	}
	// One order of rows in every transaction, so that two games' ends never wait on each other
	// crosswise.
	slices.SortFunc(out, func(a, b ProgressDelta) int {
		if a.StudentID < b.StudentID {
			return -1
		}
		if a.StudentID > b.StudentID {
			return 1
		}
		return 0
	})
	return out
}

// keepStepProgress adds a step's progress in its transaction and, when the step finished a
// classroom game with a student in it, queues the game's review for the worker. before is the
// game's last change before the step; g is the game as the step left it.
func keepStepProgress(ctx context.Context, tx ProgressTx, g *GameRecord, e *Entry, before time.Time) error {
	finished := g.Status == StatusFinished
	deltas := stepProgress(g, e, finished, g.Winners, g.UpdatedAt.Sub(before))
	if len(deltas) == 0 {
		return nil
	}
	if err := tx.AddProgress(ctx, deltas); err != nil {
		return err
	}
	if finished {
		return tx.QueueReview(ctx, g.ID, *g.ClassroomID)
	}
	return nil
}

// ReviewTotal sums a student's seats in the reviews of a kind's finished games.
type ReviewTotal struct {
	StudentID, Kind string
	Judged          int
	Labels, Missed  map[string]int
}

// ProgressRow is a student's figures over one bucket of days.
type ProgressRow struct {
	StudentID string
	// Start is the bucket's first day (UTC midnight).
	Start                                       time.Time
	Played, Finished, Won, Hints, Moves, Missed int
	MoveMS                                      int64
}

// SeatCount is one counter of a kind summed over a student's seats in the kept tallies.
type SeatCount struct {
	StudentID, Kind, Name string
	Count                 int
}

// GameCount is how many started games a current student (or, with StudentID "", the class: each
// game once, won when a current student won it) played, finished and won.
type GameCount struct {
	StudentID             string
	Played, Finished, Won int
}

// ProgressStore reads what the steps and the worker kept of a classroom's progress and statistics.
type ProgressStore interface {
	// SeatCounts sums, per current student of the classroom, kind and counter, the counters of
	// their seats in the current kept tallies of the classroom's started games.
	SeatCounts(ctx context.Context, classroomID string) ([]SeatCount, error)
	// GameCounts counts the started games each current student of the classroom holds a seat in,
	// finished and won (a seat the computer plays wins nothing), and the class's under "", each game
	// once.
	GameCounts(ctx context.Context, classroomID string) ([]GameCount, error)
	// ReviewTotals sums, per current student of the classroom and kind, their seats in the kept
	// review summaries.
	ReviewTotals(ctx context.Context, classroomID string) ([]ReviewTotal, error)
	// QueuedReviews counts, by kind, the classroom's finished games with a current student that
	// wait for the worker's review.
	QueuedReviews(ctx context.Context, classroomID string) (map[string]int, error)
	// ProgressDays sums the current students' figures of the days from `from` up to `to`
	// (excluded) into buckets of `days` days (1 or 7) starting at from, by student (or only
	// studentID's when not empty), buckets in order; rows with nothing are left out.
	ProgressDays(ctx context.Context, classroomID, studentID string, from, to time.Time, days int) ([]ProgressRow, error)
}
