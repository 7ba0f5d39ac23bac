package play_test

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"testing"
	"time"

	"primegames/domain"
	"primegames/domain/games"
	"primegames/play"
	"primegames/play/playclock"
	"primegames/repo/repotest"
)

// fairWorld is a service on a fake clock whose worker's passes the test makes one at a time,
// recording the job of each game served.
type fairWorld struct {
	t      *testing.T
	ctx    context.Context
	master *play.Service
	clock  *playclock.Clock
	mu     sync.Mutex
	served []play.DueWork
}

func newFairWorld(t *testing.T) *fairWorld {
	w := &fairWorld{t: t, ctx: context.Background(), clock: playclock.New(time.Now())}
	db := repotest.NewDB(t)
	w.master = play.New(db.Games().Stores(), games.All(), play.WithClock(w.clock))
	w.master.ObserveWorker(func(work play.DueWork, _ time.Duration) {
		w.mu.Lock()
		defer w.mu.Unlock()
		w.served = append(w.served, work)
	})
	return w
}

func (w *fairWorld) create(address, options string, people []string, bots int) *play.Game {
	w.t.Helper()
	in := play.NewGame{Kind: "primed", Options: json.RawMessage(options), Players: people, Address: address}
	for i := range bots {
		in.Bots = append(in.Bots, play.BotSeat{Seat: len(people) + i, Level: domain.LevelRandom})
	}
	created, err := w.master.Create(w.ctx, in, play.Nobody, nil)
	if err != nil {
		w.t.Fatal(err)
	}
	return created.Game
}

// passes makes n passes of the worker and returns the jobs served.
func (w *fairWorld) passes(n int) []play.DueWork {
	w.t.Helper()
	w.mu.Lock()
	w.served = nil
	w.mu.Unlock()
	for range n {
		if acted, err := w.master.ActForDueGame(w.ctx); !acted || err != nil {
			w.t.Fatalf("a pass: acted %v (%v)", acted, err)
		}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.served)
}

// One client's flood of games with no person, all due, does not hold up a turn whose time ran out
// nor a computer's move in a person's game, though both fell due after the flood's: the worker
// serves the turn, then the person's game, then the flood (issue 23).
func TestTheWorkerServesPeopleBeforeAFloodOfComputerGames(t *testing.T) {
	t.Parallel()
	w := newFairWorld(t)
	for range 8 {
		w.create("198.51.100.1", `{"bot_delay_ms":0}`, nil, 6)
	}
	w.clock.Advance(time.Second)
	w.create("198.51.100.2", `{"turn_seconds":3}`, []string{"Ada", "Bo"}, 0)
	w.create("198.51.100.3", `{"bot_delay_ms":0}`, []string{"Cy"}, 1)
	w.clock.Advance(4 * time.Second) // the turn's time runs out
	got := w.passes(4)
	if len(got) < 2 || got[0] != play.DueTurn {
		t.Fatalf("jobs served %v, want the turn out of time first", got)
	}
	// The person's game has its computer to move unless Cy moves first: then only the flood is left.
	for _, work := range got[1:] {
		if work == play.DueTurn {
			t.Errorf("jobs served %v: the turn served twice", got)
		}
	}
	if i := slices.Index(got, play.DueBot); i > 1 {
		t.Errorf("jobs served %v: the person's game waited behind the flood", got)
	}
}

// The owners of games with no person take turns: one owner's backlog of due games delays another
// owner's game, due after all of them, by one pass at most.
func TestTheWorkerTakesOwnersInTurn(t *testing.T) {
	t.Parallel()
	w := newFairWorld(t)
	for range 6 {
		w.create("198.51.100.1", `{"bot_delay_ms":0}`, nil, 2)
	}
	w.clock.Advance(time.Second)
	other := w.create("198.51.100.2", `{"bot_delay_ms":0}`, nil, 2)
	w.passes(2)
	after, err := w.master.Load(w.ctx, other.ID)
	if err != nil {
		t.Fatal(err)
	}
	if after.Version == other.Version {
		t.Errorf("the other owner's game is still at version %d after two passes: it waited behind the flood", after.Version)
	}
}
