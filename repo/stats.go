package repo

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"primegames/domain"
)

// StudentStats is what a teacher learns about one student from their games.
type StudentStats struct {
	StudentID     string
	Name          string
	GamesPlayed   int // started games the student has a seat in
	GamesFinished int
	GamesWon      int
	// Counts holds the engines' counters, by game kind: Counts["primed"]["draws"].
	Counts   map[string]map[string]int
	Attempts []AttemptCount
}

// AttemptCount is how often a student's actions were refused for one reason, with recent examples.
type AttemptCount struct {
	Code     string
	Count    int
	Examples []string
}

// Attempt is a refused action, kept for review.
type Attempt struct {
	ID        int64
	Seat      int
	StudentID *string
	Version   int64
	Action    json.RawMessage
	Code      string
	Detail    string
	CreatedAt time.Time
}

const attemptExamples = 3

// ClassroomStats is every current student's statistics, and the class's refused attempts.
type ClassroomStats struct {
	Students []StudentStats
	// ClassAttempts counts the refusals of all the class's students by code, with the class's most
	// recent examples.
	ClassAttempts []AttemptCount
}

// Stats gathers the statistics of the classroom's games.
func (s *Classrooms) Stats(ctx context.Context, classroomID string) (*ClassroomStats, error) {
	students, err := s.studentStats(ctx, classroomID)
	if err != nil {
		return nil, err
	}
	class, err := s.classAttempts(ctx, classroomID)
	if err != nil {
		return nil, err
	}
	return &ClassroomStats{Students: students, ClassAttempts: class}, nil
}

func (s *Classrooms) studentStats(ctx context.Context, classroomID string) ([]StudentStats, error) {
	students, err := s.Students(ctx, classroomID)
	if err != nil {
		return nil, err
	}
	stats := make([]StudentStats, len(students))
	byID := map[string]*StudentStats{}
	for i, st := range students {
		stats[i] = StudentStats{StudentID: st.ID, Name: st.Name, Counts: map[string]map[string]int{}}
		byID[st.ID] = &stats[i]
	}
	seats, err := s.classroomSeats(ctx, classroomID)
	if err != nil {
		return nil, err
	}
	for _, seat := range seats {
		st := byID[seat.studentID]
		if st == nil || seat.status == StatusLobby {
			continue
		}
		st.GamesPlayed++
		if seat.status == StatusFinished {
			st.GamesFinished++
			if seat.won {
				st.GamesWon++
			}
		}
	}
	if err := s.tallyGames(ctx, classroomID, seats, byID); err != nil {
		return nil, err
	}
	return stats, s.countAttempts(ctx, classroomID, byID)
}

type classroomSeat struct {
	gameID, kind, studentID string
	seat                    int
	status                  Status
	won                     bool
}

func (s *Classrooms) classroomSeats(ctx context.Context, classroomID string) ([]classroomSeat, error) {
	rows, err := s.db.Pool.Query(ctx, `SELECT g.id::text, g.kind, g.status, s.seat, s.student_id::text, s.seat = ANY(coalesce(g.winners, '{}'))
		FROM games g JOIN seats s ON s.game_id = g.id
		WHERE g.classroom_id = $1 AND s.student_id IS NOT NULL`, classroomID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (classroomSeat, error) {
		var cs classroomSeat
		err := r.Scan(&cs.gameID, &cs.kind, &cs.status, &cs.seat, &cs.studentID, &cs.won)
		return cs, err
	})
}

