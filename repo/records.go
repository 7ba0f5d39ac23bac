package repo

import (
	"container/list"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"slices"
	"sync"
	"time"

	"primegames/play"
)

// DefaultRecordCacheBytes bounds the game records an instance keeps between requests (about the
// snapshots' and seats' bytes): a record is 1 to 6 KB, so this keeps the last several thousand
// games read.
const DefaultRecordCacheBytes = 16 << 20

// recordStripes is how many generation counters the cache keeps (one per stripe of game ids).
const recordStripes = 4096

// records keeps game records between requests, each with its stamp (play.RecordStamp, worked out
// once when it is kept and carried by every copy handed out), coherent with Postgres: a read answers from it only
// after the barrier (barrier.go) has shown that every change committed before the read began has
// been heard, and every change of a game or its seats is heard (migration 00026's trigger
// announces it on game_changes, in commit order) and drops the game. So a read never answers older
// than what Postgres held when the read arrived, whichever instance made the change, and a client
// that has just written reads its write on any instance.
//
// The records are trusted only while the listening connection is up: it is what hears the changes.
// While it is down, and from each (re)connection on, nothing kept before is used.
type records struct {
	limit int
	seed  maphash.Seed
	sync  *barrier

	mu      sync.Mutex
	trusted bool
	// up is closed while the listener is connected (trusted), and open while it is not.
	up chan struct{}
	// epoch counts the times the listener connected or was lost; a read that began in another epoch
	// keeps nothing.
	epoch uint64
	// stripes count the changes heard of the games in each stripe; a read keeps what it read only
	// when no change of its stripe was heard while it read.
	stripes [recordStripes]uint64
	size    int
	byID    map[string]*list.Element // of *keptRecord
	recency *list.List               // most recently used first
	// written are the records this instance's transactions are committing: each is kept when the
	// announcement of its game at its version is heard, which comes after every change committed
	// before it and before any committed after it.
	written map[string]*writtenRecord
	// mismatch, when set, is told of every record kept from a write, to compare with a fresh read
	// (tests).
	mismatch func(kept *play.GameRecord)

	hits, misses uint64
	// applied and stale count the changes sent in one round trip on a kept record
	// (UpdateUnchanged): applied, or not because the game was not as the record had it.
	applied, stale uint64
}

type keptRecord struct {
	id   string
	rec  *play.GameRecord
	size int
}

func newRecords(limit int, sync *barrier) *records {
	return &records{limit: limit, seed: maphash.MakeSeed(), sync: sync, byID: map[string]*list.Element{},
		recency: list.New(), written: map[string]*writtenRecord{}, up: make(chan struct{})}
}

