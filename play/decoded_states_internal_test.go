package play

import (
	"strings"
	"testing"

	"primegames/domain"
)

type stubState struct{ domain.State }

// A kept state is found for its game's version, not for another version or game; checked, a
// snapshot read at a kept version but other than the one decoded is caught.
func TestDecodedStatesAreKeyedByVersionAndCheckTheirSnapshot(t *testing.T) {
	t.Parallel()
	states := newDecodedStates()
	if !states.checked {
		t.Fatal("play's tests run without the check of kept states")
	}
	kept := &stubState{}
	rec := &GameRecord{ID: "g", Version: 3, Status: StatusActive, Snapshot: []byte(`{"turn":1}`)}
	states.keep(rec, kept)
	if got := states.find(&GameRecord{ID: "g", Version: 3, Snapshot: []byte(`{"turn":1}`)}); got != kept {
		t.Fatalf("found %v at the kept version, want the kept state", got)
	}
	for name, other := range map[string]*GameRecord{
		"the next version": {ID: "g", Version: 4, Snapshot: []byte(`{"turn":2}`)},
		"another game":     {ID: "h", Version: 3, Snapshot: []byte(`{"turn":1}`)},
	} {
		if got := states.find(other); got != nil {
			t.Errorf("%s: found %v, want none", name, got)
		}
	}

	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "two snapshots of one game at version 3") {
			t.Errorf("a second snapshot at a kept version: %v, want it caught", r)
		}
	}()
	states.find(&GameRecord{ID: "g", Version: 3, Snapshot: []byte(`{"turn":9}`)})
}

// A game over is let go.
func TestDecodedStatesForgetAGameOver(t *testing.T) {
	t.Parallel()
	states := newDecodedStates()
	rec := &GameRecord{ID: "g", Version: 3, Status: StatusActive, Snapshot: []byte(`{}`)}
	states.keep(rec, &stubState{})
	over := &GameRecord{ID: "g", Version: 4, Status: StatusFinished, Snapshot: []byte(`{}`)}
	states.keep(over, &stubState{})
	if _, ok := states.kept.byID["g"]; ok {
		t.Fatal("a finished game's state is kept")
	}
}
