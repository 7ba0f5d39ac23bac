package play_test

import (
	"context"
	"testing"

	"primegames/domain/games"
	"primegames/play"
	"primegames/repo/repotest"
)

// A kept result answers retries for IdempotencyKeyLifetime; after that the key starts afresh and
// the purge removes what is left.
func TestIdempotencyKeysExpire(t *testing.T) {
	ctx := context.Background()
	db := repotest.NewDB(t)
	master := play.New(db.Games(), games.All())
	key := "3f1c9a52-7d4e-4b8a-9c61-0e2f5b7a8d13"
	create := func() string {
		t.Helper()
		created, err := master.Create(ctx, play.NewGame{Kind: "primed", OpenSeats: 2}, play.Nobody, play.NewIdempotency(&key, []byte("h")))
		if err != nil {
			t.Fatal(err)
		}
		return created.Game.ID
	}
	games := func() (n int) {
		t.Helper()
		if err := db.Pool.QueryRow(ctx, `SELECT count(*) FROM games`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	expire := func() {
		t.Helper()
		if _, err := db.Pool.Exec(ctx, `UPDATE idempotency_keys SET created_at = now() - interval '25 hours'`); err != nil {
			t.Fatal(err)
		}
	}

	first := create()
	if retry := create(); retry != first || games() != 1 {
		t.Fatalf("a retry within the lifetime created another game")
	}
	expire()
	if n, err := db.PurgeIdempotencyKeys(ctx); err != nil || n != 1 {
		t.Fatalf("purged %d (%v), want 1", n, err)
	}
	if fresh := create(); fresh == first || games() != 2 {
		t.Fatal("an expired key should act afresh")
	}
	// An expired response that the purge has not reached yet is replaced, not a conflict.
	expire()
	create()
	if games() != 3 {
		t.Fatalf("games = %d, want 3", games())
	}
}
