package play_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"primegames/domain"
	"primegames/domain/games"
	"primegames/play"
	"primegames/play/playclock"
	"primegames/repo"
	"primegames/repo/repotest"
)

// A kept result answers retries for IdempotencyKeyLifetime; after that the key starts afresh and
// the purge removes what is left.
func TestIdempotencyKeysExpire(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := repotest.NewDB(t)
	clock := playclock.New(time.Now())
	master := play.New(db.Games().Stores(), games.All(), play.WithClock(clock))
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
	expire := func() { clock.Advance(repo.IdempotencyKeyLifetime + time.Hour) }

	first := create()
	if retry := create(); retry != first || games() != 1 {
		t.Fatalf("a retry within the lifetime created another game")
	}
	expire()
	if n, err := db.PurgeIdempotencyKeys(ctx, clock.Now().Add(-2*time.Hour)); err != nil || n != 0 {
		t.Fatalf("purged %d (%v) an hour before the key expired, want none", n, err)
	}
	if n, err := db.PurgeIdempotencyKeys(ctx, clock.Now()); err != nil || n != 1 {
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

// An action's key is kept with the history entry it appended; a key that an earlier release kept
// in a row of its own (before migration 00015, or from an old instance during a rolling upgrade)
// still answers its retries, so no upgrade makes a retried action act twice.
func TestActionKeysKeptInTheirOwnRowStillAnswer(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, master, created, mover := climbForTwo(t)
	id := created.Game.ID
	seat := created.Game.State.Status().ToAct[0]
	entries := func() (n int) {
		t.Helper()
		if err := db.Pool.QueryRow(ctx, `SELECT count(*) FROM actions WHERE game_id = $1`, id).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	act := func(body, key string) (*play.Acted, error) {
		return master.Act(ctx, play.Action{GameID: id, Action: json.RawMessage(body)}, mover, play.NewIdempotency(&key, []byte(body)))
	}

	roll := `{"type":"roll"}`
	if _, err := master.Act(ctx, play.Action{GameID: id, Action: json.RawMessage(roll)}, mover, nil); err != nil {
		t.Fatal(err)
	}
	oldKey := "kept-the-old-way"
	if err := db.Games().Update(ctx, time.Now(), func(tx play.Tx) error {
		return play.KeepActionKeyInItsOwnRow(ctx, tx, mover, id, oldKey, json.RawMessage(roll), 1)
	}); err != nil {
		t.Fatal(err)
	}
	// A second roll would be refused (PC-4: the roll is followed by a move), so only the kept
	// answer can make this retry succeed.
	retried, err := act(roll, oldKey)
	if err != nil || retried.Entry.Seq != 1 || entries() != 2 {
		t.Fatalf("retry of a key kept in its own row = %+v, %v with %d entries; want the roll's entry 1 and 2 entries", retried, err, entries())
	}
	if _, err := act(`{"type":"pass"}`, oldKey); domain.ErrorCode(err) != "idempotency_key_reused" {
		t.Fatalf("the old key with another body = %v, want idempotency_key_reused", err)
	}

	move := string(firstLegalAction(t, retried.Game.State, seat))
	first, err := act(move, "kept-on-the-entry")
	if err != nil {
		t.Fatal(err)
	}
	var onEntry int
	if err := db.Pool.QueryRow(ctx, `SELECT count(*) FROM actions WHERE game_id = $1 AND seq = $2 AND key_lookup IS NOT NULL`, id, first.Entry.Seq).
		Scan(&onEntry); err != nil || onEntry != 1 {
		t.Fatalf("the move's entry carries %d keys (%v), want 1", onEntry, err)
	}
	again, err := act(move, "kept-on-the-entry")
	if err != nil || again.Entry.Seq != first.Entry.Seq || again.Game.Version != first.Game.Version || entries() != 3 {
		t.Fatalf("retry of the move = %+v, %v with %d entries; want entry %d, version %d and 3 entries", again, err, entries(), first.Entry.Seq, first.Game.Version)
	}
	if _, err := act(roll, "kept-on-the-entry"); domain.ErrorCode(err) != "idempotency_key_reused" {
		t.Fatalf("the entry's key with another body = %v, want idempotency_key_reused", err)
	}
}
