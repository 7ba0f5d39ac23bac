package repo

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"primegames/play"
)

// InsertClassroom stores a new classroom; play.ErrTaken when another has the join code.
func (s *Games) InsertClassroom(ctx context.Context, name, joinCode string, teacherHash []byte) (*play.Classroom, error) {
	var c play.Classroom
	err := s.db.Pool.QueryRow(ctx, `INSERT INTO classrooms (name, join_code, teacher_token_hash) VALUES ($1, $2, $3)
		RETURNING id::text, name, join_code, created_at`, name, joinCode, teacherHash).Scan(&c.ID, &c.Name, &c.JoinCode, &c.CreatedAt)
	if err != nil {
		return nil, taken(err)
	}
	return &c, nil
}

// Classroom reads a classroom with its number of current students.
func (s *Games) Classroom(ctx context.Context, classroomID string) (*play.Classroom, error) {
	var c play.Classroom
	err := s.db.Pool.QueryRow(ctx, `SELECT id::text, name, join_code, created_at,
			(SELECT count(*) FROM students WHERE classroom_id = classrooms.id AND removed_at IS NULL)
		FROM classrooms WHERE id = $1`, classroomID).Scan(&c.ID, &c.Name, &c.JoinCode, &c.CreatedAt, &c.StudentCount)
	if err != nil {
		return nil, notFound(err)
	}
	return &c, nil
}

// ClassroomByJoinCode reads the classroom with the join code, without its student count; a short
// code past its end (migration 00034) is no classroom's.
func (s *Games) ClassroomByJoinCode(ctx context.Context, joinCode string) (*play.Classroom, error) {
	var c play.Classroom
	err := s.db.Pool.QueryRow(ctx, `SELECT id::text, name, join_code, created_at FROM classrooms
		WHERE join_code = $1 AND (join_code_expires_at IS NULL OR join_code_expires_at > now())`,
		joinCode).Scan(&c.ID, &c.Name, &c.JoinCode, &c.CreatedAt)
	if err != nil {
		return nil, notFound(err)
	}
	return &c, nil
}

// SetJoinCode replaces a classroom's join code; play.ErrTaken when another has it.
func (s *Games) SetJoinCode(ctx context.Context, classroomID, joinCode string) error {
	_, err := s.db.Pool.Exec(ctx, `UPDATE classrooms SET join_code = $2, join_code_expires_at = NULL WHERE id = $1`, classroomID, joinCode)
	return taken(err)
}

// InsertStudent adds a student; play.ErrTaken when a current student's name has the same key.
func (s *Games) InsertStudent(ctx context.Context, classroomID, name, nameKey string, hash []byte) (*play.StudentRecord, error) {
	st := play.StudentRecord{ClassroomID: classroomID, Name: name}
	err := s.db.Pool.QueryRow(ctx, `INSERT INTO students (classroom_id, name, name_key, token_hash) VALUES ($1, $2, $3, $4) RETURNING id::text, created_at`,
		classroomID, name, nameKey, hash).Scan(&st.ID, &st.CreatedAt)
	if err != nil {
		return nil, taken(err)
	}
	return &st, nil
}

// Students lists the classroom's current students by name.
func (s *Games) Students(ctx context.Context, classroomID string) ([]play.StudentRecord, error) {
	rows, err := s.db.Pool.Query(ctx, `SELECT id::text, classroom_id::text, name, created_at FROM students
		WHERE classroom_id = $1 AND removed_at IS NULL ORDER BY name_key, id`, classroomID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (play.StudentRecord, error) {
		var st play.StudentRecord
		err := r.Scan(&st.ID, &st.ClassroomID, &st.Name, &st.CreatedAt)
		return st, err
	})
}

// renameSeats renames a student on the seats of their games, and moves those games' versions on:
// every change of a game or its seats does, so that a record of a game at a version is the game
// (migration 00027 relies on it), and an ETag changes with the names it showed.
func renameSeats(ctx context.Context, tx pgx.Tx, studentID, name string) error {
	_, err := tx.Exec(ctx, `WITH renamed AS (UPDATE seats SET name = $2 WHERE student_id = $1::uuid RETURNING game_id)
		UPDATE games SET version = version + 1, `+keepTally+` WHERE id IN (SELECT game_id FROM renamed)`, studentID, name)
	return err
}

