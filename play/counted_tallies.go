package play

import (
	"bytes"
	"maps"
	"slices"
	"sync"
)

// countedTallies keeps, for each active game, its kept tally decoded, as decodedStates keeps its
// state: an action adds its entry to the game's tally, and decoding the tally it has just encoded
// cost an accepted action more than the rest of its counting. A tally is found only for the very
// bytes the caller has just read from the database, so it is never stale, and is handed out as a
// copy, which the caller may change.
type countedTallies struct {
	mu   sync.Mutex
	byID map[string]countedTally
}

type countedTally struct {
	kept  []byte
	tally *GameTally
}

func newCountedTallies() *countedTallies {
	return &countedTallies{byID: make(map[string]countedTally)}
}

// find is a copy of the tally kept for the game's kept bytes, nil when it is not the one kept.
func (c *countedTallies) find(id string, kept []byte) *GameTally {
	if kept == nil {
		return nil
	}
	c.mu.Lock()
	counted, ok := c.byID[id]
	c.mu.Unlock()
	if !ok || !bytes.Equal(counted.kept, kept) {
		return nil
	}
	return counted.tally.clone()
}

// keep remembers tally as the game's kept bytes decoded while the game is active, within the
// bound of decodedStates and in the same way. The tally is the caller's no more.
func (c *countedTallies) keep(id string, active bool, kept []byte, tally *GameTally) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !active || kept == nil || tally == nil {
		delete(c.byID, id)
		return
	}
	if _, ok := c.byID[id]; !ok && len(c.byID) >= decodedStatesLimit {
		for other := range c.byID {
			delete(c.byID, other)
			break
		}
	}
	c.byID[id] = countedTally{kept: kept, tally: tally}
}

func (t *GameTally) clone() *GameTally {
	out := &GameTally{Counts: make(map[int]map[string]int, len(t.Counts)), Resigned: slices.Clone(t.Resigned)}
	for seat, named := range t.Counts {
		out.Counts[seat] = maps.Clone(named)
	}
	return out
}
