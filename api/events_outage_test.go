package api_test

import (
	"context"
	"testing"
	"time"

	"primegames/repo"
)

// An idle stream's heartbeats do not touch the database.
func TestEventStreamHeartbeatsDoNotReadTheDatabase(t *testing.T) {
	t.Parallel()
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
	// The wake's read comes at a time the test cannot see, late on a busy machine; so the test asks
	// for ten heartbeats in a row that take no connection, which a stream that read the database
	// every heartbeat, or every few, would never give.
	var n int64
	for range 20 {
		before := c.dbB.Pool.Stat().AcquireCount()
		s.heartbeats(t, 10)
		if n = c.dbB.Pool.Stat().AcquireCount() - before; n == 0 {
			return
		}
	}
	t.Errorf("no 10 heartbeats of an idle stream in a row took no database connection (the last 10 took %d)", n)
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
