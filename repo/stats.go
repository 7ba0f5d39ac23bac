package repo

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/jackc/pgx/v5"

	"primegames/play"
)

// StudentSeats lists the seats students hold in the classroom's games. A student's seat played by a
// computer is one they resigned (G-3): it never counts as won.
func (s *Games) StudentSeats(ctx context.Context, classroomID string) ([]play.StudentSeat, error) {
	rows, err := s.db.reads(ctx).Query(ctx, `SELECT g.id::text, g.kind, g.status, s.seat, s.student_id::text, s.seat = ANY(coalesce(g.winners, '{}')) AND s.bot IS NULL
		FROM games g JOIN seats s ON s.game_id = g.id
		WHERE g.classroom_id = $1 AND s.student_id IS NOT NULL`, classroomID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (play.StudentSeat, error) {
		var ss play.StudentSeat
		err := r.Scan(&ss.GameID, &ss.Kind, &ss.Status, &ss.Seat, &ss.StudentID, &ss.Won)
		return ss, err
	})
}

// StaleTallies lists the started games of the classroom in which a student holds a seat that keep
// no current tally. It reads the class's games only when class_stale (migration 00077) counts some
// (the condition on it is a one-time filter of the plan): usually none, whatever their number.
func (s *Games) StaleTallies(ctx context.Context, classroomID string) ([]play.KeptTally, error) {
	rows, err := s.db.reads(ctx).Query(ctx, `SELECT g.id::text, g.kind, g.version FROM games g
		WHERE g.classroom_id = $1 AND g.status <> 'lobby' AND g.tally_version IS DISTINCT FROM g.version
			AND EXISTS (SELECT FROM seats s WHERE s.game_id = g.id AND s.student_id IS NOT NULL)
			AND EXISTS (SELECT FROM class_stale cs WHERE cs.classroom_id = $1 AND cs.n > 0)`,
		classroomID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (play.KeptTally, error) {
		var k play.KeptTally
		err := r.Scan(&k.GameID, &k.Kind, &k.Version)
		return k, err
	})
}

// SeatCounts reads the counters of the current students' seats in the current kept tallies of the
// classroom's started games, summed per student, kind and counter as the games' steps keep them
// (student_sums, migration 00075): a few rows per student, however many games.
func (s *Games) SeatCounts(ctx context.Context, classroomID string) ([]play.SeatCount, error) {
	rows, err := s.db.reads(ctx).Query(ctx, `SELECT ss.student_id::text, ss.kind, ss.name, ss.n
		FROM student_sums ss JOIN students st ON st.id = ss.student_id AND st.removed_at IS NULL AND st.classroom_id = $1
		WHERE ss.classroom_id = $1 AND ss.what = 'tally'`, classroomID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (play.SeatCount, error) {
		var c play.SeatCount
		err := r.Scan(&c.StudentID, &c.Kind, &c.Name, &c.Count)
		return c, err
	})
}

// EachOutcome calls fn with the entries of the games but their starts, up to each game's version,
// by game and in order.
func (s *Games) EachOutcome(ctx context.Context, games []play.KeptTally, fn func(play.OutcomeEntry) error) error {
	ids, versions := make([]string, len(games)), make([]int64, len(games))
	for i, g := range games {
		ids[i], versions[i] = g.GameID, g.Version
	}
	rows, err := s.db.reads(ctx).Query(ctx, `SELECT g.id::text, g.kind, a.seat, a.service, a.action, a.outcome
		FROM unnest($1::uuid[], $2::bigint[]) AS w(id, version)
		JOIN games g ON g.id = w.id
		JOIN actions a ON a.game_id = w.id AND a.seq > 0 AND a.version <= w.version
		ORDER BY a.game_id, a.seq`, ids, versions)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var e play.OutcomeEntry
		var seat *int32
		if err := rows.Scan(&e.GameID, &e.Kind, &seat, &e.Service, &e.Action, &e.Outcome); err != nil {
			return err
		}
		if seat != nil {
			n := int(*seat)
			e.Seat = &n
		}
		if err := fn(e); err != nil {
			return err
		}
	}
	return rows.Err()
}

// KeepTallies keeps each game's tally, counted up to its version, unless the game has moved on since.
func (s *Games) KeepTallies(ctx context.Context, games []play.KeptTally) error {
	b := &pgx.Batch{}
	for _, g := range games {
		b.Queue(`UPDATE games SET tally = $3, tally_version = $2 WHERE id = $1 AND version = $2`, g.GameID, g.Version, []byte(g.Tally))
	}
	return s.db.Pool.SendBatch(ctx, b).Close()
}

