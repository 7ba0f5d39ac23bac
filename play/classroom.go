package play

import (
	"context"
	"crypto/rand"
	"errors"
	"time"

	"primegames/domain"
	"primegames/domain/names"
)

// Classroom is a teacher's class.
type Classroom struct {
	ID           string
	Name         string
	JoinCode     string
	StudentCount int // current students
	CreatedAt    time.Time
}

// StudentRecord is a member of a classroom.
type StudentRecord struct {
	ID          string
	ClassroomID string
	Name        string
	CreatedAt   time.Time
}

// joinCodeAlphabet leaves out letters and digits that children mix up (0/O, 1/I/L).
const joinCodeAlphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"

// joinCodeDraws is how many join codes are drawn before a clash with existing ones is an error.
const joinCodeDraws = 6

// newJoinCode draws a code a person types: codeLength characters of joinCodeAlphabet, uniformly
// (bytes that would favour the first letters are drawn again), grouped as ABCD-EFGH.
func newJoinCode() string {
	var code [codeLength + 1]byte
	var buf [32]byte
	n := 0
	for n < codeLength {
		_, _ = rand.Read(buf[:])
		for _, x := range buf {
			if n == codeLength {
				break
			}
			if int(x) >= 256/len(joinCodeAlphabet)*len(joinCodeAlphabet) {
				continue
			}
			at := n
			if n >= codeLength/2 {
				at++ // after the dash
			}
			code[at] = joinCodeAlphabet[int(x)%len(joinCodeAlphabet)]
			n++
		}
	}
	code[codeLength/2] = '-'
	return string(code[:])
}

// withNewJoinCode calls store with fresh join codes until one is not taken.
func withNewJoinCode(store func(code string) error) error {
	var err error
	for range joinCodeDraws {
		if err = store(newJoinCode()); !errors.Is(err, ErrTaken) {
			return err
		}
	}
	return err
}

func classroomNotFound() error {
	return domain.Errorf(domain.KindNotFound, "classroom_not_found", "There is no such classroom.")
}

func studentNotFound() error {
	return domain.Errorf(domain.KindNotFound, "student_not_found", "There is no such student in this classroom.")
}

func studentNameTaken(name string) error {
	return domain.Errorf(domain.KindConflict, "name_taken", "A student called %q is already in this classroom; choose another name.", name)
}

// CreateClassroom makes a classroom and returns it with its teacher token, shown only now.
func (s *Service) CreateClassroom(ctx context.Context, name string) (*Classroom, string, error) {
	return s.classrooms.CreateClassroom(ctx, name)
}

// JoinClassroom adds a student to the classroom with the join code and returns the student, the
// classroom and the student's token.
func (s *Service) JoinClassroom(ctx context.Context, joinCode, name string) (*StudentRecord, *Classroom, string, error) {
	return s.classrooms.JoinClassroom(ctx, joinCode, name)
}

// TeacherClassroom reads the classroom that p runs as its teacher.
func (s *Service) TeacherClassroom(ctx context.Context, p Principal, classroomID string) (*Classroom, error) {
	return s.classrooms.TeacherClassroom(ctx, p, classroomID)
}

// RotateJoinCode gives the classroom a new join code; the old one stops working.
func (s *Service) RotateJoinCode(ctx context.Context, c *Classroom) error {
	return s.classrooms.RotateJoinCode(ctx, c)
}

// Students lists the classroom's current students by name.
func (s *Service) Students(ctx context.Context, classroomID string) ([]StudentRecord, error) {
	return s.classrooms.Students(ctx, classroomID)
}

// RenameStudent changes a current student's name, in the classroom and on the seats of their games.
func (s *Service) RenameStudent(ctx context.Context, classroomID, studentID, name string) (*StudentRecord, error) {
	return s.classrooms.RenameStudent(ctx, classroomID, studentID, name)
}

// RemoveStudent takes a student out of the classroom. Their token stops working; their games stay.
func (s *Service) RemoveStudent(ctx context.Context, classroomID, studentID string) error {
	return s.classrooms.RemoveStudent(ctx, classroomID, studentID)
}

