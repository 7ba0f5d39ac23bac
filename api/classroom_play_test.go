package api_test

import (
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"slices"
	"testing"
	"time"

	"primegames.dev/client"
	"primegames/api/apitest"
	"primegames/domain/games"
)

// The classroom end to end: a teacher sets up a class of six, batch-creates Primed games in pairs
// and a Prime Climb game for three of them, the students play every game to the end with their own
// tokens (legal actions picked with a seeded PRNG, and a few deliberate mistakes), and the teacher
// reviews: the games list with its filters and pagination, a game's full-information view, history
// and replay step, the refused attempts, and the statistics as JSON and CSV. Every number the
// statistics report is counted independently here, from the actions sent and the responses got.

// crCounts is what one student (or the class) did, as counted by the test.
type crCounts struct {
	played, finished, won int
	primed, climb         map[string]int
	attempts              map[string][]string // code → refusal sentences, oldest first
	// mistakes counts the refusals' values by kind and figure: mistakes["primed"]["not_prime_totals"]["21"].
	mistakes map[string]map[string]map[string]int
}

func newCounts() *crCounts {
	return &crCounts{primed: map[string]int{}, climb: map[string]int{}, attempts: map[string][]string{},
		mistakes: map[string]map[string]map[string]int{}}
}

// mistake counts one refusal the statistics read as a mistake, as the test knows it from what it sent.
func (c *crCounts) mistake(kind, figure, value string, n int) {
	if c.mistakes[kind] == nil {
		c.mistakes[kind] = map[string]map[string]int{}
	}
	if c.mistakes[kind][figure] == nil {
		c.mistakes[kind][figure] = map[string]int{}
	}
	c.mistakes[kind][figure][value] += n
}

// crAttempt is one refused action as sent and answered.
type crAttempt struct {
	seat    int
	student string
	version int64
	action  json.RawMessage
	code    string
	detail  string
	facts   json.RawMessage
}

// crSnapshot is the teacher's view of a game after one history entry, as seen while it ran.
type crSnapshot struct {
	seq   int64
	state json.RawMessage
}

type review struct {
	t       *testing.T
	h       *gamesHarness
	class   classroomFixture
	names   []string
	nameOf  map[string]string // student id → name
	counts  map[string]*crCounts
	seatIDs map[string][]string    // game id → student id by seat
	played  []string               // game ids in the order they were played
	refused map[string][]crAttempt // game id → refused actions, in order
	rng     *rand.Rand
}

func (r *review) teacher() []string { return bearer(r.class.teacher) }

// get asks path with the teacher token and wants 200.
func (r *review) get(path string, v any, headers ...string) *apitest.Response {
	r.t.Helper()
	resp := r.h.Get(path, append(r.teacher(), headers...)...)
	if resp.StatusCode != http.StatusOK {
		r.t.Fatalf("GET %s as the teacher = %d: %s", path, resp.StatusCode, resp.Body)
	}
	if v != nil {
		resp.JSON(r.t, v)
	}
	return resp
}

