package play

import (
	"bytes"
	"maps"
	"slices"
)

// countedTallies keeps, for each active game, its kept tally decoded, as decodedStates keeps its
// state: an action adds its entry to the game's tally, and decoding the tally it has just encoded
// cost an accepted action more than the rest of its counting. A tally is handed out as a copy,
// which the caller may change.
type countedTallies struct {
	kept *keptDecoded[[]byte, *GameTally]
}

func newCountedTallies() *countedTallies {
	return &countedTallies{kept: newKeptDecoded[[]byte, *GameTally](func(kept, read []byte) bool {
		return read != nil && bytes.Equal(kept, read)
	})}
}

// find is a copy of the tally kept for the game's kept bytes, nil when it is not the one kept.
func (c *countedTallies) find(id string, kept []byte) *GameTally {
	if tally, ok := c.kept.find(id, kept); ok {
		return tally.clone()
	}
	return nil
}

// keep remembers tally as the game's kept bytes decoded while the game is active. The tally is the
// caller's no more.
func (c *countedTallies) keep(id string, active bool, kept []byte, tally *GameTally) {
	c.kept.keep(id, kept, tally, !active || tally == nil || kept == nil)
}

func (t *GameTally) clone() *GameTally {
	out := &GameTally{Counts: make(map[int]map[string]int, len(t.Counts)), Resigned: slices.Clone(t.Resigned)}
	for seat, named := range t.Counts {
		out.Counts[seat] = maps.Clone(named)
	}
	return out
}
