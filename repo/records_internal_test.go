package repo

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"time"

	"primegames/play"
)

// pings is a barrier's Postgres as a test plays it: it keeps the pings sent, to be let back with
// arrive, and fails them while fail is set.
type pings struct {
	sent chan string
	fail error
}

func newTestBarrier() (*barrier, *pings) {
	p := &pings{sent: make(chan string, 16)}
	b := newBarrier(func(_ context.Context, _, payload string) error {
		if p.fail != nil {
			return p.fail
		}
		p.sent <- payload
		return nil
	})
	b.listening(true)
	return b, p
}

// echoingBarrier is a barrier whose pings come back at once, until the test ends.
func echoingBarrier(t *testing.T) *barrier {
	b, p := newTestBarrier()
	go func() {
		for ping := range p.sent {
			b.arrived(ping)
		}
	}()
	t.Cleanup(func() { close(p.sent) })
	return b
}

func waitIn(b *barrier) <-chan error {
	done := make(chan error, 1)
	go func() { done <- b.wait(context.Background()) }()
	return done
}

// A reader is let go by a ping sent after it asked, never by one already out.
func TestBarrierLetsAReaderGoOnlyWithAPingSentAfterItAsked(t *testing.T) {
	b, p := newTestBarrier()
	first := waitIn(b)
	ping1 := <-p.sent
	second := waitIn(b) // asks while ping 1 is out
	// The second reader joins the next round before ping 1 comes back: wait until it has.
	for {
		b.mu.Lock()
		joined := b.pending != nil
		b.mu.Unlock()
		if joined {
			break
		}
		runtime.Gosched()
	}
	b.arrived(ping1)
	if err := <-first; err != nil {
		t.Fatalf("first reader: %v", err)
	}
	ping2 := <-p.sent // sent as soon as ping 1 came back, for the second reader
	if ping2 == ping1 {
		t.Fatalf("the second reader's ping is the first's (%s)", ping1)
	}
	select {
	case err := <-second:
		t.Fatalf("the second reader was let go (%v) before its own ping came back", err)
	default:
	}
	b.arrived(ping1) // late again: ignored
	b.arrived(ping2)
	if err := <-second; err != nil {
		t.Fatalf("second reader: %v", err)
	}
}

// While the listener is down, or when a ping cannot be sent, the reader hears it at once and reads
// Postgres instead.
func TestBarrierFailsWhenItCannotKnow(t *testing.T) {
	b, p := newTestBarrier()
	waiting := waitIn(b)
	<-p.sent
	b.listening(false)
	if err := <-waiting; !errors.Is(err, errNotListening) {
		t.Fatalf("a reader waiting when the listener was lost got %v", err)
	}
	if err := b.wait(context.Background()); !errors.Is(err, errNotListening) {
		t.Fatalf("with the listener down: %v", err)
	}
	b.listening(true)
	p.fail = errors.New("connection refused")
	if err := b.wait(context.Background()); err == nil || err.Error() != "connection refused" {
		t.Fatalf("a ping that could not be sent: %v", err)
	}
}

// A ping that does not come back in time fails its readers; until one does, readers are told at
// once (they read Postgres) while one ping at a time goes to find out.
func TestBarrierStopsWaitingForALatePing(t *testing.T) {
	b, p := newTestBarrier()
	b.timeout = time.Millisecond
	if err := b.wait(context.Background()); !errors.Is(err, errPingLate) {
		t.Fatalf("a ping never let back: %v", err)
	}
	<-p.sent
	b.mu.Lock()
	b.timeout = time.Minute // the pings from here on are let back by the test
	b.mu.Unlock()
	if err := b.wait(context.Background()); !errors.Is(err, errPingLate) {
		t.Fatalf("right after a late ping: %v, want errPingLate at once", err)
	}
	b.arrived(<-p.sent) // the ping sent to find out comes back
	done := waitIn(b)
	b.arrived(<-p.sent)
	if err := <-done; err != nil {
		t.Fatalf("once a ping came back in time: %v", err)
	}
}

