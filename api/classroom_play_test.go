package api_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"primegames/api/apitest"
)

// The classroom end to end: a teacher sets up a class of six, batch-creates Primed games in pairs
// and a Prime Climb game for three of them, the students play every game to the end with their own
// tokens (legal actions picked with a seeded PRNG, and a few deliberate mistakes), and the teacher
// reviews: the games list with its filters and pagination, a game's full-information view, history
// and replay step, the refused attempts, and the statistics as JSON and CSV. Every number the
// statistics report is counted independently here, from the actions sent and the responses got.

// crGame is the Game schema as the review needs it.
type crGame struct {
	ID      string `json:"id"`
	Game    string `json:"game"`
	Status  string `json:"status"`
	Version int64  `json:"version"`
	Options struct {
		Rounds int `json:"rounds"`
	} `json:"options"`
	Seats []struct {
		Seat      int     `json:"seat"`
		Name      string  `json:"name"`
		StudentID *string `json:"student_id"`
	} `json:"seats"`
	You struct {
		Seat    *int `json:"seat"`
		Teacher bool `json:"teacher"`
	} `json:"you"`
	Winners   []int           `json:"winners"`
	State     json.RawMessage `json:"state"`
	CreatedAt time.Time       `json:"created_at"`
}

type crSummary struct {
	ID        string    `json:"id"`
	Game      string    `json:"game"`
	Status    string    `json:"status"`
	Players   []string  `json:"players"`
	Winners   []int     `json:"winners"`
	CreatedAt time.Time `json:"created_at"`
}

type crTotals struct {
	GamesPlayed   int                    `json:"games_played"`
	GamesFinished int                    `json:"games_finished"`
	GamesWon      int                    `json:"games_won"`
	Games         map[string]crKindStats `json:"games"`
	Attempts      []struct {
		Code     string   `json:"code"`
		Count    int      `json:"count"`
		Examples []string `json:"examples"`
	} `json:"attempts"`
}

type crKindStats struct {
	Counts   map[string]int     `json:"counts"`
	Measures map[string]float64 `json:"measures"`
}

type crStats struct {
	ClassroomID string `json:"classroom_id"`
	Students    []struct {
		StudentID string `json:"student_id"`
		Name      string `json:"name"`
		crTotals
	} `json:"students"`
	Class crTotals `json:"class"`
}

// crCounts is what one student (or the class) did, as counted by the test.
type crCounts struct {
	played, finished, won int
	primed, climb         map[string]int
	attempts              map[string][]string // code → refusal sentences, oldest first
}

func newCounts() *crCounts {
	return &crCounts{primed: map[string]int{}, climb: map[string]int{}, attempts: map[string][]string{}}
}

// crAttempt is one refused action as sent and answered.
type crAttempt struct {
	seat    int
	student string
	version int64
	action  json.RawMessage
	code    string
	detail  string
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
	var list struct {
		Items []struct {
			ID          string `json:"id"`
			ClassroomID string `json:"classroom_id"`
			Name        string `json:"name"`
		} `json:"items"`
	}
	r.get("/v1/classrooms/"+r.class.id+"/students", &list)
	if len(list.Items) != len(names) {
		t.Fatalf("students list has %d students, want %d", len(list.Items), len(names))
	}
	for i, st := range list.Items {
		if st.Name != names[i] || st.ID != r.class.students[names[i]].id || st.ClassroomID != r.class.id {
			t.Errorf("students[%d] = %+v, want %s (%s) of classroom %s", i, st, names[i], r.class.students[names[i]].id, r.class.id)
		}
	}

	// Primed in pairs for the whole class: three games, each student in exactly one.
	resp := h.Post("/v1/classrooms/"+r.class.id+"/games",
		map[string]any{"game": "primed", "group_size": 2, "options": map[string]any{"rounds": 2}}, r.teacher()...)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("POST classroom games = %d: %s", resp.StatusCode, resp.Body)
	}
	var batch struct {
		Games []crGame `json:"games"`
	}
	resp.JSON(t, &batch)
	if len(batch.Games) != 3 {
		t.Fatalf("six students in pairs made %d games, want 3", len(batch.Games))
	}
	seen := map[string]int{}
	for _, g := range batch.Games {
		if g.Game != "primed" || g.Status != "active" || len(g.Seats) != 2 || g.Options.Rounds != 2 || !g.You.Teacher {
			t.Errorf("batch game %s: game %q status %q, %d seats, rounds %d, teacher %v", g.ID, g.Game, g.Status, len(g.Seats), g.Options.Rounds, g.You.Teacher)
		}
		for _, s := range g.Seats {
			if s.StudentID == nil {
				t.Fatalf("batch game %s seat %d has no student", g.ID, s.Seat)
			}
			seen[*s.StudentID]++
			if r.nameOf[*s.StudentID] != s.Name {
				t.Errorf("batch game %s seat %d: name %q for student %s (%s)", g.ID, s.Seat, s.Name, *s.StudentID, r.nameOf[*s.StudentID])
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
		climbers = append(climbers, map[string]string{"student_id": *g.Seats[1].StudentID})
	}
	resp = h.Post("/v1/games", map[string]any{"game": "prime-climb", "players": climbers}, r.teacher()...)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("teacher creates a Prime Climb game = %d: %s", resp.StatusCode, resp.Body)
	}
	var pc struct {
		Game  crGame      `json:"game"`
		Seats []seatToken `json:"seats"`
	}
	resp.JSON(t, &pc)
	if len(pc.Seats) != 0 || len(pc.Game.Seats) != 3 || pc.Game.Status != "active" {
		t.Fatalf("Prime Climb classroom game: %d seat tokens, %d seats, status %s", len(pc.Seats), len(pc.Game.Seats), pc.Game.Status)
	}
	for i, s := range pc.Game.Seats {
		if s.StudentID == nil || *s.StudentID != climbers[i]["student_id"] {
			t.Fatalf("Prime Climb seat %d is student %v, want %s", i, s.StudentID, climbers[i]["student_id"])
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
	final := map[string]crGame{}
	for _, g := range all {
		var fg crGame
		r.get("/v1/games/"+g.ID, &fg)
		if fg.Status != "finished" || !fg.You.Teacher || fg.You.Seat != nil {
			t.Errorf("game %s as the teacher: status %s, you %+v", g.ID, fg.Status, fg.You)
		}
		final[g.ID] = fg
	}
	r.checkLists(batch.Games, pc.Game, final)
	r.checkReplay(batch.Games[0].ID, snapshots, true)
	r.checkReplay(pc.Game.ID, climbSnaps, false)
	for _, g := range all {
		r.checkAttempts(g.ID, r.class.teacher)
		// Once the game is over, its players may read its refused actions too.
		r.checkAttempts(g.ID, r.class.students[r.nameOf[*g.Seats[0].StudentID]].token)
	}
	stats := r.checkStats()
	r.checkCSV(stats)
	r.checkStudentLists(all)
	t.Logf("whole test in %v", time.Since(began).Round(time.Millisecond))
}

// table makes a scripted-client table (play_helpers_test.go) of a classroom game: seat tokens are
// the students' tokens.
func (r *review) table(g crGame, seed uint64) *table {
	r.t.Helper()
	tb := &table{t: r.t, s: r.h.Server, db: r.h.db, kind: g.Game, id: g.ID, rng: rand.New(rand.NewPCG(seed, 0x5eed)),
		version: g.Version, posted: []json.RawMessage{nil}}
	for _, s := range g.Seats {
		tb.tokens = append(tb.tokens, r.class.students[r.nameOf[*s.StudentID]].token)
		r.seatIDs[g.ID] = append(r.seatIDs[g.ID], *s.StudentID)
	}
	r.played = append(r.played, g.ID)
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
		action: json.RawMessage(action), code: code, detail: p.Detail})
	st := r.studentAt(tb, seat)
	st.attempts[code] = append(st.attempts[code], p.Detail)
	tb.get(tb.tokens[seat]) // the version is unchanged
}

