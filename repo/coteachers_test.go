package repo_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"primegames/play"
	"primegames/repo/repotest"
)

// A classroom holds at most play.MaxCoTeacherInvites unexpired invites; an invite is taken once;
// erasing a co-teacher's account removes them from the classroom.
func TestCoTeacherInvitesBoundedAndTakenOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := repotest.NewDB(t)
	store := db.Games()
	now := time.Now()
	owner, err := store.UpsertAccount(ctx, "https://idp.example", "owner", "Owner", now)
	if err != nil {
		t.Fatal(err)
	}
	guest, err := store.UpsertAccount(ctx, "https://idp.example", "guest", "Guest", now)
	if err != nil {
		t.Fatal(err)
	}
	_, teacherHash := play.NewToken(play.TokenTeacher)
	class, err := store.InsertOwnedClassroom(ctx, owner.ID, "Shared", "COTEACH1", teacherHash)
	if err != nil {
		t.Fatal(err)
	}
	var first []byte
	for i := 0; i < play.MaxCoTeacherInvites; i++ {
		_, hash := play.NewToken(play.TokenCoTeacherInvite)
		if i == 0 {
			first = hash
		}
		if err := store.InsertCoTeacherInvite(ctx, class.ID, hash, now, now.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	_, extra := play.NewToken(play.TokenCoTeacherInvite)
	if err := store.InsertCoTeacherInvite(ctx, class.ID, extra, now, now.Add(time.Hour)); !errors.Is(err, play.ErrTaken) {
		t.Fatalf("invite %d = %v, want ErrTaken", play.MaxCoTeacherInvites+1, err)
	}
	if err := store.InsertCoTeacherInvite(ctx, class.ID, extra, now.Add(2*time.Hour), now.Add(3*time.Hour)); err != nil {
		t.Fatalf("an invite once the others expired = %v", err)
	}
	if _, err := store.AcceptCoTeacherInvite(ctx, first, guest.ID, now); !errors.Is(err, play.ErrNotFound) {
		t.Fatalf("an expired invite (deleted by the later insertion) = %v, want ErrNotFound", err)
	}
	if got, err := store.AcceptCoTeacherInvite(ctx, extra, guest.ID, now.Add(2*time.Hour)); err != nil || got != class.ID {
		t.Fatalf("accept = %q %v", got, err)
	}
	if _, err := store.AcceptCoTeacherInvite(ctx, extra, guest.ID, now.Add(2*time.Hour)); !errors.Is(err, play.ErrNotFound) {
		t.Fatalf("accepting again = %v, want ErrNotFound", err)
	}
	if taught, err := store.TaughtClassroom(ctx, guest.ID, class.ID, ""); err != nil || taught != class.ID {
		t.Fatalf("the co-teacher teaches %q (%v)", taught, err)
	}
	if _, err := db.Pool.Exec(ctx, `DELETE FROM accounts WHERE id = $1`, guest.ID); err != nil {
		t.Fatal(err)
	}
	teachers, err := store.ClassroomTeachers(ctx, class.ID)
	if err != nil || len(teachers) != 1 || !teachers[0].Owner {
		t.Fatalf("teachers after erasing the co-teacher's account = %+v %v", teachers, err)
	}
}
