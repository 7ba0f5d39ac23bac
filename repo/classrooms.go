package repo

import (
	"context"
	"crypto/rand"
	"errors"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"primegames/domain"
	"primegames/domain/names"
)

const (
	teacherTokenPrefix = "pgt_"
	studentTokenPrefix = "pgl_"
)

// Classroom is a teacher's class.
type Classroom struct {
	ID           string
	Name         string
	JoinCode     string
	StudentCount int
	CreatedAt    time.Time
}

// Student is a member of a classroom.
type Student struct {
	ID          string
	ClassroomID string
	Name        string
	CreatedAt   time.Time
}

// Classrooms stores classrooms and their students.
type Classrooms struct{ db *DB }

// Classrooms returns the classroom store.
func (db *DB) Classrooms() *Classrooms { return &Classrooms{db: db} }

func classroomNotFound() error {
	return domain.Errorf(domain.KindNotFound, "classroom_not_found", "There is no such classroom.")
}

func studentNotFound() error {
	return domain.Errorf(domain.KindNotFound, "student_not_found", "There is no such student in this classroom.")
}

// joinCodeAlphabet leaves out letters and digits that children mix up (0/O, 1/I/L).
const joinCodeAlphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"

func newJoinCode() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	code := make([]byte, len(b))
	for i, x := range b {
		code[i] = joinCodeAlphabet[int(x)%len(joinCodeAlphabet)]
	}
	return string(code)
}

// Create makes a classroom and returns it with its teacher token, shown only now.
func (s *Classrooms) Create(ctx context.Context, name string) (*Classroom, string, error) {
	name, err := names.Classroom.Enforce(name)
	if err != nil {
		return nil, "", err
	}
	token, hash := newToken(teacherTokenPrefix)
	for attempt := 0; ; attempt++ {
		var c Classroom
		err := s.db.Pool.QueryRow(ctx, `INSERT INTO classrooms (name, join_code, teacher_token_hash) VALUES ($1, $2, $3)
			RETURNING id::text, name, join_code, created_at`, name, newJoinCode(), hash).Scan(&c.ID, &c.Name, &c.JoinCode, &c.CreatedAt)
		if isUniqueViolation(err) && attempt < 5 {
			continue // the join code was taken; draw another
		}
		return &c, token, err
	}
}

// ByTeacher returns the classroom whose teacher holds token, checking it is classroomID.
func (s *Classrooms) ByTeacher(ctx context.Context, classroomID, token string) (*Classroom, error) {
	if token == "" {
		return nil, domain.Errorf(domain.KindUnauthorized, "unauthorized", "This request needs the classroom's teacher token: send it as Authorization: Bearer <token>.")
	}
	var c Classroom
	err := s.db.Pool.QueryRow(ctx, `SELECT id::text, name, join_code, created_at,
			(SELECT count(*) FROM students WHERE classroom_id = classrooms.id AND removed_at IS NULL)
		FROM classrooms WHERE teacher_token_hash = $1`, hashToken(token)).Scan(&c.ID, &c.Name, &c.JoinCode, &c.CreatedAt, &c.StudentCount)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, domain.Errorf(domain.KindUnauthorized, "unauthorized", "This is not a teacher token of any classroom.")
	}
	if err != nil {
		return nil, err
	}
	if c.ID != classroomID {
		return nil, classroomNotFound()
	}
	return &c, nil
}

// RotateJoinCode gives the classroom a new join code; the old one stops working.
func (s *Classrooms) RotateJoinCode(ctx context.Context, c *Classroom) error {
	for attempt := 0; ; attempt++ {
		code := newJoinCode()
		_, err := s.db.Pool.Exec(ctx, `UPDATE classrooms SET join_code = $2 WHERE id = $1`, c.ID, code)
		if isUniqueViolation(err) && attempt < 5 {
			continue
		}
		if err == nil {
			c.JoinCode = code
		}
		return err
	}
}