func isPrimeNumber(n int) bool {
	if n < 2 {
		return false
	}
	for d := 2; d*d <= n; d++ {
		if n%d == 0 {
			return false
		}
	}
	return true
}

type crPrimedOutcome struct {
	Played *struct {
		Seat  int   `json:"seat"`
		Cards []int `json:"cards"`
	} `json:"played"`
	Drew *struct {
		Seat int `json:"seat"`
	} `json:"drew"`
	Passed *struct {
		Seat int `json:"seat"`
	} `json:"passed"`
	RoundEnded *struct {
		Scores  []int `json:"scores"`
		WentOut *int  `json:"went_out"`
	} `json:"round_ended"`
	GameEnded *struct {
		Totals []int `json:"totals"`
	} `json:"game_ended"`
}

// playPrimed plays a Primed game to its end. Along the way it sends refused actions: plays whose sum
// is not prime (twice when many), a draw while a play exists, and an action out of turn. With snaps,
// it keeps the teacher's view after every entry and checks the teacher sees every hand and the
// students see only their own.
func (r *review) playPrimed(tb *table, many bool, snaps *[]crSnapshot) {
	t := r.t
	t.Helper()
	player := greedyPlayer(t, "primed")
	notPrime, wantNotPrime := 0, 1
	if many {
		wantNotPrime = 2
	}
	drawRefused, outOfTurn := false, false
	roundScores := make([]int, len(tb.tokens))
	for n := 0; tb.game.Status == "active"; n++ {
		if n >= 3000 {
			t.Fatalf("Primed game not over after %d actions", n)
		}
		seat := tb.toAct()
		legal := tb.legal(seat)
		hasPlay := slices.ContainsFunc(legal, func(raw json.RawMessage) bool {
			var la primedLegal
			return json.Unmarshal(raw, &la) == nil && bytes.Contains(la.Action, []byte(`"play"`))
		})
		phase := tb.game.Turn.Phase
		switch {
		case phase == "play" && notPrime < wantNotPrime && n >= 2+5*notPrime:
			var v primedView
			if err := json.Unmarshal(tb.get(tb.tokens[seat]).State, &v); err != nil {
				t.Fatal(err)
			}
			top := v.PrimedPile[len(v.PrimedPile)-1]
			for _, c := range *v.Hands[seat].Cards {
				if !isPrimeNumber(top + c) {
					r.refuse(tb, seat, fmt.Sprintf(`{"type":"play","cards":[%d]}`, c), http.StatusUnprocessableEntity, "not_prime")
					notPrime++
					break
				}
			}
		case phase == "play" && hasPlay && !drawRefused && n >= 4:
			r.refuse(tb, seat, `{"type":"draw"}`, http.StatusUnprocessableEntity, "play_available")
			drawRefused = true
		case !outOfTurn && n >= 7:
			r.refuse(tb, (seat+1)%len(tb.tokens), `{"type":"draw"}`, http.StatusConflict, "not_your_turn")
			outOfTurn = true
		}

		var pick primedLegal
		choose(t, player, legal, tb.rng, &pick)
		e, g := tb.act(seat, pick.Action)
		r.countPrimed(tb, seat, pick.Action, e.Outcome, roundScores)

		if snaps != nil && n == 12 && g.Status == "active" {
			r.checkTeacherHistory(tb)
		}
		if snaps != nil {
			resp := r.get(tb.path(""), nil)
			var fg crGame
			resp.JSON(t, &fg)
			*snaps = append(*snaps, crSnapshot{seq: e.Seq, state: fg.State})
			if g.Status == "active" {
				var v primedView
				if err := json.Unmarshal(fg.State, &v); err != nil {
					t.Fatal(err)
				}
				for _, hand := range v.Hands {
					if hand.Cards == nil || len(*hand.Cards) != hand.Size {
						t.Errorf("seq %d: the teacher's view does not show seat %d's hand (size %d)", e.Seq, hand.Seat, hand.Size)
					}
				}
				if !field(t, fg.State, "draw_pile", nil) && v.DrawPileSize > 0 {
					t.Errorf("seq %d: the teacher's view does not show the draw pile", e.Seq)
				}
				for s, token := range tb.tokens {
					if leaks := hiddenLeaks(s, r.h.Get(tb.path(""), bearer(token)...).Body); len(leaks) > 0 {
						t.Errorf("seq %d: seat %d's view shows hidden cards: %v", e.Seq, s, leaks)
					}
				}
			}
		}
	}
	if notPrime != wantNotPrime || !drawRefused || !outOfTurn {
		t.Errorf("game %s: refused %d not_prime plays (want %d), draw refused %v, out of turn %v", tb.id, notPrime, wantNotPrime, drawRefused, outOfTurn)
	}
}

