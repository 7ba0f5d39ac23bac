package play

import (
	"bytes"
	"sync"

	"primegames/domain"
)

// decodedStatesLimit bounds the games whose state is kept decoded: a state is a few kilobytes, and
// the games being played right now are the ones read again.
const decodedStatesLimit = 2048

// decodedStates keeps, for each game, the state of the snapshot read or written last, so that the
// requests following an action (the next player's legal actions, then their action) need not decode
// what the action has just encoded. A state is found only for the very snapshot bytes the caller
// has just read from the database, so it is never stale, whichever instance wrote it. States are
// shared between requests: the engines never change a state (Apply returns a new one; views and
// legal actions only read it).
type decodedStates struct {
	mu   sync.Mutex
	byID map[string]decodedState
}

type decodedState struct {
	snapshot []byte
	state    domain.State
}

func newDecodedStates() *decodedStates {
	return &decodedStates{byID: make(map[string]decodedState)}
}

// find is the state kept for the game's snapshot, nil when it is not the one kept.
func (d *decodedStates) find(id string, snapshot []byte) domain.State {
	d.mu.Lock()
	kept, ok := d.byID[id]
	d.mu.Unlock()
	if !ok || !bytes.Equal(kept.snapshot, snapshot) {
		return nil
	}
	return kept.state
}

// keep remembers state as the game's snapshot decoded while the game is active. A game over (or
// not begun) is let go: it is rarely read again, and keeping it filled the map with games long
// over (a soak's memory grew until 2,048 of them were held). When the limit is reached, some other
// game is forgotten: whichever the map gives first, which is as good as any for games read in
// bursts.
func (d *decodedStates) keep(id string, active bool, snapshot []byte, state domain.State) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if !active || state == nil {
		delete(d.byID, id)
		return
	}
	if _, ok := d.byID[id]; !ok && len(d.byID) >= decodedStatesLimit {
		for other := range d.byID {
			delete(d.byID, other)
			break
		}
	}
	d.byID[id] = decodedState{snapshot: snapshot, state: state}
}
