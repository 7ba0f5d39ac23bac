package play

import (
	"encoding/json"
	"fmt"
	"slices"

	"primegames/domain"
)

// GameTally is what a game's history after its start has told a class's statistics: each seat's
// counters, and the seats whose student resigned, whose later actions are the computer's and count
// for nobody (G-3). A game keeps its tally up to date in the transaction of each entry, so that a
// class's statistics read one small record per game, not the games' histories (issue 23).
type GameTally struct {
	Counts   domain.Counts `json:"counts"`
	Resigned []int         `json:"resigned,omitempty"`
}

// tallyFunc is a kind's domain.GameKind.Tally.
type tallyFunc = func(outcome json.RawMessage, counts domain.Counts) error

// add counts one entry of the game's history after its start; tally reads the outcomes of
// players' entries (a service entry counts nothing, though a resignation stops its seat's counting).
func (t *GameTally) add(tally tallyFunc, e OutcomeEntry) error {
	if e.Service {
		if e.Seat != nil && isResignation(e.Action) && !slices.Contains(t.Resigned, *e.Seat) {
			t.Resigned = append(t.Resigned, *e.Seat)
		}
		return nil
	}
	entryCounts := domain.Counts{}
	if err := tally(e.Outcome, entryCounts); err != nil {
		return fmt.Errorf("tallying game %s: %w", e.GameID, err)
	}
	for seat, named := range entryCounts {
		if slices.Contains(t.Resigned, seat) {
			continue
		}
		for name, n := range named {
			t.Counts.Add(seat, name, n)
		}
	}
	return nil
}

// kindTally is the Tally of a kind the catalogue holds (one a decoded game has).
func (sp *statistics) kindTally(kind string) tallyFunc {
	k, _ := sp.kinds.Lookup(kind)
	return k.Tally
}

// decodeTally reads a kept tally.
func decodeTally(gameID string, kept json.RawMessage) (*GameTally, error) {
	t := &GameTally{}
	if err := json.Unmarshal(kept, t); err != nil {
		return nil, fmt.Errorf("the kept tally of game %s: %w", gameID, err)
	}
	if t.Counts == nil {
		t.Counts = domain.Counts{}
	}
	return t, nil
}

// tallying is how an entry is counted into its game's tally: the kind's count of a player's
// outcome (service entries need none), or of the outcome as the rules gave it when the caller has
// it and the kind can (countOutcome), and the game's kept tally already decoded when the caller
// has it (countedTallies); tallyAfter leaves in after the tally the game keeps then.
type tallying struct {
	count        tallyFunc
	countOutcome func(domain.Outcome, domain.Counts) error
	outcome      domain.Outcome
	known        *GameTally
	after        *GameTally
}

// tallyAfter is the tally g keeps once e is appended: a fresh one at the start, and none (nil) when
// g keeps none that is current, which a statistics request then counts from the history once.
func tallyAfter(g *GameRecord, e *Entry, t *tallying) (json.RawMessage, error) {
	if t == nil {
		t = &tallying{}
	}
	t.after = &GameTally{Counts: domain.Counts{}}
	if e.Seq > 0 {
		if g.Tally == nil {
			t.after = nil
			return nil, nil
		}
		if t.after = t.known; t.after == nil {
			var err error
			if t.after, err = decodeTally(g.ID, g.Tally); err != nil {
				return nil, err
			}
		}
		count := t.count
		if t.outcome != nil && t.countOutcome != nil {
			count = func(_ json.RawMessage, counts domain.Counts) error { return t.countOutcome(t.outcome, counts) }
		}
		if err := t.after.add(count, OutcomeEntry{GameID: g.ID, Kind: g.Kind, Seat: e.Seat, Service: e.Service, Action: e.Action, Outcome: e.Outcome}); err != nil {
			return nil, err
		}
	}
	return t.after.appendJSON(make([]byte, 0, 64+256*len(t.after.Counts))), nil // about a seat's counters each
}
