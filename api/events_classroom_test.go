package api_test

import (
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"testing"

	"primegames.dev/client"
	"primegames/api/apitest"
)

// The teacher's classroom stream: every game of the class on one stream, games created after it
// opened included, entries shown in full, a game's end not closing it, and Last-Event-ID of the
// form game:seq. evClassroom makes the class and its games through one instance.

// The teacher's classroom stream on instance B sees every game of the class played through A,
// games created after it opened included, each game's entries in order and once, in full; a game's
// end does not close it; Last-Event-ID resumes without losing anything.
func TestClassroomEventStream(t *testing.T) {
	t.Parallel()
	c := newEvCluster(t, testConfig())
	room := newEvClassroom(t, c.a, "Ada", "Ben", "Cy", "Di")
	students, tokenOf, roomPath := room.students, room.tokenOf, room.path("")
	newGame := room.newGame

	// Students are not teachers.
	if resp := c.b.Get(roomPath+"/events", bearer(tokenOf[students[0]])...); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("classroom stream with a student token = %d", resp.StatusCode)
	}
	stream := openEvStream(t, c.b.URL, roomPath+"/events?access_token="+url.QueryEscape(room.teacher))
	type key struct {
		game string
		seq  int64
	}
	seen := map[key]int{}
	last := map[string]int64{}
	ends := map[string]int{}
	var lastID string
	// drain reads events until want returns true.
	drain := func(s *evStream, dupesOK bool, want func() bool) {
		t.Helper()
		for !want() {
			e := s.next(t, evWait)
			if e.Event == "end" {
				var end client.GameEndEvent
				if err := json.Unmarshal([]byte(e.Data), &end); err != nil {
					t.Fatal(err)
				}
				ends[end.GameId.String()]++
				continue
			}
			a, en := e.action(t)
			if e.ID != a.GameId.String()+":"+strconv.FormatInt(en.Seq, 10) {
				t.Fatalf("event id %q for game %s entry %d", e.ID, a.GameId.String(), en.Seq)
			}
			lastID = e.ID
			k := key{a.GameId.String(), en.Seq}
			seen[k]++
			if seen[k] > 1 && !dupesOK {
				t.Fatalf("entry %v twice", k)
			}
			prev, ok := last[a.GameId.String()]
			if !ok {
				prev = -1
			}
			if seen[k] == 1 && en.Seq != prev+1 {
				t.Fatalf("game %s: entry %d after %d", a.GameId.String(), en.Seq, prev)
			}
			if en.Seq > prev {
				last[a.GameId.String()] = en.Seq
			}
			if en.Random == nil {
				t.Errorf("entry %v: the teacher sees everything, random values included", k)
			}
			var out client.PrimedOutcome
			if err := json.Unmarshal(en.Outcome, &out); err != nil {
				t.Fatal(err)
			}
			if out.Drew != nil && out.Drew.Card == nil {
				t.Errorf("entry %v: the teacher should see the drawn card", k)
			}
		}
	}
	caught := func(gs ...*evGame) func() bool {
		return func() bool {
			for _, g := range gs {
				if l, ok := last[g.id]; !ok || l < g.seq {
					return false
				}
			}
			return true
		}
	}

	g1 := newGame(students[0], students[1]) // created after the stream opened
	for range 6 {
		g1.play()
	}
	g2 := newGame(students[2], students[3])
	for range 6 {
		g1.play()
		g2.play()
	}
	drain(stream, false, caught(g1, g2))
	if resp := c.a.Post(g1.path("/abort"), nil, bearer(room.teacher)...); resp.StatusCode != http.StatusOK {
		t.Fatalf("abort = %d: %s", resp.StatusCode, resp.Body)
	}
	drain(stream, false, func() bool { return ends[g1.id] == 1 })
	g2.play()
	drain(stream, false, caught(g2)) // the stream stays open after one game ends

	// Drop the connection, play on, resume with Last-Event-ID.
	stream.close()
	for range 3 {
		g2.play()
	}
	resumed := openEvStream(t, c.b.URL, roomPath+"/events", append(bearer(room.teacher), "Last-Event-ID", lastID)...)
	drain(resumed, true, caught(g2))
	for k, n := range seen {
		if k.game != g1.id && k.game != g2.id || n == 0 {
			t.Errorf("unexpected entry %v", k)
		}
	}
	if int64(len(seen)) != g1.seq+1+g2.seq+1 {
		t.Errorf("%d distinct entries, the games have %d", len(seen), g1.seq+1+g2.seq+1)
	}
	if resp := c.b.Get(roomPath+"/events", append(bearer(room.teacher), "Last-Event-ID", "nope")...); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("bad Last-Event-ID = %d", resp.StatusCode)
	}
	unknown := g1.id + ":" + strconv.FormatInt(g1.seq+1, 10)
	if resp := c.b.Get(roomPath+"/events", append(bearer(room.teacher), "Last-Event-ID", unknown)...); resp.StatusCode != http.StatusNotFound || resp.Problem(t).Code != "event_not_found" {
		t.Errorf("Last-Event-ID of no entry = %d: %s", resp.StatusCode, resp.Body)
	}
}

// evClassroom is a classroom made through one instance, and its students.
type evClassroom struct {
	t        *testing.T
	s        *apitest.Server
	id       string
	teacher  string
	students []string          // ids, in the order they joined
	tokenOf  map[string]string // student id -> token
}

func newEvClassroom(t *testing.T, s *apitest.Server, names ...string) *evClassroom {
	t.Helper()
	class := newClassroomOn(t, s, "Class 4B", names...)
	room := &evClassroom{t: t, s: s, id: class.id, teacher: class.teacher, tokenOf: map[string]string{}}
	for _, name := range names {
		st := class.students[name]
		room.tokenOf[st.id] = st.token
		room.students = append(room.students, st.id)
	}
	return room
}

func (r *evClassroom) path(suffix string) string { return "/v1/classrooms/" + r.id + suffix }

// newGame starts a game of Primed for the students with ids.
func (r *evClassroom) newGame(ids ...string) *evGame {
	t := r.t
	t.Helper()
	resp := r.s.Post(r.path("/games"), map[string]any{"game": "primed", "group_size": len(ids), "student_ids": ids}, bearer(r.teacher)...)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("classroom games = %d: %s", resp.StatusCode, resp.Body)
	}
	var out client.ClassroomGames
	resp.JSON(t, &out)
	if len(out.Games) != 1 {
		t.Fatalf("%d games", len(out.Games))
	}
	body := out.Games[0]
	id := body.Id.String()
	g := &evGame{t: t, s: r.s, id: id, creator: r.teacher, kind: "primed", rng: rand.New(rand.NewPCG(uint64(len(id)), 3)),
		posted: map[int64]json.RawMessage{}, versions: map[int64]int64{0: body.Version}}
	for _, st := range body.Seats {
		if st.StudentId == nil {
			t.Fatalf("seat %d of a classroom's game has no student", st.Seat)
		}
		g.tokens = append(g.tokens, r.tokenOf[st.StudentId.String()])
	}
	g.update(body)
	return g
}