// waitListening returns once the listener is connected, or with ctx's error.
func (r *records) waitListening(ctx context.Context) error {
	r.mu.Lock()
	up, trusted := r.up, r.trusted
	r.mu.Unlock()
	if trusted {
		return nil
	}
	select {
	case <-up:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// writtenLimit bounds the records awaiting their announcement: one per game being written at once.
const writtenLimit = 4096

// errNotListening is the barrier's answer while the listener is down.
var errNotListening = errors.New("the listener is not connected")

// read answers id from the records when it can, else with load, whose record it keeps.
func (r *records) read(ctx context.Context, id string, load func() (*play.GameRecord, error)) (*play.GameRecord, error) {
	r.mu.Lock()
	_, kept := r.byID[id]
	kept = kept && r.trusted
	r.mu.Unlock()
	if kept {
		err := r.sync.waitBriefly(ctx)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err == nil {
			r.mu.Lock()
			e, ok := r.byID[id]
			if ok && r.trusted {
				r.recency.MoveToFront(e)
				r.hits++
				rec := copyRecord(e.Value.(*keptRecord).rec)
				r.mu.Unlock()
				return rec, nil
			}
			r.mu.Unlock()
		}
	}
	r.mu.Lock()
	epoch, stripe := r.epoch, r.stripeOf(id)
	gen := r.stripes[stripe]
	r.misses++
	r.mu.Unlock()
	rec, err := load()
	if err != nil {
		return nil, err
	}
	rec.Stamped()
	r.keep(id, rec, epoch, stripe, gen)
	return rec, nil
}

// peek is a copy of the record kept of id (or being written by this instance), nil when there is
// none: without the barrier, so it may be older than the game; for a change that checks the game
// is as the record has it before anything relies on it (UpdateUnchanged).
func (r *records) peek(id string) *play.GameRecord {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.trusted {
		return nil
	}
	if w, ok := r.written[id]; ok {
		return copyRecord(w.rec)
	}
	if e, ok := r.byID[id]; ok {
		return copyRecord(e.Value.(*keptRecord).rec)
	}
	return nil
}

// keep keeps rec, read when the epoch and its stripe's generation were those given, unless a
// change of its stripe was heard since, or the listener connected or was lost.
func (r *records) keep(id string, rec *play.GameRecord, epoch uint64, stripe int, gen uint64) {
	size := recordSize(rec)
	if size > r.limit/4 {
		return
	}
	kept := copyRecord(rec)
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.trusted || r.epoch != epoch || r.stripes[stripe] != gen {
		return
	}
	r.put(id, kept, size)
}

// put keeps rec for id; r.mu is held.
func (r *records) put(id string, kept *play.GameRecord, size int) {
	if e, ok := r.byID[id]; ok {
		old := e.Value.(*keptRecord)
		r.size += size - old.size
		old.rec, old.size = kept, size
		r.recency.MoveToFront(e)
	} else {
		r.byID[id] = r.recency.PushFront(&keptRecord{id: id, rec: kept, size: size})
		r.size += size
	}
	for r.size > r.limit {
		last := r.recency.Back()
		old := last.Value.(*keptRecord)
		r.recency.Remove(last)
		delete(r.byID, old.id)
		r.size -= old.size
	}
}

// writtenRecord is a record a transaction of this instance is committing.
type writtenRecord struct {
	rec *play.GameRecord
	// sure is whether the announcement of the game at rec's version can only be this transaction's:
	// it holds the game's lock (so no other transaction can commit that version), or it committed.
	sure bool
	// heard is whether that announcement was heard before the transaction was sure.
	heard bool
}

// changed drops a game whose record changed: the listener heard it announced at version. When the
// announcement is of the record this instance wrote, that record is kept.
func (r *records) changed(id string, version int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stripes[r.stripeOf(id)]++
	if e, ok := r.byID[id]; ok {
		r.size -= e.Value.(*keptRecord).size
		r.recency.Remove(e)
		delete(r.byID, id)
	}
	w, ok := r.written[id]
	switch {
	case !ok:
	case version > w.rec.Version:
		delete(r.written, id)
	case version == w.rec.Version && !w.sure:
		w.heard = true // kept if the transaction turns out to be the one that committed it
	case version == w.rec.Version:
		delete(r.written, id)
		r.keepWritten(w.rec)
	}
}

// keepWritten keeps a record this instance committed, once its announcement was heard.
func (r *records) keepWritten(rec *play.GameRecord) {
	if !r.trusted {
		return
	}
	if size := recordSize(rec); size <= r.limit/4 {
		r.put(rec.ID, rec.Stamped(), size)
		if r.mismatch != nil {
			go r.mismatch(rec)
		}
	}
}

// writing is told of the record a transaction of this instance is about to commit, before the
// COMMIT is sent, so that it is kept when its announcement is heard (notWritten when the
// transaction did not commit or may not have). locked says whether the transaction holds the
// game's lock; one that does not (a change in one round trip, whose lock comes with its writes)
// may fail to a change committed at the same version by another, whose announcement must not keep
// this record: it is kept only once committed (writingCommitted). The handle returned names this
// write to those two: another transaction of this instance may write the same game meanwhile (two
// changes in one round trip racing, an action and its retry), and what one is told must not keep
// or forget the other's record. Nil when nothing is kept of it.
func (r *records) writing(rec *play.GameRecord, locked bool) *writtenRecord {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.trusted || len(r.written) >= writtenLimit {
		return nil
	}
	w := &writtenRecord{rec: copyRecord(rec), sure: locked}
	r.written[rec.ID] = w
	return w
}

// writingCommitted is told that a transaction that did not hold the game's lock when it told
// writing has committed: the announcement at its version is its own, and its record is kept once
// that is heard, at once when it was heard already.
func (r *records) writingCommitted(w *writtenRecord) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case w == nil || r.written[w.rec.ID] != w: // forgotten, or another write's since
	case w.heard:
		delete(r.written, w.rec.ID)
		r.keepWritten(w.rec)
	default:
		w.sure = true
	}
}

// notWritten forgets the record a transaction of this instance was to commit: it did not, or may
// not have.
func (r *records) notWritten(w *writtenRecord) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if w != nil && r.written[w.rec.ID] == w {
		delete(r.written, w.rec.ID)
	}
}

// listening is told when the listener connects (true) and when it is lost (false): either way
// what was kept may have missed changes, so all of it goes.
func (r *records) listening(up bool) {
	r.mu.Lock()
	switch {
	case up && !r.trusted:
		close(r.up)
	case !up && r.trusted:
		r.up = make(chan struct{})
	}
	r.trusted = up
	r.epoch++
	r.byID = map[string]*list.Element{}
	r.written = map[string]*writtenRecord{}
	r.recency.Init()
	r.size = 0
	r.mu.Unlock()
	r.sync.listening(up)
}

