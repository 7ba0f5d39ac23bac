package play_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"primegames/domain"
	"primegames/domain/games"
	"primegames/play"
	"primegames/play/playclock"
	"primegames/repo"
	"primegames/repo/repotest"
)

// progressClass is a classroom of students playing on a clock the test moves.
type progressClass struct {
	t        *testing.T
	ctx      context.Context
	db       *repo.DB
	master   *play.Service
	clock    *playclock.Clock
	class    *play.Classroom
	teacher  play.Principal
	ids      []string
	students map[string]play.Principal
}

func newProgressClass(t *testing.T, names ...string) *progressClass {
	t.Helper()
	ctx := context.Background()
	db := repotest.NewDB(t)
	clock := playclock.New(time.Date(2026, 3, 1, 22, 0, 0, 0, time.UTC)) // a Sunday evening
	master := play.New(db.Games().Stores(), games.All(), play.WithClock(clock))
	class, teacherToken, err := master.CreateClassroom(ctx, "Room 9")
	if err != nil {
		t.Fatal(err)
	}
	c := &progressClass{t: t, ctx: ctx, db: db, master: master, clock: clock, class: class, students: map[string]play.Principal{}}
	c.teacher = c.resolve(teacherToken)
	for _, name := range names {
		st, _, token, err := master.JoinClassroom(ctx, class.JoinCode, name)
		if err != nil {
			t.Fatal(err)
		}
		c.ids = append(c.ids, st.ID)
		c.students[st.ID] = c.resolve(token)
	}
	return c
}

func (c *progressClass) resolve(token string) play.Principal {
	c.t.Helper()
	p, err := c.master.Resolve(c.ctx, play.IdentifyToken(token, ""))
	if err != nil {
		c.t.Fatal(err)
	}
	return p
}

