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
}

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
