package repo_test

import (
	"context"
	"testing"
	"time"

	"primegames/domain/games"
	"primegames/live"
	"primegames/play"
	"primegames/repo"
	"primegames/repo/repotest"
)

// revocations listens on db's authority changes until the test ends, and returns those heard, once
// the listener is connected.
func revocations(t *testing.T, db *repo.DB) <-chan live.Revocation {
	t.Helper()
	heard := make(chan live.Revocation, 100)
	listen(t, db, repo.GameListener{Notice: func(repo.GameNotice) {}, Revoked: func(r live.Revocation) { heard <- r }})
	return heard
}

// expectRevocations is a check of the next revocation heard: its authority and reason, within 30 s.
func expectRevocations(t *testing.T, heard <-chan live.Revocation) func(what string, key live.AuthorityKey, reason string) {
	return func(what string, key live.AuthorityKey, reason string) {
		t.Helper()
		select {
		case r := <-heard:
			if r.Key != key || r.Reason != reason {
				t.Errorf("%s: heard %+v, want %s %s", what, r, reason, key)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("%s: nothing heard", what)
		}
	}
}

// Every end of what a token may do is announced at its commit (migration 00028's trigger), named
// as the live streams hold it: a teacher token rotated, a student token reissued, a student
// removed and erased, an observer token revoked, a lobby's seat left. EndedAuthorities then finds
// each token and student ended, and no other.
func TestEveryEndOfAnAuthorityIsAnnouncedAtCommit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := repotest.NewDB(t)
	heard := revocations(t, db)
	master := play.New(db.Games().Stores(), games.All())
	expect := expectRevocations(t, heard)
	resolve := func(token string) play.Principal {
		t.Helper()
		p, err := master.Resolve(ctx, play.IdentifyToken(token, ""))
		if err != nil || !p.Resolved {
			t.Fatalf("resolve: %+v, %v", p, err)
		}
		return p
	}

	class, teacherToken, err := master.CreateClassroom(ctx, "4B")
	if err != nil {
		t.Fatal(err)
	}
	oldTeacher := resolve(teacherToken)
	teacherToken, err = master.RotateTeacherToken(ctx, oldTeacher, class.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	expect("a teacher token rotated", live.TokenAuthority(oldTeacher.TokenHash), live.TokenRotated)
	teacher := resolve(teacherToken)

	ada, _, adaToken, err := master.JoinClassroom(ctx, class.JoinCode, "Ada")
	if err != nil {
		t.Fatal(err)
	}
	oldAda := resolve(adaToken)
	reissued, err := master.ReissueStudentToken(ctx, teacher, class.ID, ada.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	expect("a student token reissued", live.TokenAuthority(oldAda.TokenHash), live.TokenRotated)
	newAda := resolve(reissued.Token)
	if err := master.RemoveStudent(ctx, class.ID, ada.ID); err != nil {
		t.Fatal(err)
	}
	expect("a student removed", live.StudentAuthority(ada.ID), live.StudentRemoved)
	if _, err := master.EraseStudent(ctx, class.ID, ada.ID); err != nil {
		t.Fatal(err)
	}
	expect("a student erased", live.StudentAuthority(ada.ID), live.StudentErased)

	created, err := master.Create(ctx, play.NewGame{Kind: "primed", OpenSeats: 2, Public: true}, play.Nobody, nil)
	if err != nil {
		t.Fatal(err)
	}
	id := created.Game.ID
	joined, err := master.Join(ctx, id, play.Nobody, play.JoinAsk{Name: "Ben"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ben := play.IdentifyToken(joined.Seat.Token, "")
	o, err := master.MintObserver(ctx, ben, play.ObserverTarget{GameID: id}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := master.RevokeObserver(ctx, ben, play.ObserverTarget{GameID: id}, o.ID); err != nil {
		t.Fatal(err)
	}
	expect("an observer token revoked", live.TokenAuthority(play.IdentifyToken(o.Token, "").TokenHash), live.ObserverRevoked)
	if _, _, err := master.Leave(ctx, id, ben, nil); err != nil {
		t.Fatal(err)
	}
	expect("a lobby's seat left", live.SeatAuthority(id, ben.TokenHash), live.SeatLeft)

	tokens, students, err := db.Games().EndedAuthorities(ctx,
		[][]byte{oldTeacher.TokenHash, teacher.TokenHash, oldAda.TokenHash, newAda.TokenHash}, []string{ada.ID}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	ended := map[string]bool{}
	for _, hash := range tokens {
		ended[string(hash)] = true
	}
	if len(tokens) != 3 || !ended[string(oldTeacher.TokenHash)] || !ended[string(oldAda.TokenHash)] || !ended[string(newAda.TokenHash)] {
		t.Errorf("ended tokens: %d, want the old teacher token and both of the removed student's (not the current teacher's)", len(tokens))
	}
	if len(students) != 1 || students[0] != ada.ID {
		t.Errorf("ended students %v, want %s", students, ada.ID)
	}
}