// Join adds a student to the classroom with the join code and returns the student's token.
func (s *Classrooms) Join(ctx context.Context, joinCode, name string) (*Student, *Classroom, string, error) {
	name, err := names.Person.Enforce(name)
	if err != nil {
		return nil, nil, "", err
	}
	var c Classroom
	err = s.db.Pool.QueryRow(ctx, `SELECT id::text, name, join_code, created_at FROM classrooms WHERE join_code = $1`,
		strings.ToUpper(strings.TrimSpace(joinCode))).Scan(&c.ID, &c.Name, &c.JoinCode, &c.CreatedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil, "", domain.Errorf(domain.KindNotFound, "join_code_not_found", "No classroom has the join code %q; ask your teacher for the current one.", joinCode)
	}
	if err != nil {
		return nil, nil, "", err
	}
	token, hash := newToken(studentTokenPrefix)
	st := Student{ClassroomID: c.ID, Name: name}
	err = s.db.Pool.QueryRow(ctx, `INSERT INTO students (classroom_id, name, name_key, token_hash) VALUES ($1, $2, $3, $4) RETURNING id::text, created_at`,
		c.ID, name, names.Key(name), hash).Scan(&st.ID, &st.CreatedAt)
	if isUniqueViolation(err) {
		return nil, nil, "", studentNameTaken(name)
	}
	if err != nil {
		return nil, nil, "", err
	}
	return &st, &c, token, nil
}

func studentNameTaken(name string) error {
	return domain.Errorf(domain.KindConflict, "name_taken", "A student called %q is already in this classroom; choose another name.", name)
}

// Students lists the classroom's current students by name.
func (s *Classrooms) Students(ctx context.Context, classroomID string) ([]Student, error) {
	rows, err := s.db.Pool.Query(ctx, `SELECT id::text, classroom_id::text, name, created_at FROM students
		WHERE classroom_id = $1 AND removed_at IS NULL ORDER BY name_key, id`, classroomID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (Student, error) {
		var st Student
		err := r.Scan(&st.ID, &st.ClassroomID, &st.Name, &st.CreatedAt)
		return st, err
	})
}

// Rename changes a student's name, in the classroom and on the seats of their games.
func (s *Classrooms) Rename(ctx context.Context, classroomID, studentID, name string) (*Student, error) {
	name, err := names.Person.Enforce(name)
	if err != nil {
		return nil, err
	}
	st := Student{ID: studentID, ClassroomID: classroomID, Name: name}
	err = s.db.inTx(ctx, func(tx pgx.Tx) error {
		err := tx.QueryRow(ctx, `UPDATE students SET name = $3, name_key = $4 WHERE id = $2::uuid AND classroom_id = $1 AND removed_at IS NULL RETURNING created_at`,
			classroomID, studentID, name, names.Key(name)).Scan(&st.CreatedAt)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			return studentNotFound()
		case isUniqueViolation(err):
			return studentNameTaken(name)
		case err != nil:
			return err
		}
		_, err = tx.Exec(ctx, `UPDATE seats SET name = $2 WHERE student_id = $1::uuid`, studentID, name)
		return err
	})
	return &st, err
}

// Remove takes a student out of the classroom. Their token stops working; their games stay.
func (s *Classrooms) Remove(ctx context.Context, classroomID, studentID string) error {
	tag, err := s.db.Pool.Exec(ctx, `UPDATE students SET removed_at = now() WHERE id = $2::uuid AND classroom_id = $1 AND removed_at IS NULL`,
		classroomID, studentID)
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return studentNotFound()
	}
	return nil
}

func isUniqueViolation(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "23505"
}

// Member is the holder of a classroom token: the teacher, or one student.
type Member struct {
	ClassroomID string
	StudentID   string // empty for the teacher
}

// Teacher reports whether the member is the classroom's teacher.
func (m *Member) Teacher() bool { return m.StudentID == "" }

// Member resolves a teacher or student token. It returns nil for a token of another kind (a seat or
// creator token), and refuses a teacher or student token that is not valid (a removed student's).
func (s *Classrooms) Member(ctx context.Context, token string) (*Member, error) {
	var m Member
	var err error
	switch {
	case strings.HasPrefix(token, teacherTokenPrefix):
		err = s.db.Pool.QueryRow(ctx, `SELECT id::text FROM classrooms WHERE teacher_token_hash = $1`, hashToken(token)).Scan(&m.ClassroomID)
	case strings.HasPrefix(token, studentTokenPrefix):
		err = s.db.Pool.QueryRow(ctx, `SELECT classroom_id::text, id::text FROM students WHERE token_hash = $1 AND removed_at IS NULL`,
			hashToken(token)).Scan(&m.ClassroomID, &m.StudentID)
	default:
		return nil, nil
	}
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, domain.Errorf(domain.KindUnauthorized, "unauthorized", "This token is not valid (a removed student's token stops working).")
	}
	if err != nil {
		return nil, err
	}
	return &m, nil
}