// checkTeacherHistory reads a running game's history as the teacher: every hand dealt and every card
// drawn is shown.
func (r *review) checkTeacherHistory(tb *table) {
	t := r.t
	t.Helper()
	items := tb.history(r.class.teacher, 50)
	if int64(len(items)) != tb.seq+1 {
		t.Fatalf("the teacher's history has %d entries, want %d", len(items), tb.seq+1)
	}
	dealt, drawn := 0, 0
	for _, raw := range items {
		var e wireEntry
		if err := json.Unmarshal(raw, &e); err != nil {
			t.Fatal(err)
		}
		var out primedOutcome
		if err := json.Unmarshal(e.Outcome, &out); err != nil {
			t.Fatal(err)
		}
		if out.Dealt != nil {
			for seat, hand := range out.Dealt.Hands {
				dealt++
				if hand == nil || len(*hand) != out.Dealt.HandSizes[seat] {
					t.Errorf("entry %d: the teacher's history hides the hand dealt to seat %d", e.Seq, seat)
				}
			}
		}
		if out.Drew != nil {
			drawn++
			if out.Drew.Card == nil {
				t.Errorf("entry %d: the teacher's history hides the card seat %d drew", e.Seq, out.Drew.Seat)
			}
		}
	}
	if dealt != len(tb.tokens) {
		t.Errorf("the teacher's history holds %d dealt hands, want %d", dealt, len(tb.tokens))
	}
	t.Logf("teacher's history at entry %d: %d hands dealt, %d cards drawn, all shown", tb.seq, dealt, drawn)
}

// countPrimed adds what one accepted Primed action did: plays and cards from the action sent, the
// rest from the outcome in the response.
func (r *review) countPrimed(tb *table, seat int, action json.RawMessage, raw json.RawMessage, roundScores []int) {
	t := r.t
	t.Helper()
	var a struct {
		Type  string `json:"type"`
		Cards []int  `json:"cards"`
	}
	if err := json.Unmarshal(action, &a); err != nil {
		t.Fatal(err)
	}
	var out crPrimedOutcome
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	me := r.studentAt(tb, seat)
	if a.Type == "play" {
		me.primed["plays"]++
		me.primed["cards_played"] += len(a.Cards)
		if out.Played == nil || out.Played.Seat != seat || !slices.Equal(out.Played.Cards, a.Cards) {
			t.Errorf("play %v by seat %d: outcome played %+v", a.Cards, seat, out.Played)
		}
	}
	if out.Drew != nil {
		r.studentAt(tb, out.Drew.Seat).primed["draws"]++
	}
	if out.Passed != nil {
		r.studentAt(tb, out.Passed.Seat).primed["passes"]++
	}
	if re := out.RoundEnded; re != nil {
		for s, score := range re.Scores {
			st := r.studentAt(tb, s)
			st.primed["rounds"]++
			st.primed["round_score_total"] += score
			roundScores[s] += score
		}
		if re.WentOut != nil {
			r.studentAt(tb, *re.WentOut).primed["went_out"]++
		}
	}
	if out.GameEnded != nil && !slices.Equal(out.GameEnded.Totals, roundScores) {
		t.Errorf("game %s ended with totals %v; its round scores add up to %v", tb.id, out.GameEnded.Totals, roundScores)
	}
}

type crClimbView struct {
	Uses    []int `json:"uses"`
	Cursed  bool  `json:"cursed"`
	Players []struct {
		Pawns [2]int `json:"pawns"`
	} `json:"players"`
}

type crClimbStep struct {
	Die        int    `json:"die"`
	Op         string `json:"op"`
	Card       string `json:"card"`
	TargetSeat *int   `json:"target_seat"`
}

type crClimbOutcome struct {
	Action string `json:"action"`
	Bumps  []struct {
		Seat int `json:"seat"`
	} `json:"bumps"`
	Draw *struct {
		Card  *string `json:"card"`
		Bumps []struct {
			Seat int `json:"seat"`
		} `json:"bumps"`
	} `json:"draw"`
}

