package repo_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"primegames/domain/games"
	"primegames/live"
	"primegames/play"
	"primegames/repo"
	"primegames/repo/repotest"
)

// listenOn runs db's listener as a server's hub does, until the test ends, and returns once it
// listens (the record cache is then trusted); stop ends it early.
func listenOn(t *testing.T, db *repo.DB) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	connected, done := make(chan struct{}, 1), make(chan struct{})
	go func() {
		defer close(done)
		db.Listen(ctx, live.Listener{
			Connected: func() {
				select {
				case connected <- struct{}{}:
				default:
				}
			},
			Notice: func(live.Notice) {},
			Failed: func(error, time.Duration) {},
		})
	}()
	stop = func() { cancel(); <-done }
	t.Cleanup(stop)
	select {
	case <-connected:
	case <-time.After(30 * time.Second):
		t.Fatal("the listener did not connect")
	}
	return stop
}

// secondInstance is another pool on the database at url, as another instance of the service has.
func secondInstance(t *testing.T, url string) *repo.DB {
	t.Helper()
	db, err := repo.Open(context.Background(), url, repo.PoolOptions{MaxConns: 4})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	return db
}

// twoInstancesAndAGame is two instances on one database, the first listening (it reads) and the
// second not (it writes), and a game of Primed the second created.
func twoInstancesAndAGame(t *testing.T) (dbA, dbB *repo.DB, reader, writer *play.Service, created *play.Created) {
	t.Helper()
	dbA, url := repotest.NewDBWithURL(t)
	dbB = secondInstance(t, url)
	listenOn(t, dbA)
	reader, writer = play.New(dbA.Games().Stores(), games.All()), play.New(dbB.Games().Stores(), games.All())
	created, err := writer.Create(context.Background(), play.NewGame{Kind: "primed", Players: []string{"Ada", "Ben"}}, play.Nobody, nil)
	if err != nil {
		t.Fatal(err)
	}
	return dbA, dbB, reader, writer, created
}

// Every change, made through another instance or straight in SQL, is seen by the very next read
// of an instance that had the game kept, with no wait in between: a client that has just written
// reads its write on any instance.
func TestKeptRecordsShowEveryChangeAtOnceWhicheverInstanceMadeIt(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dbA, dbB, reader, writer, created := twoInstancesAndAGame(t)
	listenOn(t, dbB)
	id, seats := created.Game.ID, seatPrincipals(created)
	read := func() *play.Game {
		t.Helper()
		g, _, err := reader.Get(ctx, id, play.Nobody)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	for step := range 20 {
		acted := actOnce(t, writer, id, seats)
		for range 2 { // the first read after a change reads Postgres, the second may answer from the kept record
			if g := read(); g.Version != acted.Game.Version || string(g.Snapshot) != string(acted.Game.Snapshot) {
				t.Fatalf("step %d: read version %d right after the write made version %d", step, g.Version, acted.Game.Version)
			}
		}
		if acted.Game.Status != play.StatusActive {
			break
		}
	}
	if st := dbA.RecordCacheStats(); st.Hits == 0 || !st.Trusted {
		t.Fatalf("the reading instance answered no read from its kept records: %+v", st)
	}

	// A change that makes no new version (a student renamed renames their seats) and one made in SQL.
	read()
	if _, err := dbB.Pool.Exec(ctx, `UPDATE seats SET name = 'Zed' WHERE game_id = $1 AND seat = 0`, id); err != nil {
		t.Fatal(err)
	}
	if g := read(); g.Seats[0].Name != "Zed" {
		t.Fatalf("seat 0 is still called %q after a rename", g.Seats[0].Name)
	}
	read()
	if _, err := dbB.Pool.Exec(ctx, `DELETE FROM games WHERE id = $1`, id); err != nil {
		t.Fatal(err)
	}
	if _, _, err := reader.Get(ctx, id, play.Nobody); err == nil {
		t.Fatal("a deleted game is still read")
	}
}

// Without the listener nothing kept is used: a change it would not hear is still read.
func TestRecordsAreNotUsedWhileNothingListens(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := repotest.NewDB(t)
	master := play.New(db.Games().Stores(), games.All())
	created, err := master.Create(ctx, play.NewGame{Kind: "primed", Players: []string{"Ada", "Ben"}}, play.Nobody, nil)
	if err != nil {
		t.Fatal(err)
	}
	id := created.Game.ID
	nameOfSeat0 := func() string {
		t.Helper()
		g, _, err := master.Get(ctx, id, play.Nobody)
		if err != nil {
			t.Fatal(err)
		}
		return g.Seats[0].Name
	}
	stop := listenOn(t, db)
	nameOfSeat0()
	nameOfSeat0()
	hits := db.RecordCacheStats().Hits
	if hits == 0 {
		t.Fatal("the second read was not answered from the kept record")
	}
	stop()
	if _, err := db.Pool.Exec(ctx, `UPDATE seats SET name = 'Zed' WHERE game_id = $1 AND seat = 0`, id); err != nil {
		t.Fatal(err)
	}
	if name := nameOfSeat0(); name != "Zed" {
		t.Fatalf("with the listener stopped, seat 0 reads %q, want the renamed Zed", name)
	}
	if st := db.RecordCacheStats(); st.Hits != hits || st.Trusted || st.Games != 0 {
		t.Fatalf("with the listener stopped the records were used or kept: %+v (hits before %d)", st, hits)
	}
}

// With RecordCacheBytes negative, nothing is kept even while the listener runs.
func TestRecordsCanBeTurnedOff(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, _ := repotest.NewDBWithOptions(t, repo.PoolOptions{RecordCacheBytes: -1})
	listenOn(t, db)
	master := play.New(db.Games().Stores(), games.All())
	created, err := master.Create(ctx, play.NewGame{Kind: "primed", Players: []string{"Ada", "Ben"}}, play.Nobody, nil)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, _, err := master.Get(ctx, created.Game.ID, play.Nobody); err != nil {
			t.Fatal(err)
		}
	}
	if st := db.RecordCacheStats(); st != (repo.RecordCacheStats{}) {
		t.Fatalf("records kept though turned off: %+v", st)
	}
}