// playRandomGame plays a game of two students, or a student and a computer player, with random
// legal actions, hints, pauses across days and now and then a resignation; it may leave the game
// unfinished after steps actions.
func (c *progressClass) playRandomGame(r *rand.Rand, steps int) {
	t := c.t
	t.Helper()
	players := []string{c.ids[r.IntN(len(c.ids))]}
	ng := play.NewGame{Kind: "primed", Options: json.RawMessage(`{"rounds":1}`), Students: players}
	if r.IntN(2) == 0 {
		other := c.ids[r.IntN(len(c.ids))]
		if other == players[0] {
			ng.Bots = []play.BotSeat{{Seat: 1, Level: domain.LevelRandom}}
		} else {
			ng.Students = append(ng.Students, other)
		}
	} else {
		ng.Bots = []play.BotSeat{{Seat: r.IntN(2), Level: domain.LevelGreedy}}
	}
	created, err := c.master.Create(c.ctx, ng, c.teacher, nil)
	if err != nil {
		t.Fatal(err)
	}
	id := created.Game.ID
	for range steps {
		c.clock.Advance(time.Duration(r.IntN(3*3600)) * time.Second * time.Duration(1+r.IntN(4)))
		for {
			acted, err := c.master.ActForDueBot(c.ctx)
			if err != nil {
				t.Fatal(err)
			}
			if !acted {
				break
			}
		}
		g, err := c.master.Load(c.ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		status := g.State.Status()
		if g.Status.Over() || status.Finished {
			return
		}
		seat := status.ToAct[0]
		student := g.Seats[seat].StudentID
		if student == nil || g.Seats[seat].Bot != "" {
			c.clock.Advance(10 * time.Second)
			continue
		}
		p := c.students[*student]
		switch r.IntN(12) {
		case 0:
			if _, err := c.master.Hint(c.ctx, id, p); err != nil {
				t.Fatal(err)
			}
		case 1:
			if _, _, err := c.master.Resign(c.ctx, id, p, nil); err != nil {
				t.Fatal(err)
			}
			continue
		case 2, 3:
			// a card at random: mostly refused (not in hand, not prime, with facts), kept as an attempt
			action := json.RawMessage(fmt.Sprintf(`{"type":"play","cards":[%d]}`, 1+r.IntN(20)))
			if _, err := c.master.Act(c.ctx, play.Action{GameID: id, Action: action}, p, nil); err != nil {
				var refused *domain.Error
				if !errors.As(err, &refused) {
					t.Fatal(err)
				}
			}
			continue
		}
		legal := allLegalActions(t, g.State, seat)
		if _, err := c.master.Act(c.ctx, play.Action{GameID: id, Action: legal[r.IntN(len(legal))]}, p, nil); err != nil {
			t.Fatal(err)
		}
	}
}

func allLegalActions(t *testing.T, state domain.State, seat int) []json.RawMessage {
	t.Helper()
	encoded, err := json.Marshal(state.LegalActions(seat))
	if err != nil {
		t.Fatal(err)
	}
	var legal []struct{ Action json.RawMessage }
	if err := json.Unmarshal(encoded, &legal); err != nil || len(legal) == 0 {
		t.Fatalf("seat %d has no legal action: %s %v", seat, encoded, err)
	}
	out := make([]json.RawMessage, len(legal))
	for i, l := range legal {
		out[i] = l.Action
	}
	return out
}

// drainReviews has the worker review every queued game.
func (c *progressClass) drainReviews() int {
	c.t.Helper()
	n := 0
	for {
		acted, err := c.master.ReviewQueuedGame(c.ctx)
		if err != nil {
			c.t.Fatal(err)
		}
		if !acted {
			return n
		}
		n++
	}
}

// progressRows reads progress_days whole, in order.
func progressRows(t *testing.T, db *repo.DB) []string {
	t.Helper()
	return textRows(t, db, `SELECT format('%s %s %s played=%s finished=%s won=%s hints=%s moves=%s ms=%s missed=%s',
		classroom_id, day, student_id, games_played, games_finished, games_won, hints, moves, move_ms, missed)
		FROM progress_days WHERE games_played + games_finished + games_won + hints + moves + move_ms + missed > 0
		ORDER BY classroom_id, day, student_id`)
}

// studentSumsRows reads student_sums, attempt_codes, attempt_facts, class_totals and class_stale
// whole, in order.
func studentSumsRows(t *testing.T, db *repo.DB) []string {
	t.Helper()
	return textRows(t, db, `SELECT * FROM (
		SELECT format('%s %s %s %s %s=%s', what, classroom_id, student_id, kind, name, n) AS r FROM student_sums
		UNION ALL SELECT format('code %s %s %s=%s %s %s', classroom_id, student_id, code, n, example_ids, examples) FROM attempt_codes
		UNION ALL SELECT format('facts %s %s %s %s %s=%s', classroom_id, student_id, kind, code, facts, n) FROM attempt_facts
		UNION ALL SELECT format('class %s played=%s finished=%s won=%s', classroom_id, played, finished, won) FROM class_totals
		UNION ALL SELECT format('stale %s %s', classroom_id, n) FROM class_stale WHERE n <> 0) x
		ORDER BY r`)
}

// textRows reads the rows of a query of one text column.
func textRows(t *testing.T, db *repo.DB, sql string, args ...any) []string {
	t.Helper()
	rows, err := db.Pool.Query(context.Background(), sql, args...)
	if err != nil {
		t.Fatal(err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// The figures the steps, the hints and the worker kept per student and day equal a recount from
// the histories (progress_recount, the migration's backfill), after random games over several
// days with computer players, hints, resignations and unfinished games; and so do the per-student
// sums the statistics read (student_sums, attempt_codes, attempt_facts: kept by the steps'
// tallies, the refusals and the worker's reviews; class_totals, kept by the starts and the ends) a
// recount of them (student_sums_recount and class_games_recount, the backfills of migrations
// 00075 and 00076).
func TestProgressKeptEqualsRecountFromHistory(t *testing.T) {
	t.Parallel()
	for _, seed := range []uint64{1, 2, 3} {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			t.Parallel()
			c := newProgressClass(t, "Ada", "Bo", "Cy")
			r := rand.New(rand.NewPCG(seed, 42))
			for range 6 {
				c.playRandomGame(r, 10+r.IntN(60))
			}
			if c.drainReviews() == 0 {
				t.Log("no finished game to review")
			}
			kept, keptSums := progressRows(t, c.db), studentSumsRows(t, c.db)
			if len(kept) == 0 {
				t.Fatal("no progress kept")
			}
			if !slices.ContainsFunc(keptSums, func(s string) bool { return strings.HasPrefix(s, "tally ") }) ||
				!slices.ContainsFunc(keptSums, func(s string) bool { return strings.HasPrefix(s, "code ") }) {
				t.Fatalf("the steps kept no tally counters or no refusals: %v", keptSums)
			}
			if _, err := c.db.Pool.Exec(c.ctx, `SELECT progress_recount(), student_sums_recount(), class_games_recount(), class_stale_recount()`); err != nil {
				t.Fatal(err)
			}
			if recount := progressRows(t, c.db); !reflect.DeepEqual(kept, recount) {
				t.Errorf("kept:\n%v\nrecounted from history:\n%v", kept, recount)
			}
			if recount := studentSumsRows(t, c.db); !reflect.DeepEqual(keptSums, recount) {
				t.Errorf("student sums kept:\n%v\nrecounted:\n%v", keptSums, recount)
			}
		})
	}
}

// The statistics read from the worker's review summaries equal, figure for figure, those the old
// path counted by reviewing on request and reading every kept review back (kept as a test oracle,
// stats_legacy_test.go), for a fixed set of games (a seed's random Primed games); and no
// statistics request reviews: before the worker's reviews every finished game is pending.
func TestStatisticsFromSummariesEqualThePerRequestReviews(t *testing.T) {
	t.Parallel()
	c := newProgressClass(t, "Ada", "Bo", "Cy", "Di")
	r := rand.New(rand.NewPCG(7, 42))
	for range 8 {
		c.playRandomGame(r, 80)
	}
	before, err := c.master.ClassroomStats(c.ctx, c.class.ID)
	if err != nil {
		t.Fatal(err)
	}
	if before.ReviewsPending == 0 || before.Class.AllReviews() != nil {
		t.Fatalf("before the worker: %d pending, reviews %+v", before.ReviewsPending, before.Class.AllReviews())
	}
	var legacy *play.ClassroomStats
	for range 10 {
		if legacy, err = c.master.LegacyClassroomStats(c.ctx, c.class.ID); err != nil {
			t.Fatal(err)
		}
		if legacy.ReviewsPending == 0 {
			break
		}
	}
	if n := c.drainReviews(); n != before.ReviewsPending {
		t.Errorf("the worker reviewed %d games, %d were pending", n, before.ReviewsPending)
	}
	stats, err := c.master.ClassroomStats(c.ctx, c.class.ID)
	if err != nil {
		t.Fatal(err)
	}
	if legacy.Class.AllReviews() == nil || legacy.Class.AllReviews().Judged == 0 {
		t.Fatal("the fixed games judged nothing")
	}
	got, _ := json.MarshalIndent(stats, "", " ")
	want, _ := json.MarshalIndent(legacy, "", " ")
	if string(got) != string(want) {
		t.Errorf("statistics from the summaries:\n%s\nper request:\n%s", got, want)
	}
}

// act makes the seat to act in game id play its first legal action, as its student, and returns
// the student.
func (c *progressClass) act(id string) string {
	c.t.Helper()
	g, err := c.master.Load(c.ctx, id)
	if err != nil {
		c.t.Fatal(err)
	}
	seat := g.State.Status().ToAct[0]
	student := *g.Seats[seat].StudentID
	if _, err := c.master.Act(c.ctx, play.Action{GameID: id, Action: firstLegalAction(c.t, g.State, seat)}, c.students[student], nil); err != nil {
		c.t.Fatal(err)
	}
	return student
}

// Progress by ISO week (UTC): a game started on a Sunday evening and a move a second before
// midnight count in that week, the move two seconds later in the next; a range from a Wednesday is
// moved back to its Monday and on to the Sunday of its last week; by day the same steps fall on
// Sunday and Monday. Each move's time counts from the game's step before it.
func TestProgressBucketsAtWeekBoundaries(t *testing.T) {
	t.Parallel()
	c := newProgressClass(t, "Ada", "Bo")
	created, err := c.master.Create(c.ctx, play.NewGame{Kind: "primed", Options: json.RawMessage(`{"rounds":1}`), Students: c.ids}, c.teacher, nil)
	if err != nil {
		t.Fatal(err)
	}
	id := created.Game.ID
	c.clock.Set(time.Date(2026, 3, 1, 23, 59, 59, 0, time.UTC))
	sunday := c.act(id)
	c.clock.Set(time.Date(2026, 3, 2, 0, 0, 1, 0, time.UTC))
	monday := c.act(id)

	week, err := c.master.ClassroomProgress(c.ctx, c.class.ID, play.ProgressAsk{Bucket: play.BucketWeek,
		From: time.Date(2026, 2, 25, 0, 0, 0, 0, time.UTC), To: time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	if !week.From.Equal(time.Date(2026, 2, 23, 0, 0, 0, 0, time.UTC)) || !week.To.Equal(time.Date(2026, 3, 8, 0, 0, 0, 0, time.UTC)) ||
		len(week.Class) != 2 || !week.Class[1].Start.Equal(time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)) {
		t.Fatalf("weeks from %s to %s, %d buckets %+v", week.From, week.To, len(week.Class), week.Class)
	}
	if week.Class[0].Played != 2 || week.Class[0].Moves != 1 || week.Class[1].Played != 0 || week.Class[1].Moves != 1 {
		t.Errorf("class by week: %+v", week.Class)
	}
	if ms := week.Class[0].MSPerMove(); ms == nil || *ms != (time.Hour+59*time.Minute+59*time.Second).Milliseconds() {
		t.Errorf("the Sunday move took %v ms, want 7199000", ms)
	}
	if ms := week.Class[1].MSPerMove(); ms == nil || *ms != 2000 {
		t.Errorf("the Monday move took %v ms, want 2000", ms)
	}
	for _, st := range week.Students {
		want := [2]int{}
		if st.StudentID == sunday {
			want[0]++
		}
		if st.StudentID == monday {
			want[1]++
		}
		if st.Buckets[0].Moves != want[0] || st.Buckets[1].Moves != want[1] || st.Buckets[0].Played != 1 {
			t.Errorf("%s by week: %+v, want moves %v", st.Name, st.Buckets, want)
		}
	}

	day, err := c.master.ClassroomProgress(c.ctx, c.class.ID, play.ProgressAsk{Bucket: play.BucketDay,
		From: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC), To: time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	if len(day.Class) != 2 || day.Class[0].Played != 2 || day.Class[0].Moves != 1 || day.Class[1].Moves != 1 {
		t.Errorf("class by day: %+v", day.Class)
	}

	for _, bad := range []struct {
		ask  play.ProgressAsk
		code string
	}{
		{play.ProgressAsk{Bucket: "month"}, "invalid_bucket"},
		{play.ProgressAsk{Bucket: play.BucketDay, From: time.Date(2026, 3, 3, 0, 0, 0, 0, time.UTC), To: time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)}, "invalid_progress_range"},
		{play.ProgressAsk{Bucket: play.BucketDay, From: time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC), To: time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)}, "progress_range_too_long"},
		{play.ProgressAsk{Bucket: play.BucketWeek, From: time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC)}, "progress_range_too_long"},
		{play.ProgressAsk{Bucket: play.BucketWeek, StudentID: "00000000-0000-0000-0000-000000000001"}, "unknown_student"},
	} {
		if _, err := c.master.ClassroomProgress(c.ctx, c.class.ID, bad.ask); domain.ErrorCode(err) != bad.code {
			t.Errorf("%+v: %v, want %s", bad.ask, err, bad.code)
		}
	}
	// 366 days by day is the most
	if _, err := c.master.ClassroomProgress(c.ctx, c.class.ID, play.ProgressAsk{Bucket: play.BucketDay,
		From: time.Date(2025, 3, 2, 0, 0, 0, 0, time.UTC), To: time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)}); err != nil {
		t.Errorf("366 days: %v", err)
	}
}