// illegalClimbStep finds a die step that breaks the board for the mover's view: past 101, below 0,
// or a division that is not whole.
func illegalClimbStep(v crClimbView, seat int) (string, bool) {
	for _, d := range v.Uses {
		for pawn, at := range v.Players[seat].Pawns {
			if at == 101 {
				continue
			}
			switch {
			case !v.Cursed && at*d > 101:
				return fmt.Sprintf(`{"type":"move","steps":[{"die":%d,"pawn":%d,"op":"multiply"}]}`, d, pawn), true
			case at-d < 0:
				return fmt.Sprintf(`{"type":"move","steps":[{"die":%d,"pawn":%d,"op":"subtract"}]}`, d, pawn), true
			case at%d != 0:
				return fmt.Sprintf(`{"type":"move","steps":[{"die":%d,"pawn":%d,"op":"divide"}]}`, d, pawn), true
			}
		}
	}
	return "", false
}

// playClimb plays the Prime Climb game to its end with a move before rolling, an action out of turn
// and two impossible steps along the way; it returns the teacher's view every 40 entries.
func (r *review) playClimb(tb *table) []crSnapshot {
	t := r.t
	t.Helper()
	var snaps []crSnapshot
	player := greedyPlayer(t, "prime-climb")
	wrongPhase, outOfTurn, badSteps := false, false, 0
	for n := 0; tb.game.Status == "active"; n++ {
		if n >= 3000 {
			t.Fatalf("Prime Climb game not over after %d actions", n)
		}
		seat := tb.toAct()
		phase := tb.game.Turn.Phase
		switch {
		case phase == "roll" && !wrongPhase && n >= 3:
			r.refuse(tb, seat, `{"type":"move","steps":[{"die":2,"pawn":0,"op":"add"}]}`, http.StatusUnprocessableEntity, "wrong_phase")
			wrongPhase = true
		case phase == "roll" && !outOfTurn && n >= 8:
			r.refuse(tb, (seat+1)%len(tb.tokens), `{"type":"roll"}`, http.StatusConflict, "not_your_turn")
			outOfTurn = true
		case phase == "move" && badSteps < 2 && n >= 5+6*badSteps:
			var v crClimbView
			if err := json.Unmarshal(tb.get(tb.tokens[seat]).State, &v); err != nil {
				t.Fatal(err)
			}
			if action, ok := illegalClimbStep(v, seat); ok {
				r.refuse(tb, seat, action, http.StatusUnprocessableEntity, "illegal_step")
				badSteps++
			}
		}
		legal := tb.legal(seat)
		if len(legal) == 0 {
			t.Fatalf("seq %d: seat %d is to act but has no legal action", tb.seq, seat)
		}
		var pick climbLegal
		choose(t, player, legal, tb.rng, &pick)
		e, _ := tb.act(seat, pick.Action)
		r.countClimb(tb, seat, pick.Action, e.Outcome)
		if e.Seq%40 == 0 {
			var fg crGame
			r.get(tb.path(""), &fg)
			if fg.Status == "active" && !field(t, fg.State, "deck", nil) {
				t.Errorf("seq %d: the teacher's Prime Climb view has no deck", e.Seq)
			}
			snaps = append(snaps, crSnapshot{seq: e.Seq, state: fg.State})
		}
	}
	if !wrongPhase || !outOfTurn || badSteps != 2 {
		t.Errorf("Prime Climb: move before rolling refused %v, out of turn %v, %d impossible steps (want 2)", wrongPhase, outOfTurn, badSteps)
	}
	return snaps
}

// countClimb adds what one accepted Prime Climb action did: turns, dice operations and keepers from
// the action sent; cards drawn and bumps from the outcome in the response.
func (r *review) countClimb(tb *table, seat int, action json.RawMessage, raw json.RawMessage) {
	t := r.t
	t.Helper()
	var a struct {
		Type       string        `json:"type"`
		Steps      []crClimbStep `json:"steps"`
		Card       string        `json:"card"`
		TargetSeat *int          `json:"target_seat"`
	}
	if err := json.Unmarshal(action, &a); err != nil {
		t.Fatal(err)
	}
	var out crClimbOutcome
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	me := r.studentAt(tb, seat)
	bump := func(victim int) {
		if victim == seat {
			me.climb["own_bumps"]++
			return
		}
		me.climb["bumps_given"]++
		r.studentAt(tb, victim).climb["bumps_taken"]++
	}
	keeper := func(st crClimbStep) {
		me.climb["keepers_played"]++
		switch st.Card {
		case "curse":
			r.studentAt(tb, *st.TargetSeat).climb["curses_received"]++
		case "send_to_start":
			bump(*st.TargetSeat)
		}
	}
	switch a.Type {
	case "move":
		me.climb["turns"]++
		for _, st := range a.Steps {
			if st.Op != "" {
				me.climb["op_"+st.Op]++
			} else {
				keeper(st)
			}
		}
		if out.Draw != nil && out.Draw.Card != nil {
			me.climb["cards_drawn"]++
		}
	case "keeper":
		keeper(crClimbStep{Card: a.Card, TargetSeat: a.TargetSeat})
	}
	for _, b := range out.Bumps {
		bump(b.Seat)
	}
	if out.Draw != nil {
		for _, b := range out.Draw.Bumps {
			bump(b.Seat)
		}
	}
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
	var sc struct {
		Status  string `json:"status"`
		Winners []int  `json:"winners"`
	}
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
		var e wireEntry
		if err := json.Unmarshal(raw, &e); err != nil {
			t.Fatal(err)
		}
		if e.Seq != int64(i) || (i > 0 && !jsonEqual(e.Action, tb.posted[i])) || e.Random == nil {
			t.Errorf("game %s history entry %d: seq %d action %s random %v; posted %s", tb.id, i, e.Seq, e.Action, e.Random, tb.posted[i])
		}
	}
	tb.checkFold()
}

