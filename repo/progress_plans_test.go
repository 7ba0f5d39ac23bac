package repo_test

import (
	"context"
	"testing"
	"time"

	"primegames/repo"
	"primegames/repo/repotest"
)

// A classroom's progress reads its own days through the primary key of progress_days (classroom,
// day, student), and the worker's claim of a game to review reads review_due through its index,
// never either table from end to end: at 60 classrooms of 30 students with 200 days each (360,000
// rows) and 30,000 queued games, with a call's values and with a generic plan alike.
func TestProgressAndReviewClaimUseIndexes(t *testing.T) {
	t.Parallel()
	db := repotest.NewDB(t)
	ctx := context.Background()
	for _, sql := range []string{
		`INSERT INTO classrooms (name, join_code, teacher_token_hash) SELECT 'Class ' || i, 'code' || i, ('\x' || md5(i::text))::bytea FROM generate_series(1, 60) i`,
		`INSERT INTO students (classroom_id, name, name_key, token_hash) SELECT c.id, 'Student ' || i, 'student ' || i, ('\x' || md5(c.id::text || i))::bytea
			FROM classrooms c, generate_series(1, 30) i`,
		`INSERT INTO progress_days (classroom_id, day, student_id, games_played, moves, move_ms)
			SELECT st.classroom_id, date '2026-01-01' + d, st.id, 1, 10, 40000 FROM students st, generate_series(0, 199) d`,
		`INSERT INTO games (id, kind, options, status, seat_count, seed, owner_key, creator_token_hash, classroom_id, finished_at)
			SELECT md5(i::text)::uuid, 'primed', '{}', 'finished', 2, i, 'o', ('\x' || md5('g' || i))::bytea, (SELECT id FROM classrooms ORDER BY id LIMIT 1 OFFSET i % 60), now()
			FROM generate_series(1, 30000) i`,
		`INSERT INTO review_due (game_id, classroom_id, due_at) SELECT id, classroom_id, finished_at FROM games`,
		`ANALYZE progress_days`,
		`ANALYZE review_due`,
	} {
		if _, err := db.Pool.Exec(ctx, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	var class, student string
	if err := db.Pool.QueryRow(ctx, `SELECT classroom_id::text, id::text FROM students ORDER BY id LIMIT 1`).Scan(&class, &student); err != nil {
		t.Fatal(err)
	}
	args := map[string][]any{
		"progress days": {class, "", "2026-03-02", "2026-05-25", 7},
		"claim review":  {class, mustDay(t, "2027-01-01")},
	}
	for name, sql := range repo.ProgressSQL {
		for _, mode := range []string{"auto", "force_generic_plan"} {
			for _, table := range []string{"progress_days", "review_due"} {
				if scanned := seqScannedTable(ctx, t, db, mode, sql, args[name], table); scanned != "" {
					t.Errorf("%s (plan_cache_mode %s) reads %s from end to end:\n%s", name, mode, table, scanned)
				}
			}
		}
	}
	rows, err := db.Games().ProgressDays(ctx, class, student, mustDay(t, "2026-03-02"), mustDay(t, "2026-03-16"), 7)
	if err != nil || len(rows) != 2 || rows[0].Played != 7 || rows[0].Moves != 70 || rows[1].MoveMS != 7*40000 {
		t.Errorf("two weeks of one student: %+v, %v", rows, err)
	}
}

func mustDay(t *testing.T, day string) time.Time {
	t.Helper()
	d, err := time.Parse(time.DateOnly, day)
	if err != nil {
		t.Fatal(err)
	}
	return d
}
