package repo_test

import (
	"context"
	"testing"
	"time"

	"primegames/play"
	"primegames/repo/repotest"
)

// An account holds at most play.MaxSessions browser sessions (a new one ends the oldest); a
// session counts as an authority until its absolute expiry; erasing the account ends them all.
func TestSessionsBoundedAndErasedWithTheirAccount(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := repotest.NewDB(t)
	store := db.Games()
	acc, err := store.UpsertAccount(ctx, "https://idp.example", "s-1", "Ms Rivera", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	var hashes [][]byte
	for i := 0; i <= play.MaxSessions; i++ {
		hash := play.IdentifyToken("pgb_session-"+string(rune('a'+i)), "").TokenHash
		hashes = append(hashes, hash)
		if err := store.InsertSession(ctx, acc.ID, hash, now.Add(time.Duration(i)*time.Second), now.Add(play.SessionLifetime)); err != nil {
			t.Fatal(err)
		}
	}
	at := now.Add(time.Hour)
	live := func(hash []byte) bool {
		t.Helper()
		id, err := store.AccountOfSession(ctx, hash, at, at.Add(-play.SessionIdle), at.Add(-time.Minute))
		return err == nil && id == acc.ID
	}
	if live(hashes[0]) || !live(hashes[1]) || !live(hashes[play.MaxSessions]) {
		t.Fatalf("after %d sign-ins: the oldest works %v, the second %v, the newest %v; want only the oldest ended",
			play.MaxSessions+1, live(hashes[0]), live(hashes[1]), live(hashes[play.MaxSessions]))
	}
	ended, _, err := store.EndedAuthorities(ctx, hashes[1:2], nil, now.Add(play.SessionLifetime+time.Second))
	if err != nil || len(ended) != 1 {
		t.Fatalf("a session past its 7 days counts as an authority: %v %v", ended, err)
	}
	if _, err := db.Pool.Exec(ctx, `DELETE FROM accounts WHERE id = $1`, acc.ID); err != nil {
		t.Fatal(err)
	}
	var left int
	if err := db.Pool.QueryRow(ctx, `SELECT count(*) FROM account_sessions WHERE account_id = $1`, acc.ID).Scan(&left); err != nil || left != 0 {
		t.Fatalf("sessions left after the account was erased: %d %v", left, err)
	}
}
