package repo_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"primegames/domain/games"
	"primegames/play"
	"primegames/repo/repotest"
)

// The worker reads due games without locks, then claims one by its id: it passes over a game
// another transaction holds and one served since the read, and takes the next still due.
func TestClaimDueGameSkipsHeldAndServedGames(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second) // a claim that waited on a lock would hang
	defer cancel()
	db := repotest.NewDB(t)
	master := play.New(db.Games(), games.All())
	now := time.Now()
	var ids []string
	for age := 3; age > 0; age-- {
		created, err := master.Create(ctx, play.NewGame{Kind: "primed", Players: []string{"Ada", "Bo"}}, play.Nobody, nil)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, created.Game.ID)
		if _, err := db.Pool.Exec(ctx, `UPDATE games SET bot_due_at = $2 WHERE id = $1`, created.Game.ID, now.Add(-time.Duration(age)*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	due := play.Due{Work: play.DueBot, Now: now}
	candidates, err := db.Games().DueGames(ctx, due, 4)
	if err != nil || !slices.Equal(candidates, ids) {
		t.Fatalf("due games %v (%v), want %v, longest due first", candidates, err, ids)
	}

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
