package repo

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"primegames/play"
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

// EndedTeachings returns, of the teachings, those whose account neither owns nor co-teaches the
// classroom any more; each lookup is by a primary key.
func (s *Games) EndedTeachings(ctx context.Context, teachings []play.ClassroomTeaching) ([]play.ClassroomTeaching, error) {
	if len(teachings) == 0 {
		return nil, nil
	}
	classrooms, accounts := make([]string, len(teachings)), make([]string, len(teachings))
	for i, t := range teachings {
		classrooms[i], accounts[i] = t.ClassroomID, t.AccountID
	}
	return readRetry(ctx, func() ([]play.ClassroomTeaching, error) {
		rows, err := s.db.Pool.Query(ctx, `SELECT t.c::text, t.a::text FROM unnest($1::uuid[], $2::uuid[]) AS t(c, a)
			WHERE NOT EXISTS (SELECT FROM classrooms WHERE id = t.c AND account_id = t.a)
			AND NOT EXISTS (SELECT FROM classroom_co_teachers WHERE classroom_id = t.c AND account_id = t.a)`, classrooms, accounts)
		if err != nil {
			return nil, err
		}
		return pgx.CollectRows(rows, func(r pgx.CollectableRow) (play.ClassroomTeaching, error) {
			var t play.ClassroomTeaching
			err := r.Scan(&t.ClassroomID, &t.AccountID)
			return t, err
		})
	})
}
