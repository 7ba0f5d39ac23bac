package play

import (
	"bytes"
	"sync"

	"primegames/domain"
)

// decodedStatesLimit bounds the games whose state (or tally) is kept decoded: a state is a few
// kilobytes, and the games being played right now are the ones read again.
const decodedStatesLimit = 2048

// keptDecoded keeps, for each active game, a value decoded from bytes the game's row holds (its
// snapshot, its tally), so that the requests following an action (the next player's legal
// actions, then their action) need not decode what the action has just encoded. A value is found
// only for the very bytes the caller has just read from the database, so it is never stale,
// whichever instance wrote it.
type keptDecoded[T any] struct {
	mu   sync.Mutex
	byID map[string]decoded[T]
}

type decoded[T any] struct {
	from  []byte
	value T
}

func newKeptDecoded[T any]() *keptDecoded[T] {
	return &keptDecoded[T]{byID: make(map[string]decoded[T])}
}

// find is the value kept for the game's bytes; false when it is not the one kept.
func (k *keptDecoded[T]) find(id string, from []byte) (T, bool) {
	k.mu.Lock()
	kept, ok := k.byID[id]
	k.mu.Unlock()
	if !ok || from == nil || !bytes.Equal(kept.from, from) {
		var none T
		return none, false
	}
	return kept.value, true
}

// keep remembers value as the game's bytes decoded while the game is active (forget: not). A game
// over (or not begun) is let go: it is rarely read again, and keeping it filled the map with games
// long over (a soak's memory grew until 2,048 of them were held). When the limit is reached, some
// other game is forgotten: whichever the map gives first, which is as good as any for games read in
// bursts.
func (k *keptDecoded[T]) keep(id string, from []byte, value T, forget bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if forget || from == nil {
		delete(k.byID, id)
		return
	}
	if _, ok := k.byID[id]; !ok && len(k.byID) >= decodedStatesLimit {
		for other := range k.byID {
			delete(k.byID, other)
			break
		}
	}
	k.byID[id] = decoded[T]{from: from, value: value}
}

// decodedStates keeps, for each game, the state of the snapshot read or written last. States are
// shared between requests: the engines never change a state (Apply returns a new one; views and
// legal actions only read it).
type decodedStates struct{ kept *keptDecoded[domain.State] }

func newDecodedStates() *decodedStates {
	return &decodedStates{kept: newKeptDecoded[domain.State]()}
}

// find is the state kept for the game's snapshot, nil when it is not the one kept.
func (d *decodedStates) find(id string, snapshot []byte) domain.State {
	state, _ := d.kept.find(id, snapshot)
	return state
}

// keep remembers state as the game's snapshot decoded while the game is active.
func (d *decodedStates) keep(id string, active bool, snapshot []byte, state domain.State) {
	d.kept.keep(id, snapshot, state, !active || state == nil)
}
