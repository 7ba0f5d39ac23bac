package play_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/jackc/pgx/v5"
)

// The sums the statistics read (migrations 00075 and 00076: student_sums, attempt_codes,
// attempt_facts, class_totals) answer what the statistics summed over the class's games before
// (the queries below, as they were: a test oracle), after random games with computer players,
// hints, refusals and resignations, the worker's reviews, and a student removed from the class.
func TestStatisticsSumsEqualTheGamesSums(t *testing.T) {
	t.Parallel()
	c := newProgressClass(t, "Ada", "Bo", "Cy", "Di")
	r := rand.New(rand.NewPCG(11, 42))
	for range 10 {
		c.playRandomGame(r, 10+r.IntN(60))
	}
	c.drainReviews()
	if err := c.master.RemoveStudent(c.ctx, c.class.ID, c.ids[3]); err != nil {
		t.Fatal(err)
	}
	g, id := c.db.Games(), c.class.ID

	seatCounts, err := g.SeatCounts(c.ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range seatCounts {
		got = append(got, fmt.Sprintf("%s %s %s=%d", s.StudentID, s.Kind, s.Name, s.Count))
	}
	c.sameRows("tally counters", got, `SELECT format('%s %s %s=%s', s.student_id, g.kind, c.key, sum(c.value::bigint))
		FROM games g JOIN seats s ON s.game_id = g.id
		JOIN students st ON st.id = s.student_id AND st.removed_at IS NULL AND st.classroom_id = $1
		CROSS JOIN json_each_text(g.tally->'counts'->(s.seat::text)) c
		WHERE g.classroom_id = $1 AND g.status <> 'lobby' AND g.tally_version = g.version
		GROUP BY s.student_id, g.kind, c.key`)

	totals, err := g.ReviewTotals(c.ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	got = nil
	for _, rt := range totals {
		got = append(got, fmt.Sprintf("%s %s judged=%d", rt.StudentID, rt.Kind, rt.Judged))
		for name, n := range rt.Labels {
			got = append(got, fmt.Sprintf("%s %s label %s=%d", rt.StudentID, rt.Kind, name, n))
		}
		for name, n := range rt.Missed {
			got = append(got, fmt.Sprintf("%s %s missed %s=%d", rt.StudentID, rt.Kind, name, n))
		}
	}
	const current = `FROM review_seats r JOIN students st ON st.id = r.student_id AND st.removed_at IS NULL AND st.classroom_id = $1`
	c.sameRows("review totals", got, `SELECT format('%s %s judged=%s', r.student_id, r.kind, sum(r.judged)) `+current+`
			WHERE r.classroom_id = $1 GROUP BY r.student_id, r.kind
		UNION ALL SELECT format('%s %s label %s=%s', r.student_id, r.kind, l.key, sum(l.value::int)) `+current+`
			CROSS JOIN jsonb_each_text(r.labels) l WHERE r.classroom_id = $1 GROUP BY r.student_id, r.kind, l.key
		UNION ALL SELECT format('%s %s missed %s=%s', r.student_id, r.kind, m.key, sum(m.value::int)) `+current+`
			CROSS JOIN jsonb_each_text(r.missed) m WHERE r.classroom_id = $1 GROUP BY r.student_id, r.kind, m.key`)

	hints, err := g.HintCounts(c.ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	got = nil
	for student, n := range hints {
		got = append(got, fmt.Sprintf("%s hints=%d", student, n))
	}
	const seatOf = `JOIN seats s ON s.game_id = g.id AND s.seat = %[1]s.seat
		JOIN students st ON st.id = s.student_id AND st.removed_at IS NULL AND st.classroom_id = $1`
	c.sameRows("hints", got, `SELECT format('%s hints=%s', st.id, count(*)) FROM hints h JOIN games g ON g.id = h.game_id
		`+fmt.Sprintf(seatOf, "h")+` WHERE g.classroom_id = $1 GROUP BY st.id`)

	got = nil
	if err := g.EachRefusalFacts(c.ctx, id, func(studentID, kind, code string, facts json.RawMessage, n int) error {
		got = append(got, fmt.Sprintf("%s %s %s %s=%d", studentID, kind, code, facts, n))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	c.sameRows("refusals' facts", got, `SELECT format('%s %s %s %s=%s', st.id, g.kind, a.code, a.facts, count(*))
		FROM attempts a JOIN games g ON g.id = a.game_id `+fmt.Sprintf(seatOf, "a")+`
		WHERE g.classroom_id = $1 AND a.facts IS NOT NULL GROUP BY st.id, g.kind, a.code, a.facts`)

	for _, perStudent := range []bool{true, false} {
		counts, err := g.AttemptCounts(c.ctx, id, perStudent, 3)
		if err != nil {
			t.Fatal(err)
		}
		got = nil
		for key, acs := range counts {
			for _, ac := range acs {
				got = append(got, fmt.Sprintf("%q %s=%d %q", key, ac.Code, ac.Count, ac.Examples))
			}
		}
		group := "''"
		if perStudent {
			group = "s.student_id::text"
		}
		rows, err := c.db.Pool.Query(c.ctx, `SELECT `+group+`, a.code, count(*), (array_agg(a.detail ORDER BY a.id DESC))[1:3]
			FROM attempts a JOIN games g ON g.id = a.game_id `+fmt.Sprintf(seatOf, "a")+`
			WHERE g.classroom_id = $1 GROUP BY 1, 2`, id)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		var key, code string
		var n int
		var examples []string
		if _, err := pgx.ForEachRow(rows, []any{&key, &code, &n, &examples}, func() error {
			want = append(want, fmt.Sprintf("%q %s=%d %q", key, code, n, examples))
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		slices.Sort(got)
		slices.Sort(want)
		if len(want) == 0 || !reflect.DeepEqual(got, want) {
			t.Errorf("refusals by code (per student %v):\n%v\nsummed over the games:\n%v", perStudent, got, want)
		}
	}

	counts, err := g.GameCounts(c.ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	got = nil
	for _, gc := range counts {
		got = append(got, fmt.Sprintf("%q played=%d finished=%d won=%d", gc.StudentID, gc.Played, gc.Finished, gc.Won))
	}
	c.sameRows("games", got, `WITH seat AS (
			SELECT g.id, s.student_id, g.status = 'finished' AS finished,
				g.status = 'finished' AND s.seat = ANY(coalesce(g.winners, '{}')) AND s.bot IS NULL AS won
			FROM games g JOIN seats s ON s.game_id = g.id
			JOIN students st ON st.id = s.student_id AND st.removed_at IS NULL AND st.classroom_id = $1
			WHERE g.classroom_id = $1 AND g.status <> 'lobby')
		SELECT format('"%s" played=%s finished=%s won=%s', student_id, count(*), count(*) FILTER (WHERE finished), count(*) FILTER (WHERE won))
		FROM seat GROUP BY student_id
		UNION ALL
		SELECT format('"" played=%s finished=%s won=%s', count(*), count(*) FILTER (WHERE finished), count(*) FILTER (WHERE won))
		FROM (SELECT id, bool_or(finished) AS finished, bool_or(won) AS won FROM seat GROUP BY id) games`)

	// and the answer: statistics of the class as a whole, which a removed student is not part of
	stats, err := c.master.ClassroomStats(c.ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if len(stats.Class.Attempts) == 0 || len(stats.Class.Counts) == 0 {
		t.Errorf("the class's statistics count no refusals or counters: %+v", stats.Class)
	}
}

// sameRows says whether got holds, in any order, the rows (one text each) the query over the class
// answers; it fails when the query answers none.
func (c *progressClass) sameRows(what string, got []string, sql string) {
	c.t.Helper()
	want := textRows(c.t, c.db, sql, c.class.ID)
	slices.Sort(got)
	slices.Sort(want)
	if len(want) == 0 || !reflect.DeepEqual(got, want) {
		c.t.Errorf("%s read from the sums:\n%v\nsummed over the games:\n%v", what, got, want)
	}
}
