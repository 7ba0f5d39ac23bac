package api_test

import (
	"context"
	"encoding/json"
	"net/url"
	"testing"
	"time"

	"primegames/api/apitest"
	"primegames/repo"
)

// outage is how long the database stays away from instance B.
const outage = 2 * time.Second

// Instance B reaches the database through a proxy that the test cuts, while instance A keeps
// recording moves directly. B's open streams stay open through the outage (heartbeats go on) and,
// once the database is back, deliver every entry recorded meanwhile and after, each once and in
// order. Streams opened during the outage answer 200 and wait: they then deliver, or, for a game
// that does not exist, send one `error` event and end.
func TestEventStreamsSurviveDatabaseOutage(t *testing.T) {
	cfgB := testConfig()
	cfgB.StreamHeartbeat = 50 * time.Millisecond
	c := newEvClusterWithProxy(t, cfgB)
	a, b, proxy := c.a, c.b, c.proxyB

	g := newEvGame(t, a, "prime-climb", nil, 2, 17)
	room := newEvClassroom(t, a, "Ada", "Ben")
	cg := room.newGame(room.students...)
	// Both classroom streams replay the game from its start.
	since := time.Now().Add(-time.Minute).UTC().Format(time.RFC3339)
	roomEvents := room.path("/events?since=" + url.QueryEscape(since) + "&access_token=" + url.QueryEscape(room.teacher))
	gameStream := followEvents(openEvStream(t, b.URL, g.path("/events")))
	roomStream := followEvents(openEvStream(t, b.URL, roomEvents))
	for range 2 {
		g.play()
		cg.play()
	}
	gameStream.upTo(t, g)
	roomStream.upTo(t, cg)

	proxy.Cut()
	for range 3 {
		g.play()
		cg.play()
	}
	gameStream.heartbeats(t, 20)
	roomStream.heartbeats(t, 20)
	lateGame := followEvents(openEvStream(t, b.URL, g.path("/events")))
	lateRoom := followEvents(openEvStream(t, b.URL, roomEvents))
	missing := openEvStream(t, b.URL, "/v1/games/00000000-0000-4000-8000-000000000000/events")
	lateGame.heartbeats(t, 3)
	lateRoom.heartbeats(t, 3)
	time.Sleep(outage)
	gameStream.heartbeats(t, 3)
	roomStream.heartbeats(t, 3)
	proxy.Restore()
	for range 3 {
		g.play()
		cg.play()
	}

	for _, s := range []*evFollower{gameStream, lateGame} {
		s.upTo(t, g)
	}
	for _, s := range []*evFollower{roomStream, lateRoom} {
		s.upTo(t, cg)
	}
	e := missing.next(t, evWait)
	var problem apitest.Problem
	if e.Event != "error" || json.Unmarshal([]byte(e.Data), &problem) != nil || problem.Status != 404 || problem.Code != "game_not_found" {
		t.Fatalf("the stream of a game that does not exist, opened during the outage: %+v", e)
	}
	missing.ended(t, evWait)
}

// An idle stream's heartbeats do not touch the database.
func TestEventStreamHeartbeatsDoNotReadTheDatabase(t *testing.T) {
	cfg := testConfig()
	cfg.StreamHeartbeat = 20 * time.Millisecond
	c := newEvCluster(t, cfg)
	g := newEvGame(t, c.a, "primed", nil, 2, 8)
	s := followEvents(openEvStream(t, c.b.URL, g.path("/events")))
	s.upTo(t, g)
	// B's listener wakes every stream once it is in place; that read is over a few heartbeats later.
	for deadline := time.Now().Add(evWait); ; time.Sleep(10 * time.Millisecond) {
		var listening bool
		if err := c.dbA.Pool.QueryRow(context.Background(), `SELECT EXISTS (SELECT FROM pg_stat_activity
			WHERE datname = current_database() AND application_name = $1 AND query LIKE 'LISTEN%')`,
			repo.ListenerApplicationName).Scan(&listening); err != nil {
			t.Fatal(err)
		}
		if listening {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("B's listener is not listening")
		}
	}
	s.heartbeats(t, 3)
	before := c.dbB.Pool.Stat().AcquireCount()
	s.heartbeats(t, 10)
	if n := c.dbB.Pool.Stat().AcquireCount() - before; n != 0 {
		t.Errorf("10 heartbeats of an idle stream took %d database connections, want 0", n)
	}
}

// evFollower reads a stream and checks that it delivers each game's entries once and in order.
type evFollower struct {
	s    *evStream
	last map[string]int64 // by game id
}

func followEvents(s *evStream) *evFollower { return &evFollower{s: s, last: map[string]int64{}} }

// upTo reads events until the stream has delivered every game's last entry.
func (f *evFollower) upTo(t *testing.T, games ...*evGame) {
	t.Helper()
	for _, g := range games {
		for f.lastOf(g.id) < g.seq {
			a, en := f.s.next(t, evWait).action(t)
			if en.Seq != f.lastOf(a.GameId.String())+1 {
				t.Fatalf("game %s: entry %d after entry %d", a.GameId.String(), en.Seq, f.lastOf(a.GameId.String()))
			}
			f.last[a.GameId.String()] = en.Seq
		}
	}
}

func (f *evFollower) lastOf(game string) int64 {
	if seq, ok := f.last[game]; ok {
		return seq
	}
	return -1
}

// heartbeats waits for n heartbeats, failing if an event comes instead or the stream ends.
func (f *evFollower) heartbeats(t *testing.T, n int) {
	t.Helper()
	for deadline := time.After(evWait); n > 0; {
		select {
		case e := <-f.s.events:
			if e.Comment != "heartbeat" {
				t.Fatalf("%+v, want heartbeats", e)
			}
			n--
		case <-f.s.closed:
			t.Fatalf("the stream ended, %d heartbeats short", n)
		case <-deadline:
			t.Fatalf("%d heartbeats short after %s", n, evWait)
		}
	}
}