// listed reads the classroom's games with query, walking every page.
func (r *review) listed(query string) []crSummary {
	r.t.Helper()
	var out []crSummary
	cursor := ""
	for pages := 0; ; pages++ {
		if pages > 20 {
			r.t.Fatalf("list %q does not end", query)
		}
		q, err := url.ParseQuery(query)
		if err != nil {
			r.t.Fatal(err)
		}
		if cursor != "" {
			q.Set("cursor", cursor)
		}
		var page struct {
			Items      []crSummary `json:"items"`
			NextCursor *string     `json:"next_cursor"`
		}
		r.get("/v1/classrooms/"+r.class.id+"/games?"+q.Encode(), &page)
		if limit, err := strconv.Atoi(q.Get("limit")); err == nil && len(page.Items) > limit {
			r.t.Errorf("list %q: a page of %d, more than the limit", query, len(page.Items))
		}
		out = append(out, page.Items...)
		if page.NextCursor == nil {
			return out
		}
		if len(page.Items) == 0 {
			r.t.Fatalf("list %q: an empty page with a next cursor", query)
		}
		cursor = *page.NextCursor
	}
}

// checkListed wants the list for query to hold exactly the games want (any order), and order to be
// its order when order is not nil.
func (r *review) checkListed(query string, want []crGame, order []string) []crSummary {
	r.t.Helper()
	got := r.listed(query)
	var gotIDs, wantIDs []string
	for _, g := range got {
		gotIDs = append(gotIDs, g.ID)
	}
	for _, g := range want {
		wantIDs = append(wantIDs, g.ID)
	}
	if order != nil && !slices.Equal(gotIDs, order) {
		r.t.Errorf("GET classroom games?%s = %v, want in this order %v", query, gotIDs, order)
	}
	slices.Sort(gotIDs)
	slices.Sort(wantIDs)
	if !slices.Equal(gotIDs, wantIDs) {
		r.t.Errorf("GET classroom games?%s = %v, want %v", query, gotIDs, wantIDs)
	}
	return got
}

func (r *review) checkLists(primed []crGame, climb crGame, final map[string]crGame) {
	t := r.t
	t.Helper()
	all := append(slices.Clone(primed), climb)
	// Newest first: (created_at, id) descending.
	order := slices.Clone(all)
	slices.SortFunc(order, func(a, b crGame) int {
		if c := b.CreatedAt.Compare(a.CreatedAt); c != 0 {
			return c
		}
		return strings.Compare(b.ID, a.ID)
	})
	var newest []string
	for _, g := range order {
		newest = append(newest, g.ID)
	}
	if newest[0] != climb.ID {
		t.Errorf("the Prime Climb game, created after the batch, is not the newest: %v", newest)
	}
	summaries := r.checkListed("", all, newest)
	for _, s := range summaries {
		f := final[s.ID]
		var players []string
		for _, seat := range f.Seats {
			players = append(players, seat.Name)
		}
		if s.Game != f.Game || s.Status != "finished" || !slices.Equal(s.Players, players) || !slices.Equal(s.Winners, f.Winners) || !s.CreatedAt.Equal(f.CreatedAt) {
			t.Errorf("list summary %+v; the game is %s %s players %v winners %v created %v", s, f.Game, f.Status, players, f.Winners, f.CreatedAt)
		}
	}
	// One at a time and three at a time, the cursor gives each game once, newest first.
	r.checkListed("limit=1", all, newest)
	r.checkListed("limit=3", all, newest)
	// Filters.
	r.checkListed("game=primed", primed, nil)
	r.checkListed("game=prime-climb", []crGame{climb}, nil)
	r.checkListed("status=finished", all, newest)
	r.checkListed("status=active", nil, nil)
	r.checkListed("game=primed&status=finished&limit=2", primed, nil)
	for _, n := range r.names {
		id := r.class.students[n].id
		var theirs []crGame
		for _, g := range all {
			if slices.Contains(r.seatIDs[g.ID], id) {
				theirs = append(theirs, g)
			}
		}
		r.checkListed("student="+id, theirs, nil)
	}
	// Date range: from is inclusive, to exclusive.
	at := func(tm time.Time) string { return tm.UTC().Format(time.RFC3339Nano) }
	batchAt := primed[0].CreatedAt
	for _, g := range primed {
		if g.CreatedAt.Before(batchAt) {
			batchAt = g.CreatedAt
		}
	}
	r.checkListed(url.Values{"from": {at(climb.CreatedAt)}}.Encode(), []crGame{climb}, nil)
	india := time.FixedZone("+05:30", 5*3600+1800) // the same instants written with an offset
	r.checkListed(url.Values{"from": {climb.CreatedAt.In(india).Format(time.RFC3339Nano)}}.Encode(), []crGame{climb}, nil)
	r.checkListed(url.Values{"to": {climb.CreatedAt.In(india).Format(time.RFC3339Nano)}}.Encode(), primed, nil)
	r.checkListed(url.Values{"to": {at(climb.CreatedAt)}}.Encode(), primed, nil)
	r.checkListed(url.Values{"from": {at(batchAt)}, "to": {at(climb.CreatedAt)}}.Encode(), primed, nil)
	r.checkListed(url.Values{"from": {at(batchAt.Add(-time.Hour))}, "to": {at(batchAt)}}.Encode(), nil, nil)
	r.checkListed(url.Values{"from": {at(climb.CreatedAt.Add(time.Hour))}}.Encode(), nil, nil)
	// The teacher's token on GET /v1/games lists the same games.
	var page struct {
		Items []crSummary `json:"items"`
	}
	r.get("/v1/games", &page)
	var ids []string
	for _, s := range page.Items {
		ids = append(ids, s.ID)
	}
	if !slices.Equal(ids, newest) {
		t.Errorf("GET /v1/games as the teacher = %v, want %v", ids, newest)
	}
}

