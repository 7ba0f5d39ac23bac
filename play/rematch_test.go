package play_test

import (
	"context"
	"sync"
	"testing"

	"primegames/domain/games"
	"primegames/play"
	"primegames/repo"
	"primegames/repo/repotest"
)

// finishedGame is a game of Ada (seat 0) and Bo (seat 1) that Ada ended by resigning (G-3), with
// its players' principals by seat.
func finishedGame(t *testing.T, master *play.Service) (string, []play.Principal) {
	t.Helper()
	ctx := context.Background()
	created, err := master.Create(ctx, play.NewGame{Kind: "primed", Players: []string{"Ada", "Bo"}}, play.Nobody, nil)
	if err != nil {
		t.Fatal(err)
	}
	players := make([]play.Principal, 2)
	for _, s := range created.SeatTokens {
		players[s.Seat] = play.IdentifyToken(s.Token, "")
	}
	if _, _, err := master.Resign(ctx, created.Game.ID, players[0], nil); err != nil {
		t.Fatal(err)
	}
	return created.Game.ID, players
}

// linkOf is the id of g's rematch, "" when it has none.
func linkOf(g *play.Game) string {
	if g == nil || g.RematchID == nil {
		return ""
	}
	return *g.RematchID
}

func gameCount(t *testing.T, db *repo.DB) int {
	t.Helper()
	var n int
	if err := db.Pool.QueryRow(context.Background(), `SELECT count(*) FROM games`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// Many players' requests for one game's rematch at once store one game, linked once: the rematch's
// id, derived from the finished game, lets the primary key refuse a second.
func TestConcurrentRematchesStoreOneGameLinkedOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := repotest.NewDB(t)
	master := play.New(db.Games().Stores(), games.All())
	oldID, players := finishedGame(t, master)
	before, err := master.Load(ctx, oldID)
	if err != nil {
		t.Fatal(err)
	}
	const requests = 16
	repotest.WarmPool(t, db, requests)
	var wg sync.WaitGroup
	answers, errs := make([]*play.Rematched, requests), make([]error, requests)
	start := make(chan struct{})
	for i := range requests {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			answers[i], errs[i] = master.Rematch(ctx, oldID, players[i%2])
		}()
	}
	close(start)
	wg.Wait()
	created := 0
	for i := range requests {
		if errs[i] != nil {
			t.Fatalf("request %d: %v", i, errs[i])
		}
		if answers[i].Created {
			created++
		}
		if answers[i].Game.ID != answers[0].Game.ID {
			t.Errorf("request %d got game %s, request 0 game %s", i, answers[i].Game.ID, answers[0].Game.ID)
		}
	}
	if created != 1 || gameCount(t, db) != 2 {
		t.Errorf("%d requests created a rematch and %d games are stored, want 1 and 2 (the finished game and its rematch)", created, gameCount(t, db))
	}
	after, err := master.Load(ctx, oldID)
	if err != nil {
		t.Fatal(err)
	}
	if linked := linkOf(after); linked != answers[0].Game.ID || after.Version != before.Version+1 {
		t.Errorf("the finished game links to %q at version %d, want %s at version %d (linked once)",
			linked, after.Version, answers[0].Game.ID, before.Version+1)
	}
}

// A request cut off after it stored the rematch, before it linked the finished game, leaves the
// rematch unlinked; the next request answers that game (as made before, not created) and links it.
func TestRematchStoredButNotLinkedIsLinkedByTheNextRequest(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := repotest.NewDB(t)
	master := play.New(db.Games().Stores(), games.All())
	oldID, players := finishedGame(t, master)
	storedID, err := master.StoreRematchOnly(ctx, oldID)
	if err != nil {
		t.Fatal(err)
	}
	if old, err := master.Load(ctx, oldID); err != nil || old.RematchID != nil {
		t.Fatalf("after the first transaction alone the finished game links to %q (%v), want none yet", linkOf(old), err)
	}
	r, err := master.Rematch(ctx, oldID, players[1])
	if err != nil {
		t.Fatal(err)
	}
	if r.Created || r.Game.ID != storedID || r.Caller.Seat != 0 {
		t.Errorf("the next request: created %v, game %s, seat %d; want the stored game %s, seat 0, not created", r.Created, r.Game.ID, r.Caller.Seat, storedID)
	}
	old, err := master.Load(ctx, oldID)
	if err != nil {
		t.Fatal(err)
	}
	if linkOf(old) != storedID {
		t.Errorf("the finished game links to %q, want %s", linkOf(old), storedID)
	}
	if n := gameCount(t, db); n != 2 {
		t.Errorf("%d games stored, want 2", n)
	}
}
