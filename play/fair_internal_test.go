package play

import (
	"bytes"
	"context"
	"slices"
	"sync"
	"testing"
	"time"
)

// fakeDues is an in-memory Dues and ScheduleTx with the store's rules for the worker: per job, the
// soonest due game of each owner, owners in the order of their keys from the one after Due.After,
// wrapping around; a claim takes the first candidate still due.
type fakeDues struct {
	mu    sync.Mutex
	games []fakeDueGame
	// afters are the Due.After the worker asked with, per job, in order.
	afters map[DueWork][]string
}

type fakeDueGame struct {
	id, owner string
	work      DueWork
	dueAt     time.Time
}

func (f *fakeDues) NextDue(context.Context) (*time.Time, error) { return nil, nil }

func (f *fakeDues) DueCount(_ context.Context, due Due, atMost int) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, g := range f.games {
		if g.work == due.Work && !g.dueAt.After(due.Now) {
			n++
		}
	}
	return min(n, atMost), nil
}

func (f *fakeDues) DueGames(_ context.Context, dues []Due, limit int) ([][]DueGame, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([][]DueGame, len(dues))
	for i, due := range dues {
		f.afters[due.Work] = append(f.afters[due.Work], string(due.After))
		soonest := map[string]fakeDueGame{}
		for _, g := range f.games {
			if s, ok := soonest[g.owner]; g.work == due.Work && !g.dueAt.After(due.Now) && (!ok || g.dueAt.Before(s.dueAt)) {
				soonest[g.owner] = g
			}
		}
		owners := make([]string, 0, len(soonest))
		for o := range soonest {
			owners = append(owners, o)
		}
		slices.Sort(owners)
		start, _ := slices.BinarySearchFunc(owners, due.After, func(o string, after []byte) int {
			if bytes.Compare([]byte(o), after) <= 0 {
				return -1
			}
			return 1
		})
		for j := range min(limit, len(owners)) {
			o := owners[(start+j)%len(owners)]
			out[i] = append(out[i], DueGame{ID: soonest[o].id, Owner: []byte(o)})
		}
	}
	return out, nil
}

func (f *fakeDues) Update(_ context.Context, _ time.Time, fn func(Tx) error) error {
	return fn(Tx{ScheduleTx: f})
}

func (f *fakeDues) ClaimDueGame(_ context.Context, due Due, candidates []string) (*GameRecord, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, id := range candidates {
		if i := slices.IndexFunc(f.games, func(g fakeDueGame) bool { return g.id == id && g.work == due.Work }); i >= 0 {
			g := f.games[i]
			f.games = slices.Delete(f.games, i, i+1) // served: due no more
			at := g.dueAt
			return &GameRecord{ID: g.id, BotDueAt: &at, TurnDeadline: &at}, nil
		}
	}
	return nil, ErrNotFound
}

func (f *fakeDues) ScheduleDeadline(context.Context, string, *time.Duration) error { return nil }
func (f *fakeDues) SetTimeouts(context.Context, string, int, int) error            { return nil }
func (f *fakeDues) ScheduleBot(context.Context, string, *time.Duration) error      { return nil }

// The worker's fair share against a fake of its ports, beside fair_test.go's over Postgres: jobs in
// their order of urgency, and within a job the owners in turn, each pass going on after the owner
// served last, however many games one owner has due.
func TestFairShareTakesJobsByUrgencyAndOwnersInTurn(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	now := time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)
	fake := &fakeDues{afters: map[DueWork][]string{}}
	for i := range 4 { // a flood, due first
		fake.games = append(fake.games, fakeDueGame{id: "flood" + string(rune('0'+i)), owner: "b", work: DueComputerGame, dueAt: now.Add(-time.Hour + time.Duration(i))})
	}
	fake.games = append(fake.games,
		fakeDueGame{id: "c0", owner: "c", work: DueComputerGame, dueAt: now.Add(-time.Second)},
		fakeDueGame{id: "a0", owner: "a", work: DueComputerGame, dueAt: now.Add(-time.Second)},
		fakeDueGame{id: "person", owner: "d", work: DueBot, dueAt: now.Add(-time.Millisecond)},
		fakeDueGame{id: "turn", owner: "e", work: DueTurn, dueAt: now},
		fakeDueGame{id: "later", owner: "a", work: DueBot, dueAt: now.Add(time.Minute)}, // not due yet
	)
	fair := newFairness(fake, fake) // the worker's claim holds these two ports and no other
	var served []string
	for {
		claimed, _, err := fair.claim(ctx, now, AbandonTTLs{}, []DueWork{DueTurn, DueBot, DueComputerGame}, func(DueWork, Tx, *GameRecord) error { return nil })
		if err != nil {
			t.Fatal(err)
		}
		if claimed == nil {
			break
		}
		served = append(served, claimed.ID)
	}
	// The turn, then the person's game, then the owners a, b, c in turn from the first, b's flood
	// in the order it fell due, one game a pass while another owner has one due.
	want := []string{"turn", "person", "a0", "flood0", "c0", "flood1", "flood2", "flood3"}
	if !slices.Equal(served, want) {
		t.Fatalf("served %v, want %v", served, want)
	}
	if got, want := fake.afters[DueComputerGame], []string{"", "", "", "a", "b", "c", "b", "b", "b"}; !slices.Equal(got, want) {
		t.Errorf("computer games asked for after the owners %q, want %q", got, want)
	}
	later := New(Stores{Dues: fake}, nil, WithClock(fixedClock{now.Add(time.Hour)}))
	if depth, err := later.QueueDepth(ctx); err != nil || depth[DueBot] != 1 || depth[DueTurn] != 0 || depth[DueComputerGame] != 0 {
		t.Errorf("queue depth in an hour: %v (%v), want the one bot not due before", depth, err)
	}
}

// fixedClock reads one time.
type fixedClock struct{ at time.Time }

func (c fixedClock) Now() time.Time { return c.at }

func (c fixedClock) Timer(time.Time) (<-chan time.Time, func()) {
	ch := make(chan time.Time, 1)
	ch <- c.at
	return ch, func() {}
}