// checkReplay asks the state after each kept entry as the teacher: it must be what the teacher saw
// then. With hands, the step in the middle must show every hand.
func (r *review) checkReplay(id string, snaps []crSnapshot, hands bool) {
	t := r.t
	t.Helper()
	if len(snaps) == 0 {
		t.Fatalf("game %s: no snapshots kept", id)
	}
	mid := snaps[len(snaps)/2]
	var count int64
	for _, s := range []crSnapshot{snaps[0], mid, snaps[len(snaps)-1]} {
		var step struct {
			Seq      int64           `json:"seq"`
			SeqCount int64           `json:"seq_count"`
			State    json.RawMessage `json:"state"`
		}
		r.get(fmt.Sprintf("/v1/games/%s/states/%d", id, s.seq), &step)
		if step.Seq != s.seq || !jsonEqual(step.State, s.state) {
			t.Errorf("game %s: the teacher's replay of step %d differs from the view then:\nreplay: %s\nthen:   %s", id, s.seq, step.State, s.state)
		}
		count = step.SeqCount
	}
	if hands {
		var v primedView
		if err := json.Unmarshal(mid.state, &v); err != nil {
			t.Fatal(err)
		}
		for _, h := range v.Hands {
			if h.Cards == nil {
				t.Errorf("game %s step %d: the teacher's replay hides seat %d's hand", id, mid.seq, h.Seat)
			}
		}
	}
	// The whole history as the teacher reads it has seq_count entries, and the step past the end is 404.
	if resp := r.h.Get(fmt.Sprintf("/v1/games/%s/states/%d", id, count), r.teacher()...); resp.StatusCode != http.StatusNotFound {
		t.Errorf("GET states/%d (past the end) = %d, want 404", count, resp.StatusCode)
	}
}

// checkAttempts compares a game's refused actions, as the teacher lists them, with those sent.
func (r *review) checkAttempts(id, token string) {
	t := r.t
	t.Helper()
	var list struct {
		Items []struct {
			ID        int64           `json:"id"`
			Seat      int             `json:"seat"`
			StudentID *string         `json:"student_id"`
			Version   int64           `json:"version"`
			Action    json.RawMessage `json:"action"`
			Code      string          `json:"code"`
			Detail    string          `json:"detail"`
		} `json:"items"`
	}
	resp := r.h.Get("/v1/games/"+id+"/attempts", bearer(token)...)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET attempts of game %s = %d: %s", id, resp.StatusCode, resp.Body)
	}
	resp.JSON(t, &list)
	sent := r.refused[id]
	if len(list.Items) != len(sent) {
		t.Errorf("game %s: %d attempts listed, %d refused actions sent", id, len(list.Items), len(sent))
	}
	for i := range min(len(list.Items), len(sent)) {
		got, want := list.Items[i], sent[i]
		if got.Seat != want.seat || got.StudentID == nil || *got.StudentID != want.student || got.Version != want.version ||
			!jsonEqual(got.Action, want.action) || got.Code != want.code || got.Detail != want.detail {
			t.Errorf("game %s attempt %d = %+v (student %v), want seat %d student %s version %d action %s code %s detail %q",
				id, i, got, got.StudentID, want.seat, want.student, want.version, want.action, want.code, want.detail)
		}
		if i > 0 && got.ID <= list.Items[i-1].ID {
			t.Errorf("game %s attempts are not oldest first: id %d after %d", id, got.ID, list.Items[i-1].ID)
		}
	}
}

func nonZero(m map[string]int) map[string]int {
	out := map[string]int{}
	for k, v := range m {
		if v != 0 {
			out[k] = v
		}
	}
	return out
}