func TestClassroomReviewEndToEnd(t *testing.T) {
	t.Parallel()
	began := time.Now()
	h := newGamesHarness(t)
	// A name with a comma and quotes checks the CSV's quoting.
	names := []string{"Ada", "Ben", "Cy", `Dee "DJ", Jr.`, "Eve", "Fay"}
	r := &review{
		t: t, h: h, class: h.newClassroom(t, "Class 6C", names...), names: names,
		nameOf: map[string]string{}, counts: map[string]*crCounts{}, seatIDs: map[string][]string{},
		refused: map[string][]crAttempt{}, rng: rand.New(rand.NewPCG(6, 2026)),
	}
	for _, n := range names {
		st := r.class.students[n]
		r.nameOf[st.id] = n
		r.counts[st.id] = newCounts()
	}

	// The teacher's list of students: all six, by name.
	var list client.StudentList
	r.get("/v1/classrooms/"+r.class.id+"/students", &list)
	if len(list.Items) != len(names) {
		t.Fatalf("students list has %d students, want %d", len(list.Items), len(names))
	}
	for i, st := range list.Items {
		if st.Name != names[i] || st.Id.String() != r.class.students[names[i]].id || st.ClassroomId.String() != r.class.id {
			t.Errorf("students[%d] = %+v, want %s (%s) of classroom %s", i, st, names[i], r.class.students[names[i]].id, r.class.id)
		}
	}

	// Primed in pairs for the whole class: three games, each student in exactly one.
	resp := h.Post("/v1/classrooms/"+r.class.id+"/games",
		map[string]any{"game": "primed", "group_size": 2, "options": map[string]any{"rounds": 2}}, r.teacher()...)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("POST classroom games = %d: %s", resp.StatusCode, resp.Body)
	}
	var batch client.ClassroomGames
	resp.JSON(t, &batch)
	if len(batch.Games) != 3 {
		t.Fatalf("six students in pairs made %d games, want 3", len(batch.Games))
	}
	seen := map[string]int{}
	for _, g := range batch.Games {
		var options client.PrimedOptions
		if err := json.Unmarshal(g.Options, &options); err != nil || options.Rounds == nil {
			t.Fatalf("batch game %s: options %s", g.Id.String(), g.Options)
		}
		if g.Game != "primed" || g.Status != "active" || len(g.Seats) != 2 || *options.Rounds != 2 || !g.You.Teacher {
			t.Errorf("batch game %s: game %q status %q, %d seats, rounds %d, teacher %v", g.Id.String(), g.Game, g.Status, len(g.Seats), *options.Rounds, g.You.Teacher)
		}
		for _, s := range g.Seats {
			if s.StudentId == nil {
				t.Fatalf("batch game %s seat %d has no student", g.Id.String(), s.Seat)
			}
			seen[s.StudentId.String()]++
			if r.nameOf[s.StudentId.String()] != s.Name {
				t.Errorf("batch game %s seat %d: name %q for student %s (%s)", g.Id.String(), s.Seat, s.Name, s.StudentId.String(), r.nameOf[s.StudentId.String()])
			}
		}
	}
	for _, n := range names {
		if id := r.class.students[n].id; seen[id] != 1 {
			t.Errorf("%s plays in %d of the batch games, want exactly 1", n, seen[id])
		}
	}

	// A group Prime Climb game for three chosen students, one from each pair, created by the teacher.
	var climbers []map[string]string
	for _, g := range batch.Games {
		climbers = append(climbers, map[string]string{"student_id": g.Seats[1].StudentId.String()})
	}
	resp = h.Post("/v1/games", map[string]any{"game": "prime-climb", "players": climbers}, r.teacher()...)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("teacher creates a Prime Climb game = %d: %s", resp.StatusCode, resp.Body)
	}
	var pc client.CreatedGame
	resp.JSON(t, &pc)
	if len(pc.Seats) != 0 || len(pc.Game.Seats) != 3 || pc.Game.Status != "active" {
		t.Fatalf("Prime Climb classroom game: %d seat tokens, %d seats, status %s", len(pc.Seats), len(pc.Game.Seats), pc.Game.Status)
	}
	for i, s := range pc.Game.Seats {
		if s.StudentId == nil || s.StudentId.String() != climbers[i]["student_id"] {
			t.Fatalf("Prime Climb seat %d is student %v, want %s", i, s.StudentId, climbers[i]["student_id"])
		}
	}
	all := append(slices.Clone(batch.Games), pc.Game)

	// Before anyone plays: four active games, none finished.
	r.checkListed("status=active", all, nil)
	r.checkListed("status=finished", nil, nil)

	// Play every game to the end with the students' tokens.
	var snapshots []crSnapshot
	for i, g := range batch.Games {
		tb := r.table(g, uint64(10+i))
		var snap *[]crSnapshot
		if i == 0 {
			snap = &snapshots
		}
		r.playPrimed(tb, i == 0, snap)
		r.finish(tb)
	}
	tb := r.table(pc.Game, 99)
	climbSnaps := r.playClimb(tb)
	r.finish(tb)
	t.Logf("games played in %v", time.Since(began).Round(time.Millisecond))

	// Review as the teacher.
	final := map[string]client.Game{}
	for _, g := range all {
		var fg client.Game
		r.get("/v1/games/"+g.Id.String(), &fg)
		if fg.Status != "finished" || !fg.You.Teacher || fg.You.Seat != nil {
			t.Errorf("game %s as the teacher: status %s, you %+v", g.Id.String(), fg.Status, fg.You)
		}
		final[g.Id.String()] = fg
	}
	r.checkLists(batch.Games, pc.Game, final)
	r.checkReplay(batch.Games[0].Id.String(), snapshots, true)
	r.checkReplay(pc.Game.Id.String(), climbSnaps, false)
	for _, g := range all {
		r.checkAttempts(g.Id.String(), r.class.teacher)
		// Once the game is over, its players may read its refused actions too.
		r.checkAttempts(g.Id.String(), r.class.students[r.nameOf[g.Seats[0].StudentId.String()]].token)
	}
	stats, class := r.checkStats()
	r.checkCSV(stats, class)
	r.checkStudentLists(all)
	t.Logf("whole test in %v", time.Since(began).Round(time.Millisecond))
}