// tallyGames runs each game's history through its kind's tally and credits each seat's counters
// to the student in that seat.
func (s *Classrooms) tallyGames(ctx context.Context, classroomID string, seats []classroomSeat, byID map[string]*StudentStats) error {
	studentOf := map[string]map[int]string{} // game → seat → student
	for _, cs := range seats {
		if studentOf[cs.gameID] == nil {
			studentOf[cs.gameID] = map[int]string{}
		}
		studentOf[cs.gameID][cs.seat] = cs.studentID
	}
	rows, err := s.db.Pool.Query(ctx, `SELECT g.id::text, g.kind, a.outcome FROM actions a JOIN games g ON g.id = a.game_id
		WHERE g.classroom_id = $1 ORDER BY a.game_id, a.seq`, classroomID)
	if err != nil {
		return err
	}
	defer rows.Close()
	var current, kind string
	counts := domain.Counts{}
	flush := func() {
		for seat, named := range counts {
			st := byID[studentOf[current][seat]]
			if st == nil {
				continue
			}
			if st.Counts[kind] == nil {
				st.Counts[kind] = map[string]int{}
			}
			for name, n := range named {
				st.Counts[kind][name] += n
			}
		}
		counts = domain.Counts{}
	}
	for rows.Next() {
		var gameID, gameKind string
		var outcome []byte
		if err := rows.Scan(&gameID, &gameKind, &outcome); err != nil {
			return err
		}
		if gameID != current {
			flush()
			current, kind = gameID, gameKind
		}
		kind, ok := s.db.Kinds.Lookup(gameKind)
		if !ok {
			return fmt.Errorf("game %s has unknown kind %q", gameID, gameKind)
		}
		if err := kind.Tally(outcome, counts); err != nil {
			return fmt.Errorf("tallying game %s: %w", gameID, err)
		}
	}
	flush()
	return rows.Err()
}

// attemptsByCode counts the refusals of the classroom's current students by code, most frequent
// first, with the most recent sentences. Grouped per student, or for the whole class.
const attemptsByCode = `SELECT %s, a.code, count(*), (array_agg(a.detail ORDER BY a.id DESC))[1:$2]
	FROM attempts a
	JOIN games g ON g.id = a.game_id
	JOIN seats s ON s.game_id = a.game_id AND s.seat = a.seat
	JOIN students st ON st.id = s.student_id AND st.removed_at IS NULL
	WHERE g.classroom_id = $1
	GROUP BY 1, 2 ORDER BY 1, 3 DESC, 2`

func (s *Classrooms) countAttempts(ctx context.Context, classroomID string, byID map[string]*StudentStats) error {
	return s.scanAttempts(ctx, fmt.Sprintf(attemptsByCode, "s.student_id::text"), classroomID, func(studentID string, ac AttemptCount) {
		if st := byID[studentID]; st != nil {
			st.Attempts = append(st.Attempts, ac)
		}
	})
}

func (s *Classrooms) classAttempts(ctx context.Context, classroomID string) ([]AttemptCount, error) {
	var out []AttemptCount
	err := s.scanAttempts(ctx, fmt.Sprintf(attemptsByCode, "''"), classroomID, func(_ string, ac AttemptCount) {
		out = append(out, ac)
	})
	return out, err
}

func (s *Classrooms) scanAttempts(ctx context.Context, sql, classroomID string, each func(string, AttemptCount)) error {
	rows, err := s.db.Pool.Query(ctx, sql, classroomID, attemptExamples)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var group string
		var ac AttemptCount
		if err := rows.Scan(&group, &ac.Code, &ac.Count, &ac.Examples); err != nil {
			return err
		}
		each(group, ac)
	}
	return rows.Err()
}

// Attempts lists a game's refused actions, oldest first.
func (s *Games) Attempts(ctx context.Context, gameID string) ([]Attempt, error) {
	rows, err := s.db.Pool.Query(ctx, `SELECT a.id, a.seat, s.student_id::text, a.version, a.action, a.code, a.detail, a.created_at
		FROM attempts a LEFT JOIN seats s ON s.game_id = a.game_id AND s.seat = a.seat
		WHERE a.game_id = $1 ORDER BY a.id`, gameID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (Attempt, error) {
		var a Attempt
		err := r.Scan(&a.ID, &a.Seat, &a.StudentID, &a.Version, &a.Action, &a.Code, &a.Detail, &a.CreatedAt)
		return a, err
	})
}