// The worker reviews only when nothing else is due: with a computer player due and a game queued
// for review, a pass moves the computer player, and the next pass takes the review off the queue;
// then there is nothing to do.
func TestWorkerReviewsWhenNothingElseIsDue(t *testing.T) {
	t.Parallel()
	c := newProgressClass(t, "Ada", "Bo")
	queued, err := c.master.Create(c.ctx, play.NewGame{Kind: "primed", Students: c.ids}, c.teacher, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.db.Pool.Exec(c.ctx, `INSERT INTO review_due (game_id, classroom_id, due_at) VALUES ($1, $2, $3)`,
		queued.Game.ID, c.class.ID, c.clock.Now()); err != nil {
		t.Fatal(err)
	}
	botGame, err := c.master.Create(c.ctx, play.NewGame{Kind: "primed", Students: c.ids[:1], Bots: []play.BotSeat{{Seat: 0, Level: domain.LevelRandom}}}, c.teacher, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Ada first when the deal says so, until the computer player is due (a draw of hers may be
	// followed by her play or keep).
	for range 10 {
		g, err := c.master.Load(c.ctx, botGame.Game.ID)
		if err != nil {
			t.Fatal(err)
		}
		if g.Seats[g.State.Status().ToAct[0]].Bot != "" {
			break
		}
		c.act(botGame.Game.ID)
	}
	c.clock.Advance(time.Minute)
	inQueue := func() int {
		var n int
		if err := c.db.Pool.QueryRow(c.ctx, `SELECT count(*) FROM review_due`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	g, err := c.master.Load(c.ctx, botGame.Game.ID)
	if err != nil || g.Seats[g.State.Status().ToAct[0]].Bot == "" {
		t.Fatalf("the computer player is not to act: %v", err)
	}
	if acted, err := c.master.ActForDueGame(c.ctx); !acted || err != nil || inQueue() != 1 {
		t.Fatalf("first pass: acted %v, %v, %d queued; want the computer player's move first", acted, err, inQueue())
	}
	if g2, err := c.master.Load(c.ctx, botGame.Game.ID); err != nil || g2.Version <= g.Version {
		t.Fatalf("the computer player did not move: %v", err)
	}
	for range 10 { // the computer player may move again (a draw, then a play)
		if inQueue() == 0 {
			break
		}
		if acted, err := c.master.ActForDueGame(c.ctx); !acted || err != nil {
			t.Fatalf("a pass: acted %v, %v", acted, err)
		}
	}
	if n := inQueue(); n != 0 {
		t.Fatalf("%d games still queued after the computer player's moves", n)
	}
	if acted, err := c.master.ActForDueGame(c.ctx); acted || err != nil {
		t.Errorf("a pass with nothing due: acted %v, %v", acted, err)
	}
}