// EraseStudent replaces a removed student's name everywhere by a placeholder; their games, history
// and statistics stay otherwise as they were. Erasing a student twice changes nothing more.
func (s *Service) EraseStudent(ctx context.Context, classroomID, studentID string) (*StudentRecord, error) {
	return s.classrooms.EraseStudent(ctx, classroomID, studentID)
}

func (cr *classrooms) CreateClassroom(ctx context.Context, name string) (*Classroom, string, error) {
	name, err := names.Classroom.Enforce(name)
	if err != nil {
		return nil, "", err
	}
	token, hash := NewToken(TokenTeacher)
	var c *Classroom
	err = withNewJoinCode(func(code string) (err error) {
		c, err = cr.store.InsertClassroom(ctx, name, code, hash)
		return err
	})
	return c, token, err
}

func (cr *classrooms) JoinClassroom(ctx context.Context, joinCode, name string) (*StudentRecord, *Classroom, string, error) {
	name, err := names.Person.Enforce(name)
	if err != nil {
		return nil, nil, "", err
	}
	c, err := cr.store.ClassroomByJoinCode(ctx, NormalCode(joinCode))
	if errors.Is(err, ErrNotFound) {
		return nil, nil, "", domain.Errorf(domain.KindNotFound, "join_code_not_found", "No classroom has the join code %q; ask your teacher for the current one.", joinCode)
	}
	if err != nil {
		return nil, nil, "", err
	}
	token, hash := NewToken(TokenStudent)
	st, err := cr.store.InsertStudent(ctx, c.ID, name, names.Key(name), hash)
	if errors.Is(err, ErrTaken) {
		return nil, nil, "", studentNameTaken(name)
	}
	if err != nil {
		return nil, nil, "", err
	}
	return st, c, token, nil
}

func (cr *classrooms) TeacherClassroom(ctx context.Context, p Principal, classroomID string) (*Classroom, error) {
	if err := MayRunClassroom(p, classroomID); err != nil {
		return nil, err
	}
	c, err := cr.store.Classroom(ctx, classroomID)
	if errors.Is(err, ErrNotFound) {
		return nil, classroomNotFound()
	}
	return c, err
}

func (cr *classrooms) RotateJoinCode(ctx context.Context, c *Classroom) error {
	return withNewJoinCode(func(code string) error {
		err := cr.store.SetJoinCode(ctx, c.ID, code)
		if err == nil {
			c.JoinCode = code
		}
		return err
	})
}

func (cr *classrooms) Students(ctx context.Context, classroomID string) ([]StudentRecord, error) {
	return cr.store.Students(ctx, classroomID)
}

func (cr *classrooms) RenameStudent(ctx context.Context, classroomID, studentID, name string) (*StudentRecord, error) {
	name, err := names.Person.Enforce(name)
	if err != nil {
		return nil, err
	}
	st, err := cr.store.RenameStudent(ctx, classroomID, studentID, name, names.Key(name))
	switch {
	case errors.Is(err, ErrNotFound):
		return nil, studentNotFound()
	case errors.Is(err, ErrTaken):
		return nil, studentNameTaken(name)
	}
	return st, err
}

func (cr *classrooms) RemoveStudent(ctx context.Context, classroomID, studentID string) error {
	err := cr.store.RemoveStudent(ctx, classroomID, studentID)
	if errors.Is(err, ErrNotFound) {
		return studentNotFound()
	}
	return err
}

func (cr *classrooms) EraseStudent(ctx context.Context, classroomID, studentID string) (*StudentRecord, error) {
	st, err := cr.store.EraseStudent(ctx, classroomID, studentID)
	switch {
	case errors.Is(err, ErrNotFound):
		return nil, studentNotFound()
	case errors.Is(err, ErrNotRemoved):
		return nil, domain.Errorf(domain.KindConflict, "student_not_removed",
			"Only a removed student's data can be erased; remove the student from the classroom first (DELETE the student).")
	}
	return st, err
}
