package play_test

import (
	"context"
	"encoding/json"
	"runtime"
	"testing"

	"primegames/domain"
	"primegames/domain/games"
	"primegames/play"
	"primegames/repo/repotest"
)

// allocationBudget is what one accepted action and one GET of a game may allocate on the server
// through the game master and the real store (pgx included), per kind: about 20 % over what they
// measured (docs/performance.md, "Allocation budget"). An action's allocations grow with nothing but
// its own state; a budget exceeded means work was added to every request.
var allocationBudget = map[string]struct{ action, get float64 }{
	"prime-climb": {action: 360, get: 135}, // measured 298–299 and 104–110
	"primed":      {action: 340, get: 135}, // measured 280–283 and 108–111
}

// The allocations of an accepted action and of a GET of a game stay within their budget. The mean
// over many actions of games played with the first legal action is measured; the legal actions are
// worked out outside the count. Not parallel: the count is the process's, and the parallel tests
// wait while this one runs.
func TestActionAndGetAllocationsWithinBudget(t *testing.T) {
	db := repotest.NewDB(t)
	master := play.New(db.Games().Stores(), games.All())
	for kind, budget := range allocationBudget {
		p := newAllocPlay(t, master, kind, 2)
		p.actions(t, 10) // prepares the statements on the connections
		action := meanAllocs(60, func() func() { return p.next(t) })
		get := meanAllocs(60, func() func() { return p.get(t) })
		t.Logf("%s: %.0f allocations per accepted action (budget %.0f), %.0f per GET of a game (budget %.0f)", kind, action, budget.action, get,
			budget.get)
		if action > budget.action {
			t.Errorf("%s: an accepted action allocates %.0f times, over its budget of %.0f", kind, action, budget.action)
		}
		if get > budget.get {
			t.Errorf("%s: a GET of a game allocates %.0f times, over its budget of %.0f", kind, get, budget.get)
		}
	}
}

// BenchmarkAcceptedAction is one accepted action through the game master and the real store; the
// choice of the action (its legal actions) is not counted.
func BenchmarkAcceptedAction(b *testing.B) {
	benchmarkEachKind(b, func(b *testing.B, p *allocPlay) {
		p.actions(b, 10)
		b.ResetTimer()
		for range b.N {
			b.StopTimer()
			act := p.next(b)
			b.StartTimer()
			act()
		}
	})
}

// BenchmarkGetGame is a GET of an active game by one of its players through the game master.
func BenchmarkGetGame(b *testing.B) {
	benchmarkEachKind(b, func(b *testing.B, p *allocPlay) {
		p.actions(b, 3)
		get := p.get(b)
		b.ResetTimer()
		for range b.N {
			get()
		}
	})
}

// benchmarkEachKind runs bench for two-player games of each kind, reporting allocations.
func benchmarkEachKind(b *testing.B, bench func(b *testing.B, p *allocPlay)) {
	db := repotest.NewDB(b)
	master := play.New(db.Games().Stores(), games.All())
	for _, kind := range []string{"prime-climb", "primed"} {
		b.Run(kind, func(b *testing.B) {
			b.ReportAllocs()
			bench(b, newAllocPlay(b, master, kind, 2))
		})
	}
}

// allocPlay plays games of a kind with the first legal action that does not win, a new game when
// one ends.
type allocPlay struct {
	ctx     context.Context
	master  *play.Service
	kind    string
	players int
	game    *play.Game
	seats   []play.Principal
}

func newAllocPlay(tb testing.TB, master *play.Service, kind string, players int) *allocPlay {
	p := &allocPlay{ctx: context.Background(), master: master, kind: kind, players: players}
	p.newGame(tb)
	return p
}

func (p *allocPlay) newGame(tb testing.TB) {
	created, err := p.master.Create(p.ctx, play.NewGame{Kind: p.kind, Players: []string{"Ada", "Bo", "Cy", "Di"}[:p.players]}, play.Nobody, nil)
	if err != nil {
		tb.Fatal(err)
	}
	p.game, p.seats = created.Game, make([]play.Principal, p.players)
	for _, st := range created.SeatTokens {
		p.seats[st.Seat] = play.IdentifyToken(st.Token, "")
	}
}

// next prepares the next action, in a new game when the last one ended, and returns it to run.
func (p *allocPlay) next(tb testing.TB) func() {
	if p.game.State.Status().Finished {
		p.newGame(tb)
	}
	seat := p.game.State.Status().ToAct[0]
	in := play.Action{GameID: p.game.ID, Action: legalAction(tb, p.game.State, seat)}
	return func() {
		acted, err := p.master.Act(p.ctx, in, p.seats[seat], nil)
		if err != nil {
			tb.Fatal(err)
		}
		p.game = acted.Game
	}
}

func (p *allocPlay) actions(tb testing.TB, n int) {
	for range n {
		p.next(tb)()
	}
}

// get returns a GET of the game as its first player sees it, the view encoded.
func (p *allocPlay) get(tb testing.TB) func() {
	if p.game.State.Status().Finished {
		p.newGame(tb)
	}
	id := p.game.ID
	return func() {
		g, caller, err := p.master.Get(p.ctx, id, p.seats[0])
		if err != nil {
			tb.Fatal(err)
		}
		if _, err := json.Marshal(g.State.View(domain.Player(caller.Seat))); err != nil {
			tb.Fatal(err)
		}
	}
}

// meanAllocs is the mean number of allocations of the calls that prepare returns, each counted
// alone (what prepare itself allocates is not).
func meanAllocs(n int, prepare func() func()) float64 {
	var ms runtime.MemStats
	var total uint64
	for range n {
		call := prepare()
		runtime.ReadMemStats(&ms)
		before := ms.Mallocs
		call()
		runtime.ReadMemStats(&ms)
		total += ms.Mallocs - before
	}
	return float64(total) / float64(n)
}

// legalAction is the action of seat's first legal action in state that does not win the game (a
// Prime Climb legal action says whether it does), or else of its first.
func legalAction(tb testing.TB, state domain.State, seat int) json.RawMessage {
	tb.Helper()
	encoded, err := json.Marshal(state.LegalActions(seat))
	if err != nil {
		tb.Fatal(err)
	}
	var legal []struct {
		Action json.RawMessage
		Wins   bool
	}
	if err := json.Unmarshal(encoded, &legal); err != nil || len(legal) == 0 {
		tb.Fatalf("seat %d has no legal action: %s %v", seat, encoded, err)
	}
	for _, la := range legal {
		if !la.Wins {
			return la.Action
		}
	}
	return legal[0].Action
}
