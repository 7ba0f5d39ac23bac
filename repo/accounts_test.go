package repo_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"primegames/domain/games"
	"primegames/live"
	"primegames/play"
	"primegames/repo/repotest"
)

// An account token counts as an authority while it is unexpired (EndedAuthorities, the streams'
// backstop), and its revocation is announced at commit as token_revoked (migration 00040).
func TestAccountTokenAuthorityAndItsRevocation(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := repotest.NewDB(t)
	heard := revocations(t, db)
	store := db.Games()
	master := play.New(store.Stores(), games.All())
	signed, err := master.SignIn(ctx, "https://idp.example", "subject-1", "Ms Rivera")
	if err != nil {
		t.Fatal(err)
	}
	hash := play.IdentifyToken(signed.Token, "").TokenHash
	now := time.Now()
	ended := func(at time.Time) bool {
		t.Helper()
		tokens, _, err := store.EndedAuthorities(ctx, [][]byte{hash}, nil, at)
		if err != nil {
			t.Fatal(err)
		}
		return len(tokens) == 1
	}
	if ended(now) {
		t.Fatal("a working account token counts as ended: its streams would end at every heartbeat")
	}
	if !ended(now.Add(play.AccountTokenLifetime + time.Hour)) {
		t.Fatal("an expired account token still counts")
	}
	if err := store.DeleteAccountToken(ctx, signed.Account.ID, signed.Info.ID); err != nil {
		t.Fatal(err)
	}
	select {
	case r := <-heard:
		if r.Key != live.TokenAuthority(hash) || r.Reason != live.TokenRevoked {
			t.Errorf("heard %+v, want token_revoked of the account token", r)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the revocation was not announced")
	}
	if !ended(now) {
		t.Fatal("a revoked account token still counts")
	}
}

// A sign-in under way is taken once, and not after it expires; an account holds at most
// MaxAccountTokens; a classroom has one owning account.
func TestPendingSignInsTokensAndOwners(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	store := repotest.NewDB(t).Games()
	now := time.Now()
	pending := play.PendingSignIn{Nonce: "n", Verifier: "v"}
	if err := store.SavePendingSignIn(ctx, []byte("state-1"), pending, now, now.Add(play.SignInLifetime)); err != nil {
		t.Fatal(err)
	}
	if got, err := store.TakePendingSignIn(ctx, []byte("state-1"), now); err != nil || *got != pending {
		t.Fatalf("take = %+v, %v", got, err)
	}
	if _, err := store.TakePendingSignIn(ctx, []byte("state-1"), now); !errors.Is(err, play.ErrNotFound) {
		t.Fatalf("taken twice: %v", err)
	}
	if err := store.SavePendingSignIn(ctx, []byte("state-2"), pending, now, now.Add(play.SignInLifetime)); err != nil {
		t.Fatal(err)
	}
	if _, err := store.TakePendingSignIn(ctx, []byte("state-2"), now.Add(play.SignInLifetime)); !errors.Is(err, play.ErrNotFound) {
		t.Fatalf("taken after it expired: %v", err)
	}

	ada, err := store.UpsertAccount(ctx, "https://idp.example", "ada", "Ada", now)
	if err != nil {
		t.Fatal(err)
	}
	for i := range play.MaxAccountTokens {
		if _, err := store.InsertAccountToken(ctx, ada.ID, "t", []byte{byte(i), 1}, now, now.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := store.InsertAccountToken(ctx, ada.ID, "t", []byte{0, 2}, now, now.Add(time.Hour)); !errors.Is(err, play.ErrTaken) {
		t.Fatalf("token %d: %v, want ErrTaken", play.MaxAccountTokens+1, err)
	}
	if _, err := store.InsertAccountToken(ctx, ada.ID, "t", []byte{0, 3}, now.Add(2*time.Hour), now.Add(3*time.Hour)); err != nil {
		t.Fatalf("once the others expired: %v", err)
	}

	ben, err := store.UpsertAccount(ctx, "https://idp.example", "ben", "Ben", now)
	if err != nil {
		t.Fatal(err)
	}
	class, err := store.InsertOwnedClassroom(ctx, ada.ID, "4B", "ABCD-2345", []byte("teacher-hash"))
	if err != nil {
		t.Fatal(err)
	}
	if err := store.SetClassroomOwner(ctx, class.ID, ben.ID); !errors.Is(err, play.ErrTaken) {
		t.Fatalf("another account took the classroom: %v", err)
	}
	if owner, err := store.ClassroomOwner(ctx, class.ID); err != nil || owner != ada.ID {
		t.Fatalf("owner = %q, %v", owner, err)
	}
}

// An account owns at most MaxOwnedClassrooms, made or attached; one it owns already may be
// attached again, and the classrooms of LTI courses do not count.
func TestOwnedClassroomsAreBounded(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := repotest.NewDB(t)
	store := db.Games()
	now := time.Now()
	ada, err := store.UpsertAccount(ctx, "https://idp.example", "ada", "Ada", now)
	if err != nil {
		t.Fatal(err)
	}
	first, err := store.InsertOwnedClassroom(ctx, ada.ID, "Room 1", "AAAA-0001", []byte("hash-1"))
	if err != nil {
		t.Fatal(err)
	}
	// The rest at once, as a store of many classrooms would hold them.
	if _, err := db.Pool.Exec(ctx, `INSERT INTO classrooms (name, join_code, teacher_token_hash, account_id)
		SELECT 'Room ' || i, 'FILL-' || i, ('\x' || lpad(to_hex(i), 8, '0'))::bytea, $1 FROM generate_series(2, $2) i`,
		ada.ID, play.MaxOwnedClassrooms); err != nil {
		t.Fatal(err)
	}
	if _, err := store.InsertOwnedClassroom(ctx, ada.ID, "One more", "AAAA-0002", []byte("hash-2")); !errors.Is(err, play.ErrFull) {
		t.Fatalf("classroom %d: %v, want ErrFull", play.MaxOwnedClassrooms+1, err)
	}
	if err := store.SetClassroomOwner(ctx, first.ID, ada.ID); err != nil {
		t.Fatalf("attaching one it owns: %v", err)
	}
	ben, err := store.UpsertAccount(ctx, "https://idp.example", "ben", "Ben", now)
	if err != nil {
		t.Fatal(err)
	}
	other, err := store.InsertOwnedClassroom(ctx, ben.ID, "Ben's", "BBBB-0001", []byte("hash-3"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Pool.Exec(ctx, `UPDATE classrooms SET account_id = NULL WHERE id = $1`, other.ID); err != nil {
		t.Fatal(err)
	}
	if err := store.SetClassroomOwner(ctx, other.ID, ada.ID); !errors.Is(err, play.ErrFull) {
		t.Fatalf("attaching one more: %v, want ErrFull", err)
	}
	// A classroom an LTI course made is the platform's to bound: with one of Ada's made so, she
	// has room for another.
	if _, err := db.Pool.Exec(ctx, `WITH p AS (INSERT INTO lti_platforms (issuer, client_id, deployment_ids, jwks_url, auth_url, token_url, created_at)
			VALUES ('https://lms.example', 'c', '{d}', 'https://lms.example/k', 'https://lms.example/a', 'https://lms.example/t', now()) RETURNING id)
		INSERT INTO lti_contexts (platform_id, context_hash, classroom_id) SELECT id, 'course', $1 FROM p`, first.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := store.InsertOwnedClassroom(ctx, ada.ID, "One more", "AAAA-0003", []byte("hash-4")); err != nil {
		t.Fatalf("with an LTI course's classroom not counted: %v", err)
	}
}
