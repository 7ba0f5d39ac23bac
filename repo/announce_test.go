package repo_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"primegames/domain/games"
	"primegames/play"
	"primegames/repo"
	"primegames/repo/repotest"
)

// notices listens on db's game events until the test ends, and returns the notices heard, once
// the listener is connected.
func notices(t *testing.T, db *repo.DB) <-chan repo.GameNotice {
	t.Helper()
	heard := make(chan repo.GameNotice, 100)
	listen(t, db, repo.GameListener{Notice: func(n repo.GameNotice) { heard <- n }})
	return heard
}

// listen runs l on db until the test ends, and returns once it is connected.
func listen(t *testing.T, db *repo.DB, l repo.GameListener) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	connected, done := make(chan struct{}, 1), make(chan struct{})
	l.Connected = func() {
		select {
		case connected <- struct{}{}:
		default:
		}
	}
	go func() {
		defer close(done)
		db.ListenGameEvents(ctx, l)
	}()
	t.Cleanup(func() { cancel(); <-done })
	select {
	case <-connected:
	case <-time.After(30 * time.Second):
		t.Fatal("the listener did not connect")
	}
}

// Every change of a game is announced at its commit (migration 00026's trigger), whoever made it,
// ending with the version committed; a transaction rolled back announces nothing.
func TestEveryChangeOfAGameIsAnnouncedAtCommit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := repotest.NewDB(t)
	heard := notices(t, db)
	master := play.New(db.Games().Stores(), games.All())
	created, err := master.Create(ctx, play.NewGame{Kind: "primed", Players: []string{"Ada", "Ben"}}, play.Nobody, nil)
	if err != nil {
		t.Fatal(err)
	}
	id := created.Game.ID
	next := func(what string) repo.GameNotice {
		t.Helper()
		select {
		case n := <-heard:
			return n
		case <-time.After(30 * time.Second):
			t.Fatalf("no notice %s", what)
			return repo.GameNotice{}
		}
	}
	// Notices of game id up to version v; any other game's fails the test.
	through := func(gameID string, v int64, what string) {
		t.Helper()
		for {
			n := next(what)
			if n.GameID != gameID || n.Version > v {
				t.Fatalf("%s: heard %+v, want game %s up to version %d", what, n, gameID, v)
			}
			if n.Version == v {
				return
			}
		}
	}
	through(id, created.Game.Version, "of the creation") // created (version 0), then started
	acted := actOnce(t, master, id, seatPrincipals(created))
	through(id, acted.Game.Version, "of the action")

	// A transaction that changes the game and then fails is rolled back and announces nothing.
	failed := errors.New("changed my mind")
	err = db.Games().Update(ctx, time.Now(), func(tx play.Tx) error {
		g, err := tx.LockGame(ctx, id)
		if err != nil {
			return err
		}
		if err := tx.SetTimeouts(ctx, id, 0, 3); err != nil {
			return err
		}
		_ = g
		return failed
	})
	if !errors.Is(err, failed) {
		t.Fatalf("update: %v", err)
	}
	other, err := master.Create(ctx, play.NewGame{Kind: "primed", Players: []string{"Cy", "Di"}}, play.Nobody, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Notices come in commit order: none between the first game's action and the second game's
	// creation may be the rolled-back change.
	through(other.Game.ID, other.Game.Version, "of the second game, after a rolled-back change of the first")

	// A change made outside the service's game transactions is announced by the trigger itself.
	if _, err := db.Pool.Exec(ctx, `UPDATE seats SET name = 'Zed' WHERE game_id = $1 AND seat = 0`, id); err != nil {
		t.Fatal(err)
	}
	if n := next("of the rename"); n.GameID != id || n.Version != acted.Game.Version {
		t.Fatalf("rename announced as %+v", n)
	}
}
