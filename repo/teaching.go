package repo

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"
)

// Which classrooms an account teaches (play/teaching.go).

// TaughtClassroom is the classroom named by classroomID, or else the classroom of the game
// gameID, when the account owns or co-teaches it; "" otherwise.
func (s *Games) TaughtClassroom(ctx context.Context, accountID, classroomID, gameID string) (string, error) {
	var classroom, game *string
	if classroomID != "" {
		classroom = &classroomID
	} else {
		game = &gameID
	}
	var taught string
	err := s.db.Pool.QueryRow(ctx, `SELECT c.id::text FROM classrooms c
		WHERE c.id = COALESCE($2::uuid, (SELECT classroom_id FROM games WHERE id = $3::uuid))
		AND (c.account_id = $1 OR EXISTS (SELECT FROM classroom_co_teachers t WHERE t.classroom_id = c.id AND t.account_id = $1))`,
		accountID, classroom, game).Scan(&taught)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", nil
	}
	return taught, err
}

// StudentsClassroom is the classroom of the student, "" for no such student.
func (s *Games) StudentsClassroom(ctx context.Context, studentID string) (string, error) {
	var classroom string
	err := s.db.Pool.QueryRow(ctx, `SELECT classroom_id::text FROM students WHERE id = $1`, studentID).Scan(&classroom)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", nil
	}
	return classroom, err
}