// attemptsByCode counts the refusals of the classroom's current students by code, most frequent
// first, with the most recent sentences (at most three: attempt_codes keeps three per student and
// code, and the class's three most recent are among its students'), from the counts the refusals
// keep (attempt_codes, migration 00075). Grouped per student, or for the whole class.
var attemptsByCode = `SELECT k, code, sum(n)::bigint, coalesce((array_agg(detail ORDER BY id DESC) FILTER (WHERE id IS NOT NULL))[1:$2], '{}')
	FROM (SELECT %[1]s AS k, c.code, c.n, NULL::bigint AS id, NULL::text AS detail
			` + currentAttemptCodes + ` WHERE c.classroom_id = $1
		UNION ALL
		SELECT %[1]s, c.code, 0, e.id, e.detail
			` + currentAttemptCodes + ` CROSS JOIN unnest(c.example_ids, c.examples) AS e(id, detail) WHERE c.classroom_id = $1) x
	GROUP BY 1, 2 ORDER BY 1, 3 DESC, 2`

const currentAttemptCodes = `FROM attempt_codes c JOIN students st ON st.id = c.student_id AND st.removed_at IS NULL AND st.classroom_id = $1`

// AttemptCounts counts the refusals of the classroom's current students by code, by student id, or
// all under "" when perStudent is false.
func (s *Games) AttemptCounts(ctx context.Context, classroomID string, perStudent bool, examples int) (map[string][]play.AttemptCount, error) {
	group := "''"
	if perStudent {
		group = "c.student_id::text"
	}
	rows, err := s.db.reads(ctx).Query(ctx, fmt.Sprintf(attemptsByCode, group), classroomID, examples)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string][]play.AttemptCount{}
	for rows.Next() {
		var key string
		var ac play.AttemptCount
		if err := rows.Scan(&key, &ac.Code, &ac.Count, &ac.Examples); err != nil {
			return nil, err
		}
		out[key] = append(out[key], ac)
	}
	return out, rows.Err()
}

// EachRefusalFacts calls fn with the refused actions of the classroom's current students that kept
// facts, those of one student, kind, code and facts together with their number, as the refusals
// keep them (attempt_facts, migration 00075).
func (s *Games) EachRefusalFacts(ctx context.Context, classroomID string, fn func(studentID, kind, code string, facts json.RawMessage, n int) error) error {
	rows, err := s.db.reads(ctx).Query(ctx, `SELECT f.student_id::text, f.kind, f.code, f.facts, f.n
		FROM attempt_facts f JOIN students st ON st.id = f.student_id AND st.removed_at IS NULL AND st.classroom_id = $1
		WHERE f.classroom_id = $1`, classroomID)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var studentID, kind, code string
		var facts []byte
		var n int
		if err := rows.Scan(&studentID, &kind, &code, &facts, &n); err != nil {
			return err
		}
		if err := fn(studentID, kind, code, facts, n); err != nil {
			return err
		}
	}
	return rows.Err()
}

// GameCounts reads the started games of each current student and of the class as the games'
// starts and ends keep them (student_sums and class_totals, migration 00076): a row per student.
func (s *Games) GameCounts(ctx context.Context, classroomID string) ([]play.GameCount, error) {
	rows, err := s.db.reads(ctx).Query(ctx, `SELECT ss.student_id::text, coalesce(sum(ss.n) FILTER (WHERE ss.name = 'played'), 0)::int,
			coalesce(sum(ss.n) FILTER (WHERE ss.name = 'finished'), 0)::int, coalesce(sum(ss.n) FILTER (WHERE ss.name = 'won'), 0)::int
		FROM student_sums ss JOIN students st ON st.id = ss.student_id AND st.removed_at IS NULL AND st.classroom_id = $1
		WHERE ss.classroom_id = $1 AND ss.what = 'games'
		GROUP BY 1
		UNION ALL
		SELECT '', coalesce(sum(played), 0)::int, coalesce(sum(finished), 0)::int, coalesce(sum(won), 0)::int
		FROM class_totals WHERE classroom_id = $1`, classroomID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (play.GameCount, error) {
		var c play.GameCount
		err := r.Scan(&c.StudentID, &c.Played, &c.Finished, &c.Won)
		return c, err
	})
}

// Attempts lists a game's refused actions, oldest first.
func (s *Games) Attempts(ctx context.Context, gameID string) ([]play.Attempt, error) {
	rows, err := s.db.reads(ctx).Query(ctx, `SELECT a.id, a.seat, s.student_id::text, a.version, a.action, a.code, a.detail, a.facts, a.created_at
		FROM attempts a LEFT JOIN seats s ON s.game_id = a.game_id AND s.seat = a.seat
		WHERE a.game_id = $1 ORDER BY a.id`, gameID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (play.Attempt, error) {
		var a play.Attempt
		err := r.Scan(&a.ID, &a.Seat, &a.StudentID, &a.Version, &a.Action, &a.Code, &a.Detail, &a.Facts, &a.CreatedAt)
		return a, err
	})
}
