package play

import (
	"bytes"
	"fmt"
	"sync"

	"primegames/domain"
)

// decodedStatesLimit bounds the games whose state (or tally) is kept decoded: a state is a few
// kilobytes, and the games being played right now are the ones read again.
const decodedStatesLimit = 2048

// keptDecoded keeps, for each active game, a value decoded from what the game's row holds (its
// snapshot, its tally), so that the requests following an action (the next player's legal
// actions, then their action) need not decode what the action has just encoded. A value is found
// only for what the caller has just read from the database (same says what is the same), so it is
// never stale, whichever instance wrote it.
type keptDecoded[K, T any] struct {
	same func(kept, read K) bool
	mu   sync.Mutex
	byID map[string]decoded[K, T]
}

type decoded[K, T any] struct {
	from  K
	value T
}

func newKeptDecoded[K, T any](same func(kept, read K) bool) *keptDecoded[K, T] {
	return &keptDecoded[K, T]{same: same, byID: make(map[string]decoded[K, T])}
}

// find is the value kept for the game's from; false when it is not the one kept.
func (k *keptDecoded[K, T]) find(id string, from K) (T, bool) {
	k.mu.Lock()
	kept, ok := k.byID[id]
	k.mu.Unlock()
	if !ok || !k.same(kept.from, from) {
		var none T
		return none, false
	}
	return kept.value, true
}

// keep remembers value as the game's from decoded while the game is active (forget: not). A game
// over (or not begun) is let go: it is rarely read again, and keeping it filled the map with games
// long over (a soak's memory grew until 2,048 of them were held). When the limit is reached, some
// other game is forgotten: whichever the map gives first, which is as good as any for games read in
// bursts.
func (k *keptDecoded[K, T]) keep(id string, from K, value T, forget bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if forget {
		delete(k.byID, id)
		return
	}
	if _, ok := k.byID[id]; !ok && len(k.byID) >= decodedStatesLimit {
		for other := range k.byID {
			delete(k.byID, other)
			break
		}
	}
	k.byID[id] = decoded[K, T]{from: from, value: value}
}

// decodedStates keeps, for each game, the state of the snapshot read or written last, keyed by the
// game's version: every change of a game moves its version on (repo's SaveState writes a snapshot
// only with version + 1), so a version of a game is one snapshot, and the record's version (its
// stamp's) is the whole key. States are shared between requests: the engines never change a state
// (Apply returns a new one; views and legal actions only read it).
type decodedStates struct {
	kept *keptDecoded[snapshotAt, domain.State]
	// checked, when set (tests), keeps each state's snapshot too, and panics when a snapshot is read
	// at a version whose kept state was decoded from other bytes: two snapshots of one game that
	// share a version.
	checked bool
}

// snapshotAt is a game's version and, only when checked, its snapshot.
type snapshotAt struct {
	version  int64
	snapshot []byte
}

func newDecodedStates() *decodedStates {
	d := &decodedStates{checked: checkDecodedStates}
	d.kept = newKeptDecoded[snapshotAt, domain.State](func(kept, read snapshotAt) bool {
		if kept.version != read.version {
			return false
		}
		if d.checked && !bytes.Equal(kept.snapshot, read.snapshot) {
			panic(fmt.Sprintf("two snapshots of one game at version %d:\nkept %s\nread %s", read.version, kept.snapshot, read.snapshot))
		}
		return true
	})
	return d
}

// checkDecodedStates is whether new services check their kept states (tests set it).
var checkDecodedStates bool

func (d *decodedStates) at(rec *GameRecord) snapshotAt {
	at := snapshotAt{version: rec.Version}
	if d.checked {
		at.snapshot = rec.Snapshot
	}
	return at
}

// find is the state kept for the game's version, nil when it is not the one kept.
func (d *decodedStates) find(rec *GameRecord) domain.State {
	state, _ := d.kept.find(rec.ID, d.at(rec))
	return state
}

// keep remembers state as the game's snapshot at its version decoded, while the game is active.
func (d *decodedStates) keep(rec *GameRecord, state domain.State) {
	d.kept.keep(rec.ID, d.at(rec), state, rec.Status != StatusActive || state == nil || len(rec.Snapshot) == 0)
}
