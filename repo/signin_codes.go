package repo

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"primegames/play"
)

// SignInStudents lists the classroom's current students by name with their sign-in codes' nonces.
func (s *Games) SignInStudents(ctx context.Context, classroomID string) ([]play.SignInStudent, error) {
	rows, err := s.db.Pool.Query(ctx, `SELECT id::text, classroom_id::text, name, created_at, sign_in_nonce, sign_in_lookup
		FROM students WHERE classroom_id = $1 AND removed_at IS NULL ORDER BY name_key, id`, classroomID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (play.SignInStudent, error) {
		var st play.SignInStudent
		err := r.Scan(&st.ID, &st.ClassroomID, &st.Name, &st.CreatedAt, &st.Nonce, &st.Lookup)
		return st, err
	})
}

// SetSignInCode stores a current student's nonce and code lookup; endSignIns deletes the tokens
// signed in with the code before (their trigger ends the streams that hold them).
func (s *Games) SetSignInCode(ctx context.Context, classroomID, studentID string, nonce int64, lookup []byte, endSignIns bool) error {
	return s.db.inTx(ctx, func(tx pgx.Tx) error {
		var id string
		err := tx.QueryRow(ctx, `UPDATE students SET sign_in_nonce = $3, sign_in_lookup = $4
			WHERE id = $2::uuid AND classroom_id = $1 AND removed_at IS NULL RETURNING id::text`,
			classroomID, studentID, nonce, lookup).Scan(&id)
		if err != nil {
			return taken(notFound(err))
		}
		if endSignIns {
			_, err = tx.Exec(ctx, `DELETE FROM student_sign_ins WHERE student_id = $1::uuid`, studentID)
		}
		return err
	})
}

// StudentBySignInCode is the classroom's current student whose code has the lookup.
func (s *Games) StudentBySignInCode(ctx context.Context, classroomID string, lookup []byte) (*play.StudentRecord, error) {
	var st play.StudentRecord
	err := s.db.Pool.QueryRow(ctx, `SELECT id::text, classroom_id::text, name, created_at FROM students
		WHERE classroom_id = $1 AND sign_in_lookup = $2 AND removed_at IS NULL`, classroomID, lookup).
		Scan(&st.ID, &st.ClassroomID, &st.Name, &st.CreatedAt)
	if err != nil {
		return nil, notFound(err)
	}
	return &st, nil
}

// InsertStudentSignIn stores a student token's hash and deletes the student's oldest beyond keep.
func (s *Games) InsertStudentSignIn(ctx context.Context, studentID string, hash []byte, now time.Time, keep int) error {
	return s.db.inTx(ctx, func(tx pgx.Tx) error {
		// The student's row is locked so that sign-ins at once keep no more than keep between them.
		if _, err := tx.Exec(ctx, `SELECT FROM students WHERE id = $1::uuid FOR UPDATE`, studentID); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO student_sign_ins (token_hash, student_id, created_at) VALUES ($1, $2, $3)`,
			hash, studentID, now); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `DELETE FROM student_sign_ins WHERE student_id = $1::uuid AND token_hash NOT IN
			(SELECT token_hash FROM student_sign_ins WHERE student_id = $1::uuid ORDER BY created_at DESC, token_hash LIMIT $2)`, studentID, keep)
		return err
	})
}

// EndStudentSignIn deletes the sign-in whose token has the hash; its trigger ends the streams that
// hold the token, with the reason token_revoked (a sign-out, not a replacement). When no sign-in has
// the hash, own reports whether it is a current student's own token, and the error is ErrNotFound
// when it is not.
func (s *Games) EndStudentSignIn(ctx context.Context, hash []byte) (own bool, err error) {
	err = s.db.inTx(ctx, func(tx pgx.Tx) error {
		// The trigger (00078) announces the end with this transaction's reason.
		if _, err := tx.Exec(ctx, `SELECT set_config('primegames.sign_in_ended', 'token_revoked', true)`); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `DELETE FROM student_sign_ins WHERE token_hash = $1`, hash)
		if err != nil || tag.RowsAffected() > 0 {
			return err
		}
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT FROM students WHERE token_hash = $1 AND removed_at IS NULL)`, hash).Scan(&own); err != nil {
			return err
		}
		if !own {
			return play.ErrNotFound
		}
		return nil
	})
	return own, err
}
