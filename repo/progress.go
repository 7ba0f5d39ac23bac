package repo

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"primegames/play"
)

// addProgressSQL adds rows to the students' figures of one day ($3): the rows come in the order
// play sorts them (by student), so two transactions lock a day's rows in one order.
const addProgressSQL = `INSERT INTO progress_days AS p (classroom_id, day, student_id, games_played, games_finished, games_won,
		hints, moves, move_ms, missed)
	SELECT c, $3::date, st, pl, fi, wo, hi, mo, ms, mi
	FROM unnest($1::uuid[], $2::uuid[], $4::int[], $5::int[], $6::int[], $7::int[], $8::int[], $9::bigint[], $10::int[])
		WITH ORDINALITY AS d(c, st, pl, fi, wo, hi, mo, ms, mi, n)
	ORDER BY n
	ON CONFLICT (classroom_id, day, student_id) DO UPDATE SET
		games_played = p.games_played + EXCLUDED.games_played,
		games_finished = p.games_finished + EXCLUDED.games_finished,
		games_won = p.games_won + EXCLUDED.games_won,
		hints = p.hints + EXCLUDED.hints,
		moves = p.moves + EXCLUDED.moves,
		move_ms = p.move_ms + EXCLUDED.move_ms,
		missed = p.missed + EXCLUDED.missed`

// progressArgs are addProgressSQL's arguments for deltas on day.
func progressArgs(deltas []play.ProgressDelta, day string) []any {
	n := len(deltas)
	classrooms, students := make([]string, n), make([]string, n)
	played, finished, won, hints, moves, missed := make([]int32, n), make([]int32, n), make([]int32, n), make([]int32, n), make([]int32, n), make([]int32, n)
	ms := make([]int64, n)
	for i, d := range deltas {
		classrooms[i], students[i] = d.ClassroomID, d.StudentID
		played[i], finished[i], won[i], hints[i], moves[i], missed[i] = int32(d.Played), int32(d.Finished), int32(d.Won), int32(d.Hints), int32(d.Moves), int32(d.Missed)
		ms[i] = d.MoveMS
	}
	return []any{classrooms, students, day, played, finished, won, hints, moves, ms, missed}
}

// AddProgress adds to the students' figures of the transaction's day (UTC).
func (t *gameTx) AddProgress(ctx context.Context, deltas []play.ProgressDelta) error {
	if len(deltas) == 0 {
		return nil
	}
	return t.queue(ctx, addProgressSQL, progressArgs(deltas, t.now.UTC().Format(dayLayout))...)
}