// Readers asking at once share the barrier's pings, which are written to the listening
// connection: each still sees every change committed before it asked, whichever instance made it.
func TestReadersSharingPingsEachSeeEveryChangeCommittedBeforeThey(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dbA, _, reader, writer, created := twoInstancesAndAGame(t)
	id, seats := created.Game.ID, seatPrincipals(created)
	var committed atomic.Int64
	committed.Store(created.Game.Version)
	done := make(chan struct{})
	var readers sync.WaitGroup
	failures := make(chan string, 8)
	for range 8 {
		readers.Add(1)
		go func() {
			defer readers.Done()
			for {
				select {
				case <-done:
					return
				default:
				}
				before := committed.Load()
				g, _, err := reader.Get(ctx, id, play.Nobody)
				if err != nil {
					failures <- err.Error()
					return
				}
				if g.Version < before {
					failures <- fmt.Sprintf("read version %d after version %d was committed", g.Version, before)
					return
				}
			}
		}()
	}
	for range 30 {
		acted := actOnce(t, writer, id, seats)
		committed.Store(acted.Game.Version)
		if acted.Game.Status != play.StatusActive {
			break
		}
	}
	close(done)
	readers.Wait()
	close(failures)
	for f := range failures {
		t.Error(f)
	}
	if st := dbA.RecordCacheStats(); st.Hits == 0 || st.Pings == 0 {
		t.Fatalf("no read was answered from a kept record after a ping: %+v", st)
	}
}

// Listeners stop as soon as they are told, though they wait on reads of their connections (the
// connection's own silence check comes only after 10 s), with two on one DB as in tests with two
// hubs.
func TestListenersStopWhenTold(t *testing.T) {
	t.Parallel()
	db := repotest.NewDB(t)
	stops := []func(){listenOn(t, db), listenOn(t, db)}
	stopped := make(chan struct{})
	go func() {
		for _, stop := range stops {
			stop()
		}
		close(stopped)
	}()
	select {
	case <-stopped:
	case <-time.After(5 * time.Second):
		t.Fatal("the listeners did not stop within 5 s of being told")
	}
}