// RenameStudent renames a current student, in the classroom and on the seats of their games.
func (s *Games) RenameStudent(ctx context.Context, classroomID, studentID, name, nameKey string) (*play.StudentRecord, error) {
	st := play.StudentRecord{ID: studentID, ClassroomID: classroomID, Name: name}
	err := s.db.inTx(ctx, func(tx pgx.Tx) error {
		err := tx.QueryRow(ctx, `UPDATE students SET name = $3, name_key = $4 WHERE id = $2::uuid AND classroom_id = $1 AND removed_at IS NULL RETURNING created_at`,
			classroomID, studentID, name, nameKey).Scan(&st.CreatedAt)
		if err != nil {
			return taken(notFound(err))
		}
		return renameSeats(ctx, tx, studentID, name)
	})
	if err != nil {
		return nil, err
	}
	return &st, nil
}

// RemoveStudent marks a current student removed: their token stops working, their games stay.
func (s *Games) RemoveStudent(ctx context.Context, classroomID, studentID string) error {
	tag, err := s.db.Pool.Exec(ctx, `UPDATE students SET removed_at = now() WHERE id = $2::uuid AND classroom_id = $1 AND removed_at IS NULL`,
		classroomID, studentID)
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return play.ErrNotFound
	}
	return nil
}

// notFound turns "no rows" into play.ErrNotFound and leaves other errors as they are.
func notFound(err error) error {
	if errors.Is(err, pgx.ErrNoRows) {
		return play.ErrNotFound
	}
	return err
}

// taken turns a unique violation into play.ErrTaken and leaves other errors as they are.
func taken(err error) error {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23505" {
		return play.ErrTaken
	}
	return err
}

// EraseStudent replaces a removed student's name by "Erased student <n>" in the students row, on the
// seats of their games and in the details of those games' refused actions. The classroom row is
// locked so that two erasures in it count on from each other.
func (s *Games) EraseStudent(ctx context.Context, classroomID, studentID string) (*play.StudentRecord, error) {
	st := play.StudentRecord{ID: studentID, ClassroomID: classroomID}
	err := s.db.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT FROM classrooms WHERE id = $1 FOR UPDATE`, classroomID); err != nil {
			return err
		}
		var removed, erased bool
		err := tx.QueryRow(ctx, `SELECT name, created_at, removed_at IS NOT NULL, erased_at IS NOT NULL FROM students
			WHERE id = $2::uuid AND classroom_id = $1`, classroomID, studentID).Scan(&st.Name, &st.CreatedAt, &removed, &erased)
		switch {
		case err != nil:
			return notFound(err)
		case !removed:
			return play.ErrNotRemoved
		case erased:
			return nil
		}
		oldNames, err := seatNames(ctx, tx, studentID, st.Name)
		if err != nil {
			return err
		}
		err = tx.QueryRow(ctx, `UPDATE students SET erased_at = now(),
				name = 'Erased student ' || (SELECT count(*) + 1 FROM students WHERE classroom_id = $1 AND erased_at IS NOT NULL)
			WHERE id = $2::uuid RETURNING name`, classroomID, studentID).Scan(&st.Name)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE students SET name_key = lower(name), sign_in_lookup = NULL WHERE id = $1::uuid`, studentID); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM student_sign_ins WHERE student_id = $1::uuid`, studentID); err != nil {
			return err
		}
		if err := renameSeats(ctx, tx, studentID, st.Name); err != nil {
			return err
		}
		// A refused action's detail may name whose turn it was, as "<name> (seat <n>)".
		for _, old := range oldNames {
			_, err := tx.Exec(ctx, `UPDATE attempts SET detail = replace(detail, $2 || ' (seat ', $3 || ' (seat ')
				WHERE game_id IN (SELECT game_id FROM seats WHERE student_id = $1::uuid) AND strpos(detail, $2 || ' (seat ') > 0`, studentID, old, st.Name)
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &st, nil
}

// seatNames is every name the student has had on a seat, and current.
func seatNames(ctx context.Context, tx pgx.Tx, studentID, current string) ([]string, error) {
	rows, err := tx.Query(ctx, `SELECT DISTINCT name FROM seats WHERE student_id = $1::uuid UNION SELECT $2`, studentID, current)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}