func (r *records) stripeOf(id string) int {
	return int(maphash.String(r.seed, id) % recordStripes)
}

// RecordCacheStats are the game record cache's figures.
type RecordCacheStats struct {
	Hits, Misses, Games, Bytes int64
	// OneTrip and OneTripStale count the changes sent in one round trip on a kept record: applied,
	// and not applied because the game was not as the record had it (then done as before).
	OneTrip, OneTripStale int64
	// Pings counts the barrier's pings: each answers every read that waited for it.
	Pings int64
	// Trusted is whether the listener is connected, so that the records are used.
	Trusted bool
}

func (r *records) stats() RecordCacheStats {
	r.mu.Lock()
	defer r.mu.Unlock()
	return RecordCacheStats{Hits: int64(r.hits), Misses: int64(r.misses), Games: int64(len(r.byID)), Bytes: int64(r.size), Trusted: r.trusted,
		OneTrip: int64(r.applied), OneTripStale: int64(r.stale), Pings: int64(r.sync.pings())}
}

// sentInOneTrip counts a change sent in one round trip, by its outcome.
func (r *records) sentInOneTrip(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case err == nil:
		r.applied++
	case errors.Is(err, play.ErrStale):
		r.stale++
	}
}

// recordSize is about what a kept record holds.
func recordSize(g *play.GameRecord) int {
	n := 512 + len(g.Snapshot) + len(g.Options) + len(g.Tally) + len(g.CreatorHash)
	for _, s := range g.Seats {
		n += 128 + len(s.Name) + len(s.TokenHash)
	}
	return n
}

// copyRecord is a copy of g whose seats, winners and times a caller may change without changing
// the kept record, which many requests read at once. The JSON and hash bytes are shared: nothing
// writes into a record's bytes.
func copyRecord(g *play.GameRecord) *play.GameRecord {
	c := *g
	c.Winners = slices.Clone(g.Winners)
	c.Seats = slices.Clone(g.Seats)
	for i := range c.Seats {
		c.Seats[i].StudentID = clonePtr(g.Seats[i].StudentID)
	}
	c.FinishedAt = clonePtr(g.FinishedAt)
	c.ClassroomID = clonePtr(g.ClassroomID)
	c.RematchID = clonePtr(g.RematchID)
	c.BotDueAt = clonePtr(g.BotDueAt)
	c.TurnDeadline = clonePtr(g.TurnDeadline)
	return &c
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// pingTimeout is how long the barrier waits for its ping to come back before it gives up on the
// round (the readers then read Postgres).
const pingTimeout = time.Second

// barrierWait is the longest a read waits for the barrier before it reads Postgres instead (which
// is never stale), counted from when the read's round of the barrier began: a ping stuck on a
// connection gone silent must not hold the reads behind it for the whole pingTimeout.
const barrierWait = 100 * time.Millisecond

// verifyKeptWrite reads the game a record kept from a write is of, and panics when the read differs
// from it though no change of the game was committed before the read (after the read, the barrier
// has shown that the record is still the one kept: no later change was announced).
func (db *DB) verifyKeptWrite(kept *play.GameRecord) {
	ctx, cancel := context.WithTimeout(db.closed, 10*time.Second)
	defer cancel()
	read, err := db.Games().game(ctx, kept.ID)
	if err != nil || db.CatchUp(ctx) != nil {
		return // gone, the listener down, or the test over: nothing to compare
	}
	r := db.records
	r.mu.Lock()
	e, ok := r.byID[kept.ID]
	still := ok && e.Value.(*keptRecord).rec == kept
	r.mu.Unlock()
	if !still {
		return // changed since: a later change, not the write, made the difference
	}
	if a, b := recordFingerprint(kept), recordFingerprint(read); a != b {
		panic(fmt.Sprintf("the record kept from a write of game %s differs from a read of it:\nkept %s\nread %s", kept.ID, a, b))
	}
}

// recordFingerprint is a record as text, every field included.
func recordFingerprint(g *play.GameRecord) string {
	fields, _ := json.Marshal(g)
	hashes := make([]string, len(g.Seats))
	for i, s := range g.Seats {
		hashes[i] = hex.EncodeToString(s.TokenHash)
	}
	return fmt.Sprintf("%s seed=%d creator=%x invite=%q seats=%v next=%d", fields, g.Seed, g.CreatorHash, g.InviteCode, hashes, g.NextSeq)
}
