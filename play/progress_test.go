package play_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
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
	rows, err := db.Pool.Query(context.Background(), `SELECT format('%s %s %s played=%s finished=%s won=%s hints=%s moves=%s ms=%s missed=%s',
		classroom_id, day, student_id, games_played, games_finished, games_won, hints, moves, move_ms, missed)
		FROM progress_days WHERE games_played + games_finished + games_won + hints + moves + move_ms + missed > 0
		ORDER BY classroom_id, day, student_id`)
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
// days with computer players, hints, resignations and unfinished games.
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
			kept := progressRows(t, c.db)
			if len(kept) == 0 {
				t.Fatal("no progress kept")
			}
			if _, err := c.db.Pool.Exec(c.ctx, `SELECT progress_recount()`); err != nil {
				t.Fatal(err)
			}
			if recount := progressRows(t, c.db); !reflect.DeepEqual(kept, recount) {
				t.Errorf("kept:\n%v\nrecounted from history:\n%v", kept, recount)
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