// table makes a scripted-client table (play_helpers_test.go) of a classroom game: seat tokens are
// the students' tokens.
func (r *review) table(g client.Game, seed uint64) *table {
	r.t.Helper()
	tb := &table{t: r.t, s: r.h.Server, api: r.h.Client(), db: r.h.db, kinds: games.All(), kind: string(g.Game), id: g.Id.String(), rng: rand.New(rand.NewPCG(seed, 0x5eed)),
		version: g.Version, posted: []json.RawMessage{nil}}
	for _, s := range g.Seats {
		tb.tokens = append(tb.tokens, r.class.students[r.nameOf[s.StudentId.String()]].token)
		r.seatIDs[g.Id.String()] = append(r.seatIDs[g.Id.String()], s.StudentId.String())
	}
	r.played = append(r.played, g.Id.String())
	tb.game = tb.get(tb.tokens[0])
	var entries wirePage
	r.get(tb.path("/actions"), &entries)
	tb.seq = int64(len(entries.Items)) - 1
	if tb.seq != 0 {
		r.t.Fatalf("a new game's history has %d entries, want 1 (the start)", len(entries.Items))
	}
	return tb
}

func (r *review) studentAt(tb *table, seat int) *crCounts { return r.counts[r.seatIDs[tb.id][seat]] }

// refuse sends an action that must be refused with status and code, records it, and checks that it
// changed nothing.
func (r *review) refuse(tb *table, seat int, action string, status int, code string) {
	r.t.Helper()
	resp := tb.s.Post(tb.path("/actions"), []byte(action), auth(tb.tokens[seat])...)
	if resp.StatusCode != status {
		r.t.Fatalf("seat %d sends %s = %d, want %d %s: %s", seat, action, resp.StatusCode, status, code, resp.Body)
	}
	p := resp.Problem(r.t)
	if p.Code != code {
		r.t.Fatalf("seat %d sends %s: code %q, want %q: %s", seat, action, p.Code, code, resp.Body)
	}
	r.refused[tb.id] = append(r.refused[tb.id], crAttempt{seat: seat, student: r.seatIDs[tb.id][seat], version: tb.version,
		action: json.RawMessage(action), code: code, detail: p.Detail, facts: p.Facts})
	if len(p.Facts) == 0 {
		r.t.Errorf("seat %d sends %s: refused %s without facts: %s", seat, action, code, resp.Body)
	}
	st := r.studentAt(tb, seat)
	st.attempts[code] = append(st.attempts[code], p.Detail)
	tb.get(tb.tokens[seat]) // the version is unchanged
}

// finish counts a game that is over: played and finished by each seat, won by the winners.
func (r *review) finish(tb *table) {
	t := r.t
	t.Helper()
	if tb.game.Status != "finished" || len(tb.game.Winners) == 0 {
		t.Fatalf("game %s: status %s winners %v", tb.id, tb.game.Status, tb.game.Winners)
	}
	for seat := range tb.tokens {
		st := r.studentAt(tb, seat)
		st.played++
		st.finished++
		if slices.Contains(tb.game.Winners, seat) {
			st.won++
		}
	}
	var sc client.Scores
	r.get(tb.path("/scores"), &sc)
	if sc.Status != "finished" || !slices.Equal(sc.Winners, tb.game.Winners) {
		t.Errorf("game %s scores: status %s winners %v, the last action's response said %v", tb.id, sc.Status, sc.Winners, tb.game.Winners)
	}
	// The full history, as the teacher reads it page by page, holds every accepted action as sent.
	items := tb.history(r.class.teacher, 25)
	if int64(len(items)) != tb.seq+1 {
		t.Fatalf("game %s: the teacher's history has %d entries, want %d", tb.id, len(items), tb.seq+1)
	}
	for i, raw := range items {
		var e client.HistoryEntry
		if err := json.Unmarshal(raw, &e); err != nil {
			t.Fatal(err)
		}
		if e.Seq != int64(i) || (i > 0 && !jsonEqual(e.Action, tb.posted[i])) || e.Random == nil {
			t.Errorf("game %s history entry %d: seq %d action %s random %v; posted %s", tb.id, i, e.Seq, e.Action, e.Random, tb.posted[i])
		}
	}
	tb.checkFold()
}
