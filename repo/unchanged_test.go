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

// listeningGame is a Primed game for two on a fresh database whose records are kept (its listener
// runs), with the service that created it.
func listeningGame(t *testing.T) (*repo.DB, *play.Service, *play.Created) {
	t.Helper()
	db := repotest.NewDB(t)
	listenOn(t, db)
	svc := play.New(db.Games().Stores(), games.All())
	created, err := svc.Create(context.Background(), play.NewGame{Kind: "primed", Players: []string{"Ada", "Ben"}}, play.Nobody, nil)
	if err != nil {
		t.Fatal(err)
	}
	return db, svc, created
}

// A change worked out on a kept record (UpdateUnchanged) is applied only when the game is still as
// the record has it: at its version, with its next seq, and no entry kept under the action's key.
// Otherwise nothing of it is applied, and the game is as before.
func TestAChangeOnAKeptRecordIsAppliedOnlyToTheGameAsItWas(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, svc, created := listeningGame(t)
	store := db.Games()
	id, seats := created.Game.ID, seatPrincipals(created)
	kept := func() *play.GameRecord {
		t.Helper()
		if err := db.CatchUp(ctx); err != nil {
			t.Fatal(err)
		}
		if _, _, err := svc.Get(ctx, id, play.Nobody); err != nil {
			t.Fatal(err)
		}
		rec := store.KeptGame(id)
		if rec == nil {
			t.Fatal("no record is kept of a game just read")
		}
		return rec
	}
	bump := func(tx play.Tx) error {
		g, err := tx.LockGame(ctx, id)
		if err != nil {
			return err
		}
		return tx.BumpVersion(ctx, g)
	}
	version := func() int64 {
		t.Helper()
		g, err := svc.Load(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return g.Version
	}
	notApplied := func(what string, rec *play.GameRecord, lookup []byte, fn func(play.Tx) error) {
		t.Helper()
		before := version()
		if err := store.UpdateUnchanged(ctx, time.Now(), rec, lookup, fn); !errors.Is(err, play.ErrStale) {
			t.Errorf("%s: %v, want play.ErrStale", what, err)
		}
		if after := version(); after != before {
			t.Errorf("%s: the game went from version %d to %d", what, before, after)
		}
	}

	old := kept()
	actOnce(t, svc, id, seats)
	notApplied("a record one action old", old, nil, bump)

	current := kept()
	wrongSeq := *current
	wrongSeq.NextSeq++
	notApplied("a record with another next seq", &wrongSeq, nil, bump)

	lookup := []byte("a key's lookup")
	if _, err := db.Pool.Exec(ctx, `UPDATE actions SET key_lookup = $2 WHERE game_id = $1 AND seq = (SELECT max(seq) FROM actions WHERE game_id = $1)`,
		id, lookup); err != nil {
		t.Fatal(err)
	}
	notApplied("an entry kept under the lookup", current, lookup, bump)

	notApplied("a change that reads", current, nil, func(tx play.Tx) error {
		_, err := tx.InviteCodeInUse(ctx, "ABCDEF")
		return err
	})

	before := version()
	if err := store.UpdateUnchanged(ctx, time.Now(), current, []byte("another key's lookup"), bump); err != nil {
		t.Fatalf("on the game as it is: %v", err)
	}
	if after := version(); after != before+1 {
		t.Errorf("on the game as it is: version %d, want %d", after, before+1)
	}
}

// A change in one round trip whose connection is lost is settled on another connection: applied
// when its entry is in the history (the connection was lost after its implicit transaction
// committed), else not applied (play.ErrStale), so that the action can be done again.
func TestAChangeOnAKeptRecordWhoseConnectionIsLostIsSettled(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, svc, created := listeningGame(t)
	store := db.Games()
	id := created.Game.ID
	appendNote := func(tx play.Tx) error {
		g, err := tx.LockGame(ctx, id)
		if err != nil {
			return err
		}
		seq, err := tx.NextSeq(ctx, id)
		if err != nil {
			return err
		}
		if err := tx.BumpVersion(ctx, g); err != nil {
			return err
		}
		return tx.AppendEntry(ctx, id, &play.Entry{Seq: seq, Version: g.Version, Action: []byte(`{"type":"note"}`), Outcome: []byte(`{}`), Service: true})
	}
	entries := func() int {
		t.Helper()
		var n int
		if err := db.Pool.QueryRow(ctx, `SELECT count(*) FROM actions WHERE game_id = $1`, id).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	current := func() *play.GameRecord {
		t.Helper()
		g, err := svc.Load(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return &g.GameRecord
	}

	before := entries()
	if err := store.UpdateUnchangedThen(ctx, time.Now(), current(), appendNote, dieHere); !errors.Is(err, play.ErrStale) {
		t.Errorf("lost before its transaction committed: %v, want play.ErrStale", err)
	}
	if n := entries(); n != before {
		t.Errorf("lost before its transaction committed: %d entries, want %d", n, before)
	}
	if err := store.UpdateUnchangedThen(ctx, time.Now(), current(), appendNote, "commit", dieHere); err != nil {
		t.Errorf("lost once its transaction committed: %v, want applied", err)
	}
	if n := entries(); n != before+1 {
		t.Errorf("lost once its transaction committed: %d entries, want %d", n, before+1)
	}
}
