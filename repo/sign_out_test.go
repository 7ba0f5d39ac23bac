package repo_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"primegames/domain"
	"primegames/domain/games"
	"primegames/live"
	"primegames/play"
	"primegames/repo/repotest"
)

// A sign-out ends one sign-in: it is announced at commit as token_revoked (migration 00078), the
// token no longer resolves and EndedAuthorities finds it ended; the student's other sign-in and own
// token go on. The reason is the sign-out's transaction's only: a reset of the code afterwards
// still announces token_rotated. The own token is refused, not_a_sign_in, and keeps working.
func TestStudentSignOutEndsOneSignIn(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := repotest.NewDB(t)
	heard := revocations(t, db)
	master := play.New(db.Games().Stores(), games.All(), play.WithSignInCodeSecret([]byte("a deployment's secret")))
	expect := expectRevocations(t, heard)
	resolved := func(token string) play.Principal {
		t.Helper()
		p, err := master.Resolve(ctx, play.IdentifyToken(token, ""))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}

	class, _, err := master.CreateClassroom(ctx, "4B")
	if err != nil {
		t.Fatal(err)
	}
	ada, _, adaToken, err := master.JoinClassroom(ctx, class.JoinCode, "Ada")
	if err != nil {
		t.Fatal(err)
	}
	codes, err := master.SignInCodes(ctx, class.ID)
	if err != nil || len(codes) != 1 {
		t.Fatalf("codes %v, %v", codes, err)
	}
	_, _, tablet, err := master.StudentSignIn(ctx, class.JoinCode, codes[0].Code)
	if err != nil {
		t.Fatal(err)
	}
	_, _, phone, err := master.StudentSignIn(ctx, class.JoinCode, codes[0].Code)
	if err != nil {
		t.Fatal(err)
	}

	signedIn := resolved(tablet)
	if err := master.StudentSignOut(ctx, signedIn); err != nil {
		t.Fatal(err)
	}
	expect("a sign-out", live.TokenAuthority(signedIn.TokenHash), live.TokenRevoked)
	if resolved(tablet).Resolved || !resolved(phone).Resolved || !resolved(adaToken).Resolved {
		t.Errorf("after the sign-out: tablet %v, phone %v, own %v; want only the tablet's ended",
			resolved(tablet).Resolved, resolved(phone).Resolved, resolved(adaToken).Resolved)
	}
	tokens, _, err := db.Games().EndedAuthorities(ctx, [][]byte{signedIn.TokenHash, resolved(phone).TokenHash}, nil, time.Now())
	if err != nil || len(tokens) != 1 || string(tokens[0]) != string(signedIn.TokenHash) {
		t.Errorf("ended tokens %d (%v), want the tablet's only", len(tokens), err)
	}
	if err := master.StudentSignOut(ctx, signedIn); domain.ErrorKind(err) != domain.KindUnauthorized {
		t.Errorf("a second sign-out: %v, want unauthorized", err)
	}

	var refusal *domain.Error
	if err := master.StudentSignOut(ctx, resolved(adaToken)); !errors.As(err, &refusal) || refusal.Code != "not_a_sign_in" {
		t.Errorf("the own token's sign-out: %v, want not_a_sign_in", err)
	}
	if !resolved(adaToken).Resolved {
		t.Error("the own token stopped working")
	}

	if _, err := master.ResetSignInCode(ctx, class.ID, ada.ID); err != nil {
		t.Fatal(err)
	}
	expect("a reset after a sign-out", live.TokenAuthority(play.IdentifyToken(phone, "").TokenHash), live.TokenRotated)
}
