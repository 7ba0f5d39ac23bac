package play_test

import (
	"context"
	"strings"
	"testing"

	"primegames/domain"
	"primegames/domain/games"
	"primegames/play"
	"primegames/repo/repotest"
)

// A classroom's rules through the game master and a real database, without HTTP: names are
// enforced, a join code is typed loosely, a name is one student's, and only the teacher runs it.
func TestClassroomRulesWithoutHTTP(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	master := play.New(repotest.NewDB(t).Games().Stores(), games.All())
	if _, _, err := master.CreateClassroom(ctx, "   "); domain.ErrorCode(err) != "invalid_name" {
		t.Fatalf("a blank classroom name: %v, want invalid_name", err)
	}
	class, teacherToken, err := master.CreateClassroom(ctx, "Room 5")
	if err != nil {
		t.Fatal(err)
	}
	teacher, err := master.Resolve(ctx, play.IdentifyToken(teacherToken, ""))
	if err != nil || !teacher.IsTeacher() {
		t.Fatalf("the teacher token resolves to %+v, %v", teacher, err)
	}

	typed := " " + strings.ToLower(class.JoinCode) + " "
	ada, joined, _, err := master.JoinClassroom(ctx, typed, "Ada")
	if err != nil || joined.ID != class.ID {
		t.Fatalf("joining with %q: %v", typed, err)
	}
	if _, _, _, err := master.JoinClassroom(ctx, class.JoinCode, "ADA"); domain.ErrorCode(err) != "name_taken" {
		t.Fatalf("a second Ada: %v, want name_taken", err)
	}
	if _, _, _, err := master.JoinClassroom(ctx, "NOPE22", "Bo"); domain.ErrorCode(err) != "join_code_not_found" {
		t.Fatalf("an unknown join code: %v, want join_code_not_found", err)
	}
	bo, _, _, err := master.JoinClassroom(ctx, class.JoinCode, "Bo")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := master.RenameStudent(ctx, class.ID, bo.ID, "ada"); domain.ErrorCode(err) != "name_taken" {
		t.Fatalf("renaming Bo to ada: %v, want name_taken", err)
	}

	old := class.JoinCode
	if err := master.RotateJoinCode(ctx, class); err != nil || class.JoinCode == old {
		t.Fatalf("rotating the join code: %v, code %s → %s", err, old, class.JoinCode)
	}
	if _, _, _, err := master.JoinClassroom(ctx, old, "Cy"); domain.ErrorCode(err) != "join_code_not_found" {
		t.Fatalf("the old join code: %v, want join_code_not_found", err)
	}

	if err := master.RemoveStudent(ctx, class.ID, ada.ID); err != nil {
		t.Fatal(err)
	}
	if err := master.RemoveStudent(ctx, class.ID, ada.ID); domain.ErrorCode(err) != "student_not_found" {
		t.Fatalf("removing Ada twice: %v, want student_not_found", err)
	}
	if _, err := master.RenameStudent(ctx, class.ID, ada.ID, "Ada B"); domain.ErrorCode(err) != "student_not_found" {
		t.Fatalf("renaming a removed student: %v, want student_not_found", err)
	}

	got, err := master.TeacherClassroom(ctx, teacher, class.ID)
	if err != nil || got.StudentCount != 1 || got.JoinCode != class.JoinCode {
		t.Fatalf("the teacher reads %+v, %v; want one student and the new code", got, err)
	}
	if _, err := master.TeacherClassroom(ctx, play.Nobody, class.ID); domain.ErrorCode(err) != "unauthorized" {
		t.Fatalf("reading the classroom without a token: %v, want unauthorized", err)
	}
}
