package play

import (
	"context"
	"errors"
	"time"

	"primegames/domain"
)

// Co-teachers (issue 41): a classroom's owner — its owning account, or the classroom's teacher
// token — makes a one-time invite code (pgi_…, 256 random bits, hashed at rest, CoTeacherInviteLifetime);
// a signed-in teacher who accepts it co-teaches the classroom: their account token and browser
// sessions are its teacher there as the owner's are (teaching.go). The owner lists the teachers and
// removes a co-teacher, whose streams on the classroom then end (migration 00043).

const (
	// CoTeacherInviteLifetime is how long an invite code works.
	CoTeacherInviteLifetime = 7 * 24 * time.Hour
	// MaxCoTeacherInvites bounds a classroom's unexpired invite codes.
	MaxCoTeacherInvites = 20
	// MaxCoTeachers bounds a classroom's co-teachers.
	MaxCoTeachers = 20
)

// TeacherInfo is one teacher of a classroom: its owner or a co-teacher, by display name.
type TeacherInfo struct {
	AccountID string
	Name      string
	Owner     bool
	AddedAt   time.Time
}

// CoTeacherStore keeps classrooms' co-teachers and their invites.
type CoTeacherStore interface {
	// ClassroomOwner is the account owning the classroom, "" for none; ErrNotFound when there is
	// no such classroom.
	ClassroomOwner(ctx context.Context, classroomID string) (string, error)
	// InsertCoTeacherInvite stores an invite of the classroom, deleting its expired ones; ErrTaken
	// when it holds MaxCoTeacherInvites unexpired at now.
	InsertCoTeacherInvite(ctx context.Context, classroomID string, hash []byte, now, expiresAt time.Time) error
	// AcceptCoTeacherInvite takes the invite with hash, unexpired at now, and makes the account a
	// co-teacher of its classroom (nothing when it owns or co-teaches it already); it returns the
	// classroom. ErrNotFound for no such invite; ErrTaken when the classroom has MaxCoTeachers.
	AcceptCoTeacherInvite(ctx context.Context, hash []byte, accountID string, now time.Time) (string, error)
	// ClassroomTeachers lists the classroom's owner, then its co-teachers oldest first.
	ClassroomTeachers(ctx context.Context, classroomID string) ([]TeacherInfo, error)
	// DeleteCoTeacher removes a co-teacher of the classroom; ErrNotFound when it is none.
	DeleteCoTeacher(ctx context.Context, classroomID, accountID string) error
}

// mayInviteCoTeachers lets the classroom's owner act: its teacher token, or the owning account
// (not a co-teacher's).
func (s *Service) mayInviteCoTeachers(ctx context.Context, p Principal, classroomID string) error {
	if err := MayRunClassroom(p, classroomID); err != nil {
		return err
	}
	if p.AccountID == "" {
		return nil
	}
	owner, err := s.store.CoTeacherStore.ClassroomOwner(ctx, classroomID)
	if err != nil {
		return err
	}
	if owner != p.AccountID {
		return domain.Errorf(domain.KindForbidden, "classroom_owner_required", "Only the classroom's owner (its owning account, or its teacher token) invites and removes co-teachers.")
	}
	return nil
}

// CreateCoTeacherInvite makes a one-time invite code of the classroom, shown once.
func (s *Service) CreateCoTeacherInvite(ctx context.Context, p Principal, classroomID string) (string, time.Time, error) {
	if err := s.mayInviteCoTeachers(ctx, p, classroomID); err != nil {
		return "", time.Time{}, err
	}
	code, hash := NewToken(TokenCoTeacherInvite)
	now := s.now()
	expires := now.Add(CoTeacherInviteLifetime)
	err := s.store.CoTeacherStore.InsertCoTeacherInvite(ctx, classroomID, hash, now, expires)
	if errors.Is(err, ErrTaken) {
		return "", time.Time{}, domain.Errorf(domain.KindConflict, "too_many_co_teacher_invites", "This classroom holds %d unused invites already, the most it may; wait for one to be used or to expire (7 days).", MaxCoTeacherInvites)
	}
	return code, expires, err
}

// AcceptCoTeacherInvite makes the account of p a co-teacher of the invite's classroom.
func (s *Service) AcceptCoTeacherInvite(ctx context.Context, p Principal, code string) (*Classroom, error) {
	if err := mustBeAccount(p); err != nil {
		return nil, err
	}
	classroomID, err := s.store.CoTeacherStore.AcceptCoTeacherInvite(ctx, hashToken(code), p.AccountID, s.now())
	switch {
	case errors.Is(err, ErrNotFound):
		return nil, domain.Errorf(domain.KindNotFound, "co_teacher_invite_not_found", "No invite has this code: it was never made, was used already or has expired (after 7 days). Ask the classroom's owner for another.")
	case errors.Is(err, ErrTaken):
		return nil, domain.Errorf(domain.KindConflict, "too_many_co_teachers", "This classroom has %d co-teachers already, the most it may.", MaxCoTeachers)
	case err != nil:
		return nil, err
	}
	return s.store.Classroom(ctx, classroomID)
}

// ClassroomTeachers lists the classroom's teachers, for any of its teachers.
func (s *Service) ClassroomTeachers(ctx context.Context, p Principal, classroomID string) ([]TeacherInfo, error) {
	if err := MayRunClassroom(p, classroomID); err != nil {
		return nil, err
	}
	return s.store.CoTeacherStore.ClassroomTeachers(ctx, classroomID)
}

// RemoveCoTeacher removes a co-teacher of the classroom (the owner's request); its streams on the
// classroom end.
func (s *Service) RemoveCoTeacher(ctx context.Context, p Principal, classroomID, accountID string) error {
	if err := s.mayInviteCoTeachers(ctx, p, classroomID); err != nil {
		return err
	}
	if !validUUID(accountID) {
		return coTeacherNotFound()
	}
	err := s.store.CoTeacherStore.DeleteCoTeacher(ctx, classroomID, accountID)
	if errors.Is(err, ErrNotFound) {
		return coTeacherNotFound()
	}
	return err
}

func coTeacherNotFound() error {
	return domain.Errorf(domain.KindNotFound, "co_teacher_not_found", "This account is no co-teacher of this classroom (its owner is not removed this way).")
}