// QueueReview puts a finished classroom game in the worker's review queue, due at the
// transaction's now.
func (t *gameTx) QueueReview(ctx context.Context, gameID, classroomID string) error {
	return t.queue(ctx, `INSERT INTO review_due (game_id, classroom_id, due_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
		gameID, classroomID, t.now)
}

// dayLayout is how a day is sent to Postgres.
const dayLayout = "2006-01-02"

// claimReviewSQL locks the oldest queued game, that no other transaction holds, of the first
// classroom after $1 with one queued (index review_due_classroom: the classroom found first, then
// its games in their order).
const claimReviewSQL = `SELECT d.game_id::text, d.classroom_id::text FROM review_due d
	WHERE d.classroom_id = (SELECT classroom_id FROM review_due WHERE classroom_id > $1::uuid AND due_at <= $2 ORDER BY classroom_id LIMIT 1)
		AND d.due_at <= $2
	ORDER BY d.due_at LIMIT 1 FOR UPDATE SKIP LOCKED`

// ClaimReview locks a queued game, the classrooms in turn after afterClassroom.
func (t *gameTx) ClaimReview(ctx context.Context, afterClassroom string) (*play.QueuedReview, error) {
	const first = "00000000-0000-0000-0000-000000000000"
	afters := []string{first}
	if afterClassroom != "" && afterClassroom != first {
		afters = []string{afterClassroom, first}
	}
	for _, after := range afters {
		var q play.QueuedReview
		found := true
		err := t.one(ctx, claimReviewSQL, []any{after, t.now}, func(r pgx.Row) error {
			err := r.Scan(&q.GameID, &q.ClassroomID)
			if errors.Is(err, pgx.ErrNoRows) {
				found = false
				return nil
			}
			return err
		})
		if err != nil {
			return nil, err
		}
		if found {
			return &q, nil
		}
	}
	return nil, nil
}

// PostponeReview makes a queued game due again after `after` from the transaction's now.
func (t *gameTx) PostponeReview(ctx context.Context, gameID string, after time.Duration) error {
	return t.queue(ctx, `UPDATE review_due SET due_at = $2 WHERE game_id = $1`, gameID, t.now.Add(after))
}

// KeepReviewSeats keeps a reviewed game's students' summaries, adds their missed opportunities to
// their progress of the day the game finished, and takes the game off the queue.
func (t *gameTx) KeepReviewSeats(ctx context.Context, gameID, classroomID, kind string, seats []play.ReviewSeat) error {
	for _, s := range seats {
		labels, err := json.Marshal(s.Labels)
		if err != nil {
			return err
		}
		missed, err := json.Marshal(s.Missed)
		if err != nil {
			return err
		}
		n := 0
		for _, m := range s.Missed {
			n += m
		}
		if err := t.queue(ctx, `WITH kept AS (INSERT INTO review_seats (game_id, seat, classroom_id, student_id, kind, judged, labels, missed)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING RETURNING game_id)
			INSERT INTO progress_days AS p (classroom_id, day, student_id, missed)
			SELECT $3, (g.finished_at AT TIME ZONE 'UTC')::date, $4, $9
			FROM kept JOIN games g ON g.id = kept.game_id
			ON CONFLICT (classroom_id, day, student_id) DO UPDATE SET missed = p.missed + EXCLUDED.missed`,
			gameID, s.Seat, classroomID, s.StudentID, kind, s.Judged, labels, missed, n); err != nil {
			return err
		}
	}
	return t.queue(ctx, `DELETE FROM review_due WHERE game_id = $1`, gameID)
}

// ReviewTotals reads the review summaries per current student of the classroom and kind, as the
// worker's reviews keep them summed (student_sums, migration 00075): the
// judged actions, and the labels and missed opportunities by name.
func (s *Games) ReviewTotals(ctx context.Context, classroomID string) ([]play.ReviewTotal, error) {
	rows, err := s.db.reads(ctx).Query(ctx, `SELECT ss.student_id::text, ss.kind, ss.what, ss.name, ss.n
		FROM student_sums ss JOIN students st ON st.id = ss.student_id AND st.removed_at IS NULL AND st.classroom_id = $1
		WHERE ss.classroom_id = $1 AND ss.what IN ('judged', 'label', 'missed')
		ORDER BY 1, 2`, classroomID)
	if err != nil {
		return nil, err
	}
	type key struct{ student, kind string }
	byKey := map[key]*play.ReviewTotal{}
	var order []key
	var student, kind, what, name string
	var n int64
	_, err = pgx.ForEachRow(rows, []any{&student, &kind, &what, &name, &n}, func() error {
		k := key{student, kind}
		t := byKey[k]
		if t == nil {
			t = &play.ReviewTotal{StudentID: student, Kind: kind, Labels: map[string]int{}, Missed: map[string]int{}}
			byKey[k] = t
			order = append(order, k)
		}
		switch what {
		case "label":
			t.Labels[name] += int(n)
		case "missed":
			t.Missed[name] += int(n)
		default:
			t.Judged += int(n)
		}
		return nil
	})
	out := make([]play.ReviewTotal, len(order))
	for i, k := range order {
		out[i] = *byKey[k]
	}
	return out, err
}

// QueuedReviews counts, by kind, the classroom's queued games in which a current student sits.
func (s *Games) QueuedReviews(ctx context.Context, classroomID string) (map[string]int, error) {
	return countsBy[string](ctx, s.db.reads(ctx), `SELECT g.kind, count(*) FROM review_due d JOIN games g ON g.id = d.game_id
		WHERE d.classroom_id = $1 AND EXISTS (SELECT FROM seats s JOIN students st ON st.id = s.student_id AND st.removed_at IS NULL
			WHERE s.game_id = d.game_id)
		GROUP BY 1`, classroomID)
}

// progressDaysSQL sums the current students' days from $3 up to $4 (excluded) into buckets of $5
// days from $3, by student ($2: only that one's when not empty); it reads the classroom's rows of
// those days through the primary key (classroom_id, day, student_id).
const progressDaysSQL = `SELECT p.student_id::text, $3::date + ((p.day - $3::date) / $5::int) * $5::int AS start,
		sum(p.games_played)::int, sum(p.games_finished)::int, sum(p.games_won)::int, sum(p.hints)::int, sum(p.moves)::int,
		sum(p.move_ms)::bigint, sum(p.missed)::int
	FROM progress_days p JOIN students st ON st.id = p.student_id AND st.removed_at IS NULL
	WHERE p.classroom_id = $1 AND p.day >= $3::date AND p.day < $4::date AND ($2 = '' OR p.student_id::text = $2)
	GROUP BY 1, 2 ORDER BY 2, 1`

// ProgressDays sums the current students' figures into buckets of days.
func (s *Games) ProgressDays(ctx context.Context, classroomID, studentID string, from, to time.Time, days int) ([]play.ProgressRow, error) {
	rows, err := s.db.reads(ctx).Query(ctx, progressDaysSQL, classroomID, studentID, from.UTC().Format(dayLayout), to.UTC().Format(dayLayout), days)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (play.ProgressRow, error) {
		var p play.ProgressRow
		err := r.Scan(&p.StudentID, &p.Start, &p.Played, &p.Finished, &p.Won, &p.Hints, &p.Moves, &p.MoveMS, &p.Missed)
		p.Start = time.Date(p.Start.Year(), p.Start.Month(), p.Start.Day(), 0, 0, 0, 0, time.UTC)
		return p, err
	})
}

var _ play.ProgressStore = (*Games)(nil)