// checkTotals compares one student's (or the class's) statistics with the counts. Examples are
// refusal sentences of the code; with strictExamples, the most recent, newest first, up to three.
func (r *review) checkTotals(who string, got crTotals, want *crCounts, strictExamples bool) {
	t := r.t
	t.Helper()
	if got.GamesPlayed != want.played || got.GamesFinished != want.finished || got.GamesWon != want.won {
		t.Errorf("%s: games played/finished/won = %d/%d/%d, counted %d/%d/%d", who, got.GamesPlayed, got.GamesFinished, got.GamesWon, want.played, want.finished, want.won)
	}
	if len(got.Games) != 2 || got.Games["prime-climb"].Counts == nil || got.Games["primed"].Counts == nil {
		t.Errorf("%s: games %v, want both kinds, played or not", who, got.Games)
	}
	if g, w := nonZero(got.Games["primed"].Counts), nonZero(want.primed); !maps.Equal(g, w) {
		t.Errorf("%s: primed counters %v, counted %v", who, g, w)
	}
	// primes_landed needs the start-of-turn squares; every card drawn was earned by a landing.
	gotClimb := nonZero(got.Games["prime-climb"].Counts)
	if landed := gotClimb["primes_landed"]; landed < want.climb["cards_drawn"] {
		t.Errorf("%s: primes_landed %d, fewer than the %d cards drawn", who, landed, want.climb["cards_drawn"])
	}
	delete(gotClimb, "primes_landed")
	if w := nonZero(want.climb); !maps.Equal(gotClimb, w) {
		t.Errorf("%s: prime_climb counters %v, counted %v", who, gotClimb, w)
	}
	average, ok := got.Games["primed"].Measures["average_round_score"]
	switch rounds := want.primed["rounds"]; {
	case rounds == 0 && ok:
		t.Errorf("%s: average_round_score %v without a round", who, average)
	case rounds > 0 && (!ok || average != float64(want.primed["round_score_total"])/float64(rounds)):
		t.Errorf("%s: average_round_score %v, want %d / %d", who, got.Games["primed"].Measures, want.primed["round_score_total"], rounds)
	}
	if len(got.Games["prime-climb"].Measures) != 0 {
		t.Errorf("%s: prime-climb measures %v, want none", who, got.Games["prime-climb"].Measures)
	}
	gotCodes := map[string]int{}
	for i, a := range got.Attempts {
		gotCodes[a.Code] = a.Count
		if i > 0 && a.Count > got.Attempts[i-1].Count {
			t.Errorf("%s: attempts not by count, most first: %+v", who, got.Attempts)
		}
		sentences := want.attempts[a.Code]
		var recent []string
		for j := len(sentences) - 1; j >= 0 && len(recent) < 3; j-- {
			recent = append(recent, sentences[j])
		}
		switch {
		case strictExamples && !slices.Equal(a.Examples, recent):
			t.Errorf("%s: attempts %q (%d) examples %q, want the most recent, newest first: %q", who, a.Code, a.Count, a.Examples, recent)
		case len(a.Examples) == 0 || len(a.Examples) > 3:
			t.Errorf("%s: attempts %q (%d) has %d examples, want 1 to 3", who, a.Code, a.Count, len(a.Examples))
		}
		for _, ex := range a.Examples {
			if !slices.Contains(sentences, ex) {
				t.Errorf("%s: attempts %q example %q is none of the refusals sent: %q", who, a.Code, ex, sentences)
			}
		}
	}
	wantCodes := map[string]int{}
	for code, s := range want.attempts {
		wantCodes[code] = len(s)
	}
	if !maps.Equal(gotCodes, wantCodes) {
		t.Errorf("%s: attempts by code %v, sent %v", who, gotCodes, wantCodes)
	}
}

func (r *review) checkStats() crStats {
	t := r.t
	t.Helper()
	var stats crStats
	r.get("/v1/classrooms/"+r.class.id+"/stats", &stats)
	if stats.ClassroomID != r.class.id || len(stats.Students) != len(r.names) {
		t.Fatalf("stats: classroom %s, %d students", stats.ClassroomID, len(stats.Students))
	}
	class := newCounts()
	for i, st := range stats.Students {
		want := r.counts[st.StudentID]
		if want == nil || st.Name != r.names[i] {
			t.Fatalf("stats.students[%d] is %s %q, want %s", i, st.StudentID, st.Name, r.names[i])
		}
		r.checkTotals(st.Name, st.crTotals, want, true)
		class.played += want.played
		class.finished += want.finished
		class.won += want.won
		for k, v := range want.primed {
			class.primed[k] += v
		}
		for k, v := range want.climb {
			class.climb[k] += v
		}
	}
	// The class's refusals of each code, in the order sent (games were played one after another).
	// Whether the class's examples are the most recent of them is TestClassroomStatsClassExamples'.
	for _, id := range r.played {
		for _, a := range r.refused[id] {
			class.attempts[a.code] = append(class.attempts[a.code], a.detail)
		}
	}
	r.checkTotals("the class", stats.Class, class, false)
	// Every bump given in the class was taken by someone in the class.
	if pc := stats.Class.Games["prime-climb"].Counts; pc["bumps_given"] != pc["bumps_taken"] {
		t.Errorf("class bumps_given %d != bumps_taken %d", pc["bumps_given"], pc["bumps_taken"])
	}
	t.Logf("class: %+v", stats.Class)
	return stats
}

// checkCSV reads the statistics as CSV and compares every row with the JSON numbers, both ways.
func (r *review) checkCSV(stats crStats) {
	t := r.t
	t.Helper()
	resp := r.get("/v1/classrooms/"+r.class.id+"/stats", nil, "Accept", "text/csv")
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/csv") {
		t.Errorf("stats as CSV: Content-Type %q", ct)
	}
	rows, err := csv.NewReader(bytes.NewReader(resp.Body)).ReadAll()
	if err != nil {
		t.Fatalf("stats CSV: %v\n%s", err, resp.Body)
	}
	if len(rows) == 0 || !slices.Equal(rows[0], []string{"student_id", "name", "measure", "value"}) {
		t.Fatalf("stats CSV header = %v", rows[:min(1, len(rows))])
	}
	want := map[[3]string]string{}
	add := func(id, name string, tot crTotals) {
		put := func(measure, value string) { want[[3]string{id, name, measure}] = value }
		put("games_played", strconv.Itoa(tot.GamesPlayed))
		put("games_finished", strconv.Itoa(tot.GamesFinished))
		put("games_won", strconv.Itoa(tot.GamesWon))
		// The prefixes are the names these figures had before stats were per kind.
		for kind, prefix := range map[string]string{"prime-climb": "prime_climb.", "primed": "primed."} {
			for k, v := range tot.Games[kind].Counts {
				put(prefix+k, strconv.Itoa(v))
			}
			for k, v := range tot.Games[kind].Measures {
				put(prefix+k, strconv.FormatFloat(v, 'f', 2, 64))
			}
		}
		for _, a := range tot.Attempts {
			put("attempts."+a.Code, strconv.Itoa(a.Count))
		}
	}
	for _, st := range stats.Students {
		add(st.StudentID, st.Name, st.crTotals)
	}
	add("", "(class)", stats.Class)
	got := map[[3]string]string{}
	for i, row := range rows[1:] {
		if len(row) != 4 {
			t.Errorf("stats CSV row %d has %d fields: %v", i+1, len(row), row)
			continue
		}
		key := [3]string{row[0], row[1], row[2]}
		if _, dup := got[key]; dup {
			t.Errorf("stats CSV has %v twice", key)
		}
		got[key] = row[3]
	}
	if !maps.Equal(got, want) {
		for k, v := range want {
			if got[k] != v {
				t.Errorf("stats CSV %v = %q, the JSON says %q", k, got[k], v)
			}
		}
		for k, v := range got {
			if _, ok := want[k]; !ok {
				t.Errorf("stats CSV has %v = %q, not in the JSON", k, v)
			}
		}
	}
	if n := len(want); n < 6*10 {
		t.Errorf("stats CSV compared only %d values", n)
	}
}

