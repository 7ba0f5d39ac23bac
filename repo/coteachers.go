package repo

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"primegames/play"
)

// Classrooms' co-teachers and their invites (play/coteachers.go, migration 00043).

// InsertCoTeacherInvite stores an invite of the classroom unless it holds play.MaxCoTeacherInvites
// unexpired ones (the classroom's row locked so that two insertions count on from each other).
func (s *Games) InsertCoTeacherInvite(ctx context.Context, classroomID string, hash []byte, now, expiresAt time.Time) error {
	return pgx.BeginFunc(ctx, s.db.Pool, func(tx pgx.Tx) error {
		var held int
		err := tx.QueryRow(ctx, `SELECT (SELECT count(*) FROM co_teacher_invites WHERE classroom_id = c.id AND expires_at > $2)
			FROM classrooms c WHERE c.id = $1 FOR UPDATE`, classroomID, now).Scan(&held)
		if err != nil {
			return notFound(err)
		}
		if held >= play.MaxCoTeacherInvites {
			return play.ErrTaken
		}
		if _, err := tx.Exec(ctx, `DELETE FROM co_teacher_invites WHERE classroom_id = $1 AND expires_at <= $2`, classroomID, now); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `INSERT INTO co_teacher_invites (code_hash, classroom_id, created_at, expires_at) VALUES ($1, $2, $3, $4)`,
			hash, classroomID, now, expiresAt)
		return err
	})
}

// AcceptCoTeacherInvite takes the invite and makes the account a co-teacher of its classroom.
func (s *Games) AcceptCoTeacherInvite(ctx context.Context, hash []byte, accountID string, now time.Time) (string, error) {
	var classroomID string
	err := pgx.BeginFunc(ctx, s.db.Pool, func(tx pgx.Tx) error {
		var expires time.Time
		err := tx.QueryRow(ctx, `DELETE FROM co_teacher_invites WHERE code_hash = $1 RETURNING classroom_id::text, expires_at`, hash).
			Scan(&classroomID, &expires)
		if err != nil {
			return notFound(err)
		}
		if !expires.After(now) {
			return play.ErrNotFound // deleted all the same: it could never be used again
		}
		var owner *string
		var teachers int
		err = tx.QueryRow(ctx, `SELECT account_id::text, (SELECT count(*) FROM classroom_co_teachers WHERE classroom_id = c.id)
			FROM classrooms c WHERE c.id = $1 FOR UPDATE`, classroomID).Scan(&owner, &teachers)
		if err != nil {
			return notFound(err)
		}
		if owner != nil && *owner == accountID {
			return nil
		}
		tag, err := tx.Exec(ctx, `INSERT INTO classroom_co_teachers (classroom_id, account_id, added_at) VALUES ($1, $2, $3)
			ON CONFLICT DO NOTHING`, classroomID, accountID, now)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 1 && teachers >= play.MaxCoTeachers {
			return play.ErrTaken
		}
		return nil
	})
	if errors.Is(err, play.ErrNotFound) && classroomID != "" {
		// An expired invite's deletion is kept: commit it, then refuse.
		_, _ = s.db.Pool.Exec(ctx, `DELETE FROM co_teacher_invites WHERE code_hash = $1`, hash)
	}
	return classroomID, err
}

// ClassroomTeachers lists the classroom's owner, then its co-teachers oldest first.
func (s *Games) ClassroomTeachers(ctx context.Context, classroomID string) ([]play.TeacherInfo, error) {
	rows, err := s.db.Pool.Query(ctx, `
		SELECT a.id::text, a.name, true, a.created_at FROM classrooms c JOIN accounts a ON a.id = c.account_id WHERE c.id = $1
		UNION ALL
		(SELECT a.id::text, a.name, false, t.added_at FROM classroom_co_teachers t JOIN accounts a ON a.id = t.account_id
			WHERE t.classroom_id = $1 ORDER BY t.added_at, a.id)`, classroomID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (play.TeacherInfo, error) {
		var t play.TeacherInfo
		err := row.Scan(&t.AccountID, &t.Name, &t.Owner, &t.AddedAt)
		return t, err
	})
}

// DeleteCoTeacher removes a co-teacher (its trigger announces the end of its authority).
func (s *Games) DeleteCoTeacher(ctx context.Context, classroomID, accountID string) error {
	tag, err := s.db.Pool.Exec(ctx, `DELETE FROM classroom_co_teachers WHERE classroom_id = $1 AND account_id = $2`, classroomID, accountID)
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return play.ErrNotFound
	}
	return nil
}
