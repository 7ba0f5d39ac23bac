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
// no current tally.
func (s *Games) StaleTallies(ctx context.Context, classroomID string) ([]play.KeptTally, error) {
	rows, err := s.db.reads(ctx).Query(ctx, `SELECT g.id::text, g.kind, g.version FROM games g
		WHERE g.classroom_id = $1 AND g.status <> 'lobby' AND g.tally_version IS DISTINCT FROM g.version
			AND EXISTS (SELECT FROM seats s WHERE s.game_id = g.id AND s.student_id IS NOT NULL)`,
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

// SeatCounts sums, in Postgres, the counters of the current students' seats in the current kept
// tallies of the classroom's started games (a tally's counts are by seat: {"counts": {"0": {…}}}).
func (s *Games) SeatCounts(ctx context.Context, classroomID string) ([]play.SeatCount, error) {
	rows, err := s.db.reads(ctx).Query(ctx, `SELECT s.student_id::text, g.kind, c.key, sum(c.value::bigint)
		FROM games g JOIN seats s ON s.game_id = g.id
		JOIN students st ON st.id = s.student_id AND st.removed_at IS NULL AND st.classroom_id = $1
		CROSS JOIN json_each_text(g.tally->'counts'->(s.seat::text)) c
		WHERE g.classroom_id = $1 AND g.status <> 'lobby' AND g.tally_version = g.version
		GROUP BY 1, 2, 3`, classroomID)
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

// classStudentSeats joins, to the rows of the classroom's games (g, and h or a with the seat), the
// seat and its current student. The condition on st.classroom_id says nothing new (a student sits
// only in their classroom's games), but it lets Postgres start from the class's students (index
// students_name_key) and their seats (seats_student) rather than hash every seat and student of
// every class: a class's statistics then read its own rows only, however many classes there are
// (issue 28: with 150,000 games the planner chose whole scans of seats and students without it).
const classStudentSeats = `JOIN seats s ON s.game_id = g.id AND s.seat = %[1]s.seat
	JOIN students st ON st.id = s.student_id AND st.removed_at IS NULL AND st.classroom_id = $1`

// attemptsByCode counts the refusals of the classroom's current students by code, most frequent
// first, with the most recent sentences. Grouped per student, or for the whole class.
var attemptsByCode = `SELECT %s, a.code, count(*), (array_agg(a.detail ORDER BY a.id DESC))[1:$2]
	FROM attempts a
	JOIN games g ON g.id = a.game_id
	` + fmt.Sprintf(classStudentSeats, "a") + `
	WHERE g.classroom_id = $1
	GROUP BY 1, 2 ORDER BY 1, 3 DESC, 2`

// AttemptCounts counts the refusals of the classroom's current students by code, by student id, or
// all under "" when perStudent is false.
func (s *Games) AttemptCounts(ctx context.Context, classroomID string, perStudent bool, examples int) (map[string][]play.AttemptCount, error) {
	group := "''"
	if perStudent {
		group = "s.student_id::text"
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
// facts, those of one student, kind, code and facts together with their number.
func (s *Games) EachRefusalFacts(ctx context.Context, classroomID string, fn func(studentID, kind, code string, facts json.RawMessage, n int) error) error {
	rows, err := s.db.reads(ctx).Query(ctx, `SELECT st.id::text, g.kind, a.code, a.facts, count(*)
		FROM attempts a
		JOIN games g ON g.id = a.game_id
		`+fmt.Sprintf(classStudentSeats, "a")+`
		WHERE g.classroom_id = $1 AND a.facts IS NOT NULL
		GROUP BY 1, 2, 3, 4`, classroomID)
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

// GameCounts counts, in Postgres, the started games of each current student and of the class.
func (s *Games) GameCounts(ctx context.Context, classroomID string) ([]play.GameCount, error) {
	rows, err := s.db.reads(ctx).Query(ctx, `WITH seat AS (
			SELECT g.id, s.student_id, g.status = 'finished' AS finished,
				g.status = 'finished' AND s.seat = ANY(coalesce(g.winners, '{}')) AND s.bot IS NULL AS won
			FROM games g JOIN seats s ON s.game_id = g.id
			JOIN students st ON st.id = s.student_id AND st.removed_at IS NULL AND st.classroom_id = $1
			WHERE g.classroom_id = $1 AND g.status <> 'lobby')
		SELECT student_id::text, count(*), count(*) FILTER (WHERE finished), count(*) FILTER (WHERE won) FROM seat GROUP BY 1
		UNION ALL
		SELECT '', count(*), count(*) FILTER (WHERE finished), count(*) FILTER (WHERE won)
		FROM (SELECT id, bool_or(finished) AS finished, bool_or(won) AS won FROM seat GROUP BY id) games`, classroomID)
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
