package play

import (
	"context"
	"errors"

	"primegames/domain"
)

// IssuedStudentToken is a student's new token, shown once.
type IssuedStudentToken struct {
	Student StudentRecord
	Token   string
}

// ReissueStudentToken gives a current student of the teacher's classroom a new token; the old one
// stops working when the change commits. A retry with the same Idempotency-Key gets the same token.
func (s *Service) ReissueStudentToken(ctx context.Context, p Principal, classroomID, studentID string, idem *Idempotency) (*IssuedStudentToken, error) {
	if err := MayRunClassroom(p, classroomID); err != nil {
		return nil, err
	}
	slot, err := idem.byPrincipal(p, "student-token:"+classroomID+":"+studentID)
	if err != nil {
		return nil, err
	}
	var issued IssuedStudentToken
	err = s.update(ctx, func(tx Tx) error {
		issued, err = idempotent(ctx, tx, slot, func() (IssuedStudentToken, error) {
			token, hash := NewToken(TokenStudent)
			st, err := tx.SetStudentToken(ctx, classroomID, studentID, hash)
			if errors.Is(err, ErrNotFound) {
				return IssuedStudentToken{}, studentNotFound()
			}
			if err != nil {
				return IssuedStudentToken{}, err
			}
			return IssuedStudentToken{Student: *st, Token: token}, nil
		})
		return err
	})
	if err != nil {
		return nil, err
	}
	return &issued, nil
}

// RotateTeacherToken gives the classroom a new teacher token in place of the one presented, which
// stops working when the change commits.
//
// A retry with the same Idempotency-Key presents the old token, which no longer opens the
// classroom; the kept result answers it all the same, since only the old token's holder can name
// its slot. So that the old token alone (if it leaked, the usual reason to rotate it) cannot fetch
// the new one, the key must then be a strong one.
func (s *Service) RotateTeacherToken(ctx context.Context, p Principal, classroomID string, idem *Idempotency) (string, error) {
	if p.Kind != Teacher {
		return "", MayRunClassroom(p, classroomID)
	}
	if p.AccountID != "" { // the rotation replaces the very token presented (accounts.go)
		return "", domain.Errorf(domain.KindForbidden, "teacher_token_required", "An account token does not rotate the classroom's teacher token; send that token (pgt_…) itself.")
	}
	slot, err := idem.byRetiringToken(p, "teacher-token:"+classroomID)
	if err != nil {
		return "", err
	}
	var token string
	err = s.update(ctx, func(tx Tx) error {
		token, err = idempotent(ctx, tx, slot, func() (string, error) {
			if err := MayRunClassroom(p, classroomID); err != nil {
				return "", err
			}
			token, hash := NewToken(TokenTeacher)
			err := tx.SetTeacherToken(ctx, classroomID, p.TokenHash, hash)
			if errors.Is(err, ErrNotFound) {
				// Another request rotated the same token first.
				return "", domain.Errorf(domain.KindUnauthorized, "unauthorized", "This teacher token has just been replaced; use the new one.")
			}
			return token, err
		})
		return err
	})
	return token, err
}
