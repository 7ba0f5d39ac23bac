package repo

import (
	"context"
	"encoding/json"
	"time"

	"github.com/jackc/pgx/v5"

	"primegames/play"
)

// RecordHint counts a hint given to seat at the position whose next entry is seq, at the time at;
// asking again at the same position counts nothing more. A hint given to a student's seat adds to
// the student's progress of the day in the same statement.
func (s *Games) RecordHint(ctx context.Context, gameID string, seat int, seq int64, at time.Time) error {
	_, err := s.db.Pool.Exec(ctx, `WITH hint AS (INSERT INTO hints (game_id, seat, seq, created_at) VALUES ($1, $2, $3, $4)
			ON CONFLICT DO NOTHING RETURNING game_id, seat)
		INSERT INTO progress_days AS p (classroom_id, day, student_id, hints)
		SELECT g.classroom_id, $5::date, s.student_id, 1
		FROM hint h JOIN games g ON g.id = h.game_id AND g.classroom_id IS NOT NULL
		JOIN seats s ON s.game_id = h.game_id AND s.seat = h.seat AND s.student_id IS NOT NULL
		ON CONFLICT (classroom_id, day, student_id) DO UPDATE SET hints = p.hints + 1`,
		gameID, seat, seq, at, at.UTC().Format(dayLayout))
	return err
}

// HintsUsed counts the hints given in a game, by seat; a seat that asked for none is absent.
func (s *Games) HintsUsed(ctx context.Context, gameID string) (map[int]int, error) {
	return countsBy[int](ctx, s.db.Pool, `SELECT seat, count(*) FROM hints WHERE game_id = $1 GROUP BY seat`, gameID)
}

// HintCounts counts the hints the classroom's current students were given, by student id, as the
// hints kept add them up (student_sums, migration 00076).
func (s *Games) HintCounts(ctx context.Context, classroomID string) (map[string]int, error) {
	return countsBy[string](ctx, s.db.reads(ctx), `SELECT ss.student_id::text, sum(ss.n)::int
		FROM student_sums ss JOIN students st ON st.id = ss.student_id AND st.removed_at IS NULL AND st.classroom_id = $1
		WHERE ss.classroom_id = $1 AND ss.what = 'hints'
		GROUP BY 1`, classroomID)
}

// countsBy reads rows of (key, count) into a map.
func countsBy[K comparable](ctx context.Context, q interface {
	Query(context.Context, string, ...any) (pgx.Rows, error)
}, sql string, args ...any) (map[K]int, error) {
	rows, err := q.Query(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	out := map[K]int{}
	var key K
	var n int
	_, err = pgx.ForEachRow(rows, []any{&key, &n}, func() error {
		out[key] = n
		return nil
	})
	return out, err
}

// Review reads a game's kept review; play.ErrNotFound when it has none.
func (s *Games) Review(ctx context.Context, gameID string) (json.RawMessage, error) {
	var review json.RawMessage
	err := s.db.Pool.QueryRow(ctx, `SELECT review FROM reviews WHERE game_id = $1`, gameID).Scan(&review)
	return review, notFound(err)
}

// KeepReview keeps review as the game's unless one is kept already, and returns the one kept. Two
// requests keeping a review at once both get the one that was stored first.
func (s *Games) KeepReview(ctx context.Context, gameID string, review json.RawMessage) (json.RawMessage, error) {
	// Two statements: the SELECT must see a row that a concurrent INSERT committed while this one
	// waited on it, which a snapshot taken for a single statement would not.
	if _, err := s.db.Pool.Exec(ctx, `INSERT INTO reviews (game_id, review) VALUES ($1, $2) ON CONFLICT DO NOTHING`, gameID, review); err != nil {
		return nil, err
	}
	return s.Review(ctx, gameID)
}

// Reviews reads the kept reviews of the games listed, by game id; a game without one is absent.
func (s *Games) Reviews(ctx context.Context, gameIDs []string) (map[string]json.RawMessage, error) {
	rows, err := s.db.reads(ctx).Query(ctx, `SELECT game_id::text, review FROM reviews WHERE game_id = ANY($1::uuid[])`, gameIDs)
	if err != nil {
		return nil, err
	}
	out := map[string]json.RawMessage{}
	var id string
	var review []byte
	_, err = pgx.ForEachRow(rows, []any{&id, &review}, func() error {
		out[id] = append(json.RawMessage(nil), review...)
		return nil
	})
	return out, err
}

var _ play.ReviewStore = (*Games)(nil)
