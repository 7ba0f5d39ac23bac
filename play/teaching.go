package play

import (
	"context"
	"errors"
)

// An account teaches the classrooms it owns (and, with co-teachers, those it was invited to): its
// token, or its browser session, is then that classroom's teacher for every teacher endpoint, of
// the classroom (/v1/classrooms/{classroom_id}/…) and of the classroom's games (/v1/games/{id}/…).

// Teaching tells which classroom an account teaches, for the authorities part.
type Teaching interface {
	// TaughtClassroom is the classroom the account teaches (owns or co-teaches) named by
	// classroomID, or when classroomID is "" the classroom of the game gameID; "" when the account
	// teaches no such classroom (or there is none, or the game is in none).
	TaughtClassroom(ctx context.Context, accountID, classroomID, gameID string) (string, error)
	// StudentsClassroom is the classroom of the student, current or not; "" when there is no such
	// student.
	StudentsClassroom(ctx context.Context, studentID string) (string, error)
	// EndedTeachings returns, of the teachings, those that are no more: the account neither owns
	// nor co-teaches the classroom.
	EndedTeachings(ctx context.Context, teachings []ClassroomTeaching) ([]ClassroomTeaching, error)
}

// ClassroomTeaching is an account's teaching of a classroom, as its owner or a co-teacher: the
// authority its classroom streams hold beside its token (live.TeachingAuthority).
type ClassroomTeaching struct{ ClassroomID, AccountID string }

// taughtClassroom resolves an account's principal p for what its request names: the classroom
// (classroomID) or the game (gameID) the request is for. p becomes the classroom's Teacher when the
// account teaches it, and stays the account's otherwise.
func (a *authorities) taughtClassroom(ctx context.Context, p Principal, classroomID, gameID string) (Principal, error) {
	if classroomID != "" && !validUUID(classroomID) {
		return p, nil
	}
	if classroomID == "" && (gameID == "" || !validUUID(gameID)) {
		return p, nil
	}
	taught, err := a.teaching.TaughtClassroom(ctx, p.AccountID, classroomID, gameID)
	if errors.Is(err, ErrNotFound) || (err == nil && taught == "") {
		return p, nil
	}
	if err != nil {
		return p, err
	}
	p.Kind, p.ClassroomID = Teacher, taught
	return p, nil
}

// asTeacherOfStudents is the account principal p as the teacher of the classroom of the first of
// students, when it teaches that classroom (creating a game of a classroom with POST /v1/games,
// which names the classroom by its students only); p unchanged otherwise.
func (a *authorities) asTeacherOfStudents(ctx context.Context, p Principal, students []string) (Principal, error) {
	if !p.IsAccount() || p.Kind != AccountHolder || len(students) == 0 || !validUUID(students[0]) {
		return p, nil
	}
	classroomID, err := a.teaching.StudentsClassroom(ctx, students[0])
	if err != nil || classroomID == "" {
		return p, err
	}
	return a.taughtClassroom(ctx, p, classroomID, "")
}
