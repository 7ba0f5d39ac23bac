package repo_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"primegames/domain/games"
	"primegames/play"
	"primegames/repo/repotest"
)

// The worker reads due games without locks, then claims one by its id: it passes over a game
// another transaction holds and one served since the read, and takes the next still due. (Each
// game has an owner of its own: the read takes one game per owner.)
func TestClaimDueGameSkipsHeldAndServedGames(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second) // a claim that waited on a lock would hang
	defer cancel()
	db := repotest.NewDB(t)
	master := play.New(db.Games().Stores(), games.All())
	now := time.Now()
	var ids []string
	for age := 3; age > 0; age-- {
		created, err := master.Create(ctx, play.NewGame{Kind: "primed", Players: []string{"Ada", "Bo"}, Address: fmt.Sprint("192.0.2.", age)},
			play.Nobody, nil)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, created.Game.ID)
		if _, err := db.Pool.Exec(ctx, `UPDATE games SET bot_due_at = $2 WHERE id = $1`, created.Game.ID, now.Add(-time.Duration(age)*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	due := play.Due{Work: play.DueBot, Now: now}
	found, err := db.Games().DueGames(ctx, []play.Due{due}, 4)
	candidates := dueIDs(found[0])
	if err != nil || !slices.Equal(slices.Sorted(slices.Values(candidates)), slices.Sorted(slices.Values(ids))) {
		t.Fatalf("due games %v (%v), want %v", candidates, err, ids)
	}
	// The claim goes through the candidates in their order: held first, then no longer due, then due.
	candidates = []string{ids[0], ids[1], ids[2]}

	held, err := db.Pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = held.Rollback(ctx) }()
	if _, err := held.Exec(ctx, `SELECT FROM games WHERE id = $1 FOR UPDATE`, ids[0]); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Pool.Exec(ctx, `UPDATE games SET bot_due_at = $2 WHERE id = $1`, ids[1], now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	claim := func() (string, error) {
		var id string
		err := db.Games().Update(ctx, now, func(tx play.Tx) error {
			g, err := tx.ClaimDueGame(ctx, due, candidates)
			if err == nil {
				id = g.ID
			}
			return err
		})
		return id, err
	}
	if id, err := claim(); err != nil || id != ids[2] {
		t.Fatalf("claimed %q (%v), want %s: the first is held, the second no longer due", id, err, ids[2])
	}
	candidates = candidates[:2]
	if id, err := claim(); !errors.Is(err, play.ErrNotFound) {
		t.Fatalf("claimed %q (%v) from a held game and one no longer due, want none", id, err)
	}
}

func dueIDs(due []play.DueGame) []string {
	ids := make([]string, len(due))
	for i, g := range due {
		ids[i] = g.ID
	}
	return ids
}

// The read of due games takes the owners in turn: one game per owner, the soonest due of each, and
// from the owner after the one served last, wrapping around; the games with a person in them and
// those with none are read apart.
func TestDueGamesTakeOwnersInTurn(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := repotest.NewDB(t)
	master := play.New(db.Games().Stores(), games.All())
	now := time.Now()
	create := func(address string, age time.Duration, players ...string) string {
		t.Helper()
		in := play.NewGame{Kind: "primed", Players: players, Address: address}
		if len(players) == 0 {
			in.Bots = []play.BotSeat{{Seat: 0, Level: "random"}, {Seat: 1, Level: "random"}}
		}
		created, err := master.Create(ctx, in, play.Nobody, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Pool.Exec(ctx, `UPDATE games SET bot_due_at = $2 WHERE id = $1`, created.Game.ID, now.Add(-age)); err != nil {
			t.Fatal(err)
		}
		return created.Game.ID
	}
	var flood []string
	for i := range 6 {
		flood = append(flood, create("198.51.100.1", time.Duration(10+i)*time.Minute, "Ada", "Bo"))
	}
	other := create("198.51.100.2", time.Second, "Cy", "Di")
	computer := create("198.51.100.2", time.Hour)

	read := func(work play.DueWork, after []byte) []play.DueGame {
		t.Helper()
		due, err := db.Games().DueGames(ctx, []play.Due{{Work: work, Now: now, After: after}}, 4)
		if err != nil {
			t.Fatal(err)
		}
		return due[0]
	}
	first := read(play.DueBot, nil)
	if ids := dueIDs(first); len(ids) != 2 || !slices.Contains(ids, other) || !slices.Contains(ids, flood[5]) {
		t.Fatalf("due games %v, want one per owner: %s (the flood's longest due) and %s", ids, flood[5], other)
	}
	for i, g := range first {
		again := read(play.DueBot, g.Owner)
		if len(again) != 2 || again[0].ID != first[(i+1)%2].ID || again[1].ID != g.ID {
			t.Errorf("after owner %d: due games %v, want the other owner's first, then this one's", i, dueIDs(again))
		}
	}
	if ids := dueIDs(read(play.DueComputerGame, nil)); !slices.Equal(ids, []string{computer}) {
		t.Errorf("due games with no person %v, want %s", ids, computer)
	}
	// The queue depth counts due games no further than it is asked to.
	for atMost, want := range map[int]int{3: 3, 10: 7} {
		if n, err := db.Games().DueCount(ctx, play.Due{Work: play.DueBot, Now: now}, atMost); err != nil || n != want {
			t.Errorf("DueCount up to %d: %d, %v; want %d", atMost, n, err, want)
		}
	}
	// Abandoned games take no turns: every one due is read, whichever owner the worker served last
	// (a classroom's game once stayed unread after an address's game was served).
	abandoned := func(after []byte) []string {
		t.Helper()
		due, err := db.Games().DueGames(ctx, []play.Due{{Work: play.DueAbandoned, Now: now.Add(time.Hour), After: after}}, 10)
		if err != nil {
			t.Fatal(err)
		}
		return dueIDs(due[0])
	}
	all := abandoned(nil)
	for _, g := range first {
		if got := abandoned(g.Owner); len(got) != len(all) || len(all) != 8 {
			t.Errorf("abandoned games after owner %x: %v, want all %d: %v", g.Owner, got, 8, all)
		}
	}
}
