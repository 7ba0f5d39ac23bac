package play

import (
	"context"
	"errors"
	"time"

	"primegames/domain"
)

// ClassroomPosition is where each game of a classroom stood at a point in time: its last entry (-1
// before its start) and whether it had ended.
type ClassroomPosition struct {
	LastSeq map[string]int64
	Over    map[string]bool
}

// ClassroomPosition reads where the games of the classroom stood before a time (nil: now), for its
// teacher. The teacher's token names the classroom, so there is no other check that it exists.
func (s *Service) ClassroomPosition(ctx context.Context, p Principal, classroomID string, before *time.Time) (*ClassroomPosition, error) {
	return s.classrooms.ClassroomPosition(ctx, p, classroomID, before)
}

// EntryTime is when entry seq of a game of the classroom was recorded, for its teacher.
func (s *Service) EntryTime(ctx context.Context, p Principal, classroomID, gameID string, seq int64) (time.Time, error) {
	return s.classrooms.EntryTime(ctx, p, classroomID, gameID, seq)
}

func (cr *classrooms) ClassroomPosition(ctx context.Context, p Principal, classroomID string, before *time.Time) (*ClassroomPosition, error) {
	if err := MayWatchClassroom(p, classroomID); err != nil {
		return nil, err
	}
	return cr.store.ClassroomPosition(ctx, classroomID, before)
}

func (cr *classrooms) EntryTime(ctx context.Context, p Principal, classroomID, gameID string, seq int64) (time.Time, error) {
	if err := MayWatchClassroom(p, classroomID); err != nil {
		return time.Time{}, err
	}
	at, err := cr.store.EntryTime(ctx, classroomID, gameID, seq)
	if errors.Is(err, ErrNotFound) {
		return at, domain.Errorf(domain.KindNotFound, "event_not_found", "Entry %d of game %s is not an event of this classroom.", seq, gameID)
	}
	return at, err
}