// A record read while a change of its game was heard, or across a reconnection of the listener,
// is not kept: it may be older than the change.
func TestARecordReadAcrossAChangeIsNotKept(t *testing.T) {
	b := echoingBarrier(t)
	r := newRecords(1<<20, b)
	r.listening(true)
	ctx := context.Background()
	loads := 0
	read := func(during func()) *play.GameRecord {
		t.Helper()
		rec, err := r.read(ctx, "g1", func() (*play.GameRecord, error) {
			loads++
			if during != nil {
				during()
			}
			return &play.GameRecord{ID: "g1", Version: int64(loads)}, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return rec
	}
	read(func() { r.changed("g1", 1) })
	read(nil)
	if loads != 2 {
		t.Fatalf("a record read while its game changed was kept: %d loads", loads)
	}
	read(nil) // kept by the read before
	if loads != 2 {
		t.Fatalf("a record read with no change heard was not kept: %d loads", loads)
	}
	r.changed("g1", 1)
	read(func() { r.listening(false); r.listening(true) })
	read(nil)
	if loads != 4 {
		t.Fatalf("a record read across a reconnection was kept: %d loads", loads)
	}
	if got := read(nil); got.Version != 4 {
		t.Fatalf("kept version %d, want the last read, 4", got.Version)
	}
	got := read(nil)
	got.Seats = append(got.Seats, play.Seat{Name: "Eve"})
	if again := read(nil); len(again.Seats) != 0 {
		t.Fatal("a change to a record given out changed the kept one")
	}
}

// The records stay within their bytes, the least recently used going first.
func TestRecordsStayWithinTheirBytes(t *testing.T) {
	b := echoingBarrier(t)
	r := newRecords(4*recordSize(&play.GameRecord{}), b)
	r.listening(true)
	for _, id := range []string{"a", "b", "c", "d", "a", "e"} {
		if _, err := r.read(context.Background(), id, func() (*play.GameRecord, error) { return &play.GameRecord{ID: id}, nil }); err != nil {
			t.Fatal(err)
		}
	}
	st := r.stats()
	if st.Games != 4 || st.Bytes > int64(r.limit) {
		t.Fatalf("%+v within %d bytes", st, r.limit)
	}
	if _, kept := r.byID["b"]; kept {
		t.Fatal("b, the least recently used, is still kept")
	}
	if _, kept := r.byID["a"]; !kept {
		t.Fatal("a, read again, was dropped")
	}
}

// A record this instance writes is kept when, and only when, the announcement of its game at its
// version is heard: older announcements (changes committed before it) do not keep it, and a write
// that did not commit is not kept.
func TestAWrittenRecordIsKeptWhenItsAnnouncementIsHeard(t *testing.T) {
	r, read, loads := listeningRecordsOfG1(t)
	r.writing(&play.GameRecord{ID: "g1", Version: 7}, true)
	r.changed("g1", 6) // committed before the write
	if v := read(); *loads != 1 || v != 100 {
		t.Fatalf("kept before its announcement: version %d, %d loads", v, *loads)
	}
	r.changed("g1", 7)
	if v := read(); *loads != 1 || v != 7 {
		t.Fatalf("after its announcement: version %d, %d loads; want the written 7 without a load", v, *loads)
	}
	r.changed("g1", 7) // a later change at the same version (a turn clock put off): dropped, read again
	if v := read(); *loads != 2 || v != 100 {
		t.Fatalf("after a later change: version %d, %d loads", v, *loads)
	}
	r.notWritten(r.writing(&play.GameRecord{ID: "g1", Version: 8}, true)) // its transaction failed
	r.changed("g1", 8)
	if read(); *loads != 3 {
		t.Fatalf("a write that did not commit was kept: %d loads", *loads)
	}
}

// Two writes of this instance racing for the same version of a game, without its lock (two
// changes in one round trip on one kept record, or an action and its retry): the one that
// committed is told so, and the announcement is heard; the record kept is never the other's,
// which failed, whichever told writing last.
func TestOfTwoRacingWritesOnlyTheCommittedOnesRecordIsKept(t *testing.T) {
	r, read, loads := listeningRecordsOfG1(t)
	committed := r.writing(&play.GameRecord{ID: "g1", Version: 3, Status: "committed"}, false)
	failed := r.writing(&play.GameRecord{ID: "g1", Version: 3, Status: "failed"}, false)
	r.writingCommitted(committed)
	r.changed("g1", 3)
	r.notWritten(failed)
	if v := read(); *loads != 1 || v != 100 {
		t.Fatalf("the failed write's record was kept: version %d, %d loads", v, *loads)
	}
	// And in the other order of telling: the failed write told last, then the announcement.
	failed = r.writing(&play.GameRecord{ID: "g1", Version: 4, Status: "failed"}, false)
	committed = r.writing(&play.GameRecord{ID: "g1", Version: 4, Status: "committed"}, false)
	r.changed("g1", 4)
	r.notWritten(failed)
	r.writingCommitted(committed)
	rec, err := r.read(context.Background(), "g1", func() (*play.GameRecord, error) {
		*loads++
		return &play.GameRecord{ID: "g1", Version: 100}, nil
	})
	if err != nil || rec.Status == "failed" {
		t.Fatalf("read %+v (%v): the failed write's record was kept", rec, err)
	}
}

// listeningRecordsOfG1 is records whose listener is connected, with a read of game g1 that loads
// version 100 when nothing is kept, and the count of its loads.
func listeningRecordsOfG1(t *testing.T) (r *records, read func() int64, loads *int) {
	r = newRecords(1<<20, echoingBarrier(t))
	r.listening(true)
	loads = new(int)
	read = func() int64 {
		t.Helper()
		rec, err := r.read(context.Background(), "g1", func() (*play.GameRecord, error) {
			*loads++
			return &play.GameRecord{ID: "g1", Version: 100}, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return rec.Version
	}
	return r, read, loads
}

// A record written without the game's lock (a change in one round trip) is kept only once its
// transaction has committed and its version's announcement is heard, in either order: an
// announcement at its version heard before then may be another transaction's, which committed
// that version first and made this one fail.
func TestARecordWrittenWithoutTheLockIsKeptOnlyOnceCommitted(t *testing.T) {
	r, read, loads := listeningRecordsOfG1(t)
	w := r.writing(&play.GameRecord{ID: "g1", Version: 3}, false)
	r.changed("g1", 3) // another transaction's, for all that is known yet
	r.notWritten(w)    // this one failed
	if v := read(); *loads != 1 || v != 100 {
		t.Fatalf("a write that failed to another at its version was kept: version %d, %d loads", v, *loads)
	}
	w = r.writing(&play.GameRecord{ID: "g1", Version: 4}, false)
	r.changed("g1", 4)
	r.writingCommitted(w) // so the announcement was its own
	if v := read(); *loads != 1 || v != 4 {
		t.Fatalf("announced, then committed: version %d, %d loads; want the written 4", v, *loads)
	}
	r.writingCommitted(r.writing(&play.GameRecord{ID: "g1", Version: 5}, false))
	r.changed("g1", 5)
	if v := read(); *loads != 1 || v != 5 {
		t.Fatalf("committed, then announced: version %d, %d loads; want the written 5", v, *loads)
	}
}

// A read whose barrier does not answer (its ping stuck on a connection gone silent) reads Postgres
// after its wait for the barrier (barrierWait) instead of failing or waiting for the whole ping.
func TestAReadDoesNotWaitLongForAStuckBarrier(t *testing.T) {
	b, p := newTestBarrier() // its pings are never let back
	b.timeout = time.Minute
	b.patience = time.Millisecond // the behaviour under test is this bound's; its length is not
	r := newRecords(1<<20, b)
	r.listening(true)
	r.writing(&play.GameRecord{ID: "g1", Version: 3}, true)
	r.changed("g1", 3) // kept
	loads := 0
	rec, err := r.read(context.Background(), "g1", func() (*play.GameRecord, error) {
		loads++
		return &play.GameRecord{ID: "g1", Version: 4}, nil
	})
	<-p.sent
	if err != nil || loads != 1 || rec.Version != 4 {
		t.Fatalf("read with the barrier stuck: %v, %d loads, %+v; want Postgres's record", err, loads, rec)
	}
}

// Waiting for the listener returns once it connects, and waits again while it is lost.
func TestWaitingForTheListenerEndsWhenItConnects(t *testing.T) {
	t.Parallel()
	r := newRecords(1<<20, newBarrier(func(context.Context, string, string) error { return nil }))
	expired, cancel := context.WithCancel(context.Background())
	cancel()
	if err := r.waitListening(expired); err == nil {
		t.Fatal("waiting before the listener connected returned at once")
	}
	r.listening(true)
	if err := r.waitListening(expired); err != nil {
		t.Fatalf("waiting once the listener connected: %v", err)
	}
	r.listening(true) // a second connection in a row changes nothing
	r.listening(false)
	if err := r.waitListening(expired); err == nil {
		t.Fatal("waiting once the listener was lost returned at once")
	}
	r.listening(true)
	if err := r.waitListening(expired); err != nil {
		t.Fatalf("waiting once the listener connected again: %v", err)
	}
}