// checkStudentLists: each student's token lists exactly their own games.
func (r *review) checkStudentLists(all []crGame) {
	t := r.t
	t.Helper()
	for _, n := range r.names {
		st := r.class.students[n]
		var page struct {
			Items []crSummary `json:"items"`
		}
		resp := r.h.Get("/v1/games", bearer(st.token)...)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET /v1/games as %s = %d", n, resp.StatusCode)
		}
		resp.JSON(t, &page)
		var got, want []string
		for _, s := range page.Items {
			got = append(got, s.ID)
		}
		for _, g := range all {
			if slices.Contains(r.seatIDs[g.ID], st.id) {
				want = append(want, g.ID)
			}
		}
		slices.Sort(got)
		slices.Sort(want)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("GET /v1/games as %s = %v, want their games %v", n, got, want)
		}
	}
}

// TestClassroomStatsClassExamples pins what the class's refused attempts show as examples: like a
// student's (AttemptCount.examples in openapi.yaml: "The most recent refusals' sentences"), the class's
// most recent refusals of the code, newest first, up to three, whoever sent them.
func TestClassroomStatsClassExamples(t *testing.T) {
	h := newGamesHarness(t)
	class := h.newClassroom(t, "Class 6D", "Ada", "Ben", "Cy", "Dee")
	type sent struct{ student, detail string }
	var refusals []sent
	// missingCards has the seat to act in a new game of pair play two cards it does not hold: each
	// is refused card_not_in_hand with a sentence naming the card.
	missingCards := func(pair []string, cards []int) {
		resp := h.Post("/v1/games", map[string]any{"game": "primed", "players": []map[string]string{
			{"student_id": class.students[pair[0]].id}, {"student_id": class.students[pair[1]].id},
		}}, bearer(class.teacher)...)
		if resp.StatusCode != http.StatusCreated {
			t.Fatalf("create = %d: %s", resp.StatusCode, resp.Body)
		}
		var c created
		resp.JSON(t, &c)
		seat := h.game(t, c.Game.ID, class.teacher).Turn.ToAct[0]
		actor := class.students[pair[seat]]
		var v primedView
		if err := json.Unmarshal(h.game(t, c.Game.ID, actor.token).State, &v); err != nil {
			t.Fatal(err)
		}
		sentHere := 0
		for _, card := range cards {
			if sentHere == 2 || slices.Contains(*v.Hands[seat].Cards, card) {
				continue
			}
			resp := h.act(t, c.Game.ID, actor.token, map[string]any{"type": "play", "cards": []int{card}})
			p := resp.Problem(t)
			if resp.StatusCode != http.StatusUnprocessableEntity || p.Code != "card_not_in_hand" {
				t.Fatalf("play of a card not held = %d %s", resp.StatusCode, resp.Body)
			}
			refusals = append(refusals, sent{pair[seat], p.Detail})
			sentHere++
		}
	}
	// Two students refused twice each: no student has three refusals, the class has four.
	// Cards counted down in one game and up in the other make the four sentences differ.
	var down, up []int
	for c := 1; c <= 17; c++ {
		down, up = append(down, 18-c), append(up, c)
	}
	missingCards([]string{"Ada", "Ben"}, down)
	missingCards([]string{"Cy", "Dee"}, up)

	var stats crStats
	resp := h.Get("/v1/classrooms/"+class.id+"/stats", bearer(class.teacher)...)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("stats = %d: %s", resp.StatusCode, resp.Body)
	}
	resp.JSON(t, &stats)
	var recent []string
	for i := len(refusals) - 1; i >= 0 && len(recent) < 3; i-- {
		recent = append(recent, refusals[i].detail)
	}
	if len(stats.Class.Attempts) != 1 || stats.Class.Attempts[0].Code != "card_not_in_hand" || stats.Class.Attempts[0].Count != len(refusals) {
		t.Fatalf("class attempts = %+v, want card_not_in_hand × %d", stats.Class.Attempts, len(refusals))
	}
	if got := stats.Class.Attempts[0].Examples; !slices.Equal(got, recent) {
		t.Errorf("GET /v1/classrooms/{id}/stats: class.attempts[card_not_in_hand] (count %d) examples = %q, want the class's %d most recent, newest first: %q (refusals in the order sent: %+v)",
			len(refusals), got, len(recent), recent, refusals)
	}
}
