package play

import (
	"context"
	"encoding/json"
	"fmt"

	"primegames/domain"
)

// StudentStats is what a teacher learns about one student (or the whole class) from their games.
type StudentStats struct {
	StudentID     string
	Name          string
	GamesPlayed   int // started games the student has a seat in
	GamesFinished int
	GamesWon      int
	// Counts holds the engines' counters, by game kind: Counts["primed"]["draws"].
	Counts   map[string]map[string]int
	Attempts []AttemptCount
	// Mistakes counts what the kinds read from refused actions' facts, by game kind, figure and
	// value: Mistakes["primed"]["not_prime_totals"]["21"].
	Mistakes map[string]map[string]map[string]int
	// HintsUsed counts the hints the student asked for (once per position).
	HintsUsed int
	// Reviews sums the student's seats in the kept move reviews of finished games, by game kind.
	Reviews map[string]*ReviewCounts
}

// AttemptCount is how often actions were refused for one reason, with recent examples.
type AttemptCount struct {
	Code     string
	Count    int
	Examples []string
}

// ClassroomStats is every current student's statistics and the class's.
type ClassroomStats struct {
	Students []StudentStats
	// Class is the class as a whole: its games are the started games in which a current student
	// holds a seat, each counted once (two students' game is one game played, not two), won when a
	// current student won it; its counters are the students' added up; its attempts count all the
	// current students' refusals by code, with the class's most recent examples.
	Class StudentStats
	// ReviewsPending counts the finished games whose move review the worker has not made yet:
	// their figures join the statistics once it has.
	ReviewsPending int
}

// KeptTally is a game's kept GameTally, as JSON, counted up to Version; Tally is nil when the
// game keeps none that is current.
type KeptTally struct {
	GameID, Kind string
	Version      int64
	Tally        json.RawMessage
}

// StudentSeat is a seat a student holds in one of the classroom's games.
type StudentSeat struct {
	GameID, Kind, StudentID string
	Seat                    int
	Status                  Status
	Won                     bool
}

// OutcomeEntry is what the statistics read of a history entry.
type OutcomeEntry struct {
	GameID, Kind string
	Seat         *int
	// Service marks the service's own entries (a resignation, G-3), which no tally reads.
	Service bool
	Action  json.RawMessage
	Outcome json.RawMessage
}

// StatsStore reads what a classroom's statistics are made of.
type StatsStore interface {
	// StudentSeats lists the seats students hold in the classroom's games.
	StudentSeats(ctx context.Context, classroomID string) ([]StudentSeat, error)
	// StaleTallies lists the started games of the classroom in which a student holds a seat that
	// keep no current tally (SeatCounts sums the others' kept tallies).
	StaleTallies(ctx context.Context, classroomID string) ([]KeptTally, error)
	// EachOutcome calls fn with the entries of the games but their starts, up to each game's
	// version, each game's entries together and in order.
	EachOutcome(ctx context.Context, games []KeptTally, fn func(OutcomeEntry) error) error
	// KeepTallies keeps each game's tally, counted up to its version, unless the game has moved on
	// since.
	KeepTallies(ctx context.Context, games []KeptTally) error
	// AttemptCounts counts the refusals of the classroom's current students by code, most frequent
	// first, each with up to examples of the most recent details: by student id, or all under ""
	// when perStudent is false.
	AttemptCounts(ctx context.Context, classroomID string, perStudent bool, examples int) (map[string][]AttemptCount, error)
	// EachRefusalFacts calls fn with the refused actions of the classroom's current students that
	// kept facts, those alike together: the student, the game's kind, the code, the facts and how
	// many refusals had them.
	EachRefusalFacts(ctx context.Context, classroomID string, fn func(studentID, kind, code string, facts json.RawMessage, n int) error) error
}

const attemptExamples = 3

// ClassroomStats gathers the statistics of the classroom's games: each stored outcome through its
// kind's tally, credited to the student in each seat.
func (s *Service) ClassroomStats(ctx context.Context, classroomID string) (*ClassroomStats, error) {
	return s.statistics.ClassroomStats(ctx, classroomID)
}

func (sp *statistics) ClassroomStats(ctx context.Context, classroomID string) (*ClassroomStats, error) {
	students, err := sp.students.Students(ctx, classroomID)
	if err != nil {
		return nil, err
	}
	stats := &ClassroomStats{Students: make([]StudentStats, len(students)), Class: newStudentStats("", "")}
	byID := map[string]*StudentStats{}
	for i, st := range students {
		stats.Students[i] = newStudentStats(st.ID, st.Name)
		byID[st.ID] = &stats.Students[i]
	}
	games, err := sp.summaries.GameCounts(ctx, classroomID)
	if err != nil {
		return nil, err
	}
	for _, g := range games {
		st := &stats.Class
		if g.StudentID != "" {
			if st = byID[g.StudentID]; st == nil {
				continue
			}
		}
		st.GamesPlayed, st.GamesFinished, st.GamesWon = g.Played, g.Finished, g.Won
	}
	if err := sp.tallyGames(ctx, classroomID, byID); err != nil {
		return nil, err
	}
	if err := sp.countMistakes(ctx, classroomID, byID); err != nil {
		return nil, err
	}
	if stats.ReviewsPending, err = sp.countReviews(ctx, classroomID, byID); err != nil {
		return nil, err
	}
	hints, err := sp.reviews.HintCounts(ctx, classroomID)
	if err != nil {
		return nil, err
	}
	for id, n := range hints {
		if st := byID[id]; st != nil {
			st.HintsUsed = n
		}
	}
	perStudent, err := sp.stats.AttemptCounts(ctx, classroomID, true, attemptExamples)
	if err != nil {
		return nil, err
	}
	class, err := sp.stats.AttemptCounts(ctx, classroomID, false, attemptExamples)
	if err != nil {
		return nil, err
	}
	for i := range stats.Students {
		stats.Students[i].Attempts = perStudent[stats.Students[i].StudentID]
		stats.Class.add(stats.Students[i])
	}
	stats.Class.Attempts = class[""]
	return stats, nil
}

func newStudentStats(id, name string) StudentStats {
	return StudentStats{StudentID: id, Name: name, Counts: map[string]map[string]int{}, Mistakes: map[string]map[string]map[string]int{},
		Reviews: map[string]*ReviewCounts{}}
}

// tallyGames credits each seat's counters in the games' kept tallies to the current student in that
// seat: the store sums the current tallies per student and kind (SeatCounts), so a request decodes
// none of them. A game that keeps no current tally (one from before kept tallies, or moved on by an
// instance that did not keep them) is counted from its history, and its tally kept, so the cost of
// a class's statistics grows with its number of students, not with its games' lengths.
func (sp *statistics) tallyGames(ctx context.Context, classroomID string, byID map[string]*StudentStats) error {
	counts, err := sp.summaries.SeatCounts(ctx, classroomID)
	if err != nil {
		return err
	}
	for _, c := range counts {
		if st := byID[c.StudentID]; st != nil {
			st.addCounts(c.Kind, map[string]int{c.Name: c.Count})
		}
	}
	games, err := sp.stats.StaleTallies(ctx, classroomID)
	if err != nil || len(games) == 0 {
		return err
	}
	tallies, err := sp.countStaleTallies(ctx, games)
	if err != nil {
		return err
	}
	seats, err := sp.stats.StudentSeats(ctx, classroomID)
	if err != nil {
		return err
	}
	studentOf := map[string]map[int]string{} // game → seat → student
	for _, ss := range seats {
		if studentOf[ss.GameID] == nil {
			studentOf[ss.GameID] = map[int]string{}
		}
		studentOf[ss.GameID][ss.Seat] = ss.StudentID
	}
	for _, g := range games {
		for seat, named := range tallies[g.GameID].Counts {
			if st := byID[studentOf[g.GameID][seat]]; st != nil {
				st.addCounts(g.Kind, named)
			}
		}
	}
	return nil
}

// countStaleTallies counts, from their histories, the tallies of the games that keep none that is
// current, and keeps them.
func (sp *statistics) countStaleTallies(ctx context.Context, games []KeptTally) (map[string]*GameTally, error) {
	var stale []KeptTally
	for _, g := range games {
		if g.Tally == nil {
			if _, ok := sp.kinds.Lookup(g.Kind); !ok {
				return nil, fmt.Errorf("game %s has unknown kind %q", g.GameID, g.Kind)
			}
			stale = append(stale, g)
		}
	}
	tallies := map[string]*GameTally{}
	if len(stale) == 0 {
		return tallies, nil
	}
	for _, g := range stale {
		tallies[g.GameID] = &GameTally{Counts: domain.Counts{}}
	}
	err := sp.stats.EachOutcome(ctx, stale, func(e OutcomeEntry) error {
		return tallies[e.GameID].add(sp.kindTally(e.Kind), e)
	})
	if err != nil {
		return nil, err
	}
	for i, g := range stale {
		if stale[i].Tally, err = json.Marshal(tallies[g.GameID]); err != nil {
			return nil, err
		}
	}
	return tallies, sp.stats.KeepTallies(ctx, stale)
}

func (st *StudentStats) addCounts(kind string, named map[string]int) {
	if st.Counts[kind] == nil {
		st.Counts[kind] = map[string]int{}
	}
	for name, n := range named {
		st.Counts[kind][name] += n
	}
}

// add adds one student's counters to the class's; the class's games are counted by
// countClassGames, and its attempts come from the store, where their order in time is known.
func (st *StudentStats) add(other StudentStats) {
	for kind, counts := range other.Counts {
		st.addCounts(kind, counts)
	}
	st.HintsUsed += other.HintsUsed
	for kind, r := range other.Reviews {
		st.addReview(kind, r.Judged, r.Labels, r.Missed)
	}
	for kind, figures := range other.Mistakes {
		for figure, values := range figures {
			for value, n := range values {
				st.addMistake(kind, figure, value, n)
			}
		}
	}
}

// countMistakes credits each refused action's mistake, as its kind reads it from the facts, to the
// student who made it.
func (sp *statistics) countMistakes(ctx context.Context, classroomID string, byID map[string]*StudentStats) error {
	return sp.stats.EachRefusalFacts(ctx, classroomID, func(studentID, kindName, code string, facts json.RawMessage, n int) error {
		st := byID[studentID]
		kind, ok := sp.kinds.Lookup(kindName)
		if st == nil || !ok {
			return nil
		}
		if figure, value, ok := kind.MistakeOf(code, facts); ok {
			st.addMistake(kindName, figure, value, n)
		}
		return nil
	})
}

func (st *StudentStats) addMistake(kind, figure, value string, n int) {
	if st.Mistakes[kind] == nil {
		st.Mistakes[kind] = map[string]map[string]int{}
	}
	if st.Mistakes[kind][figure] == nil {
		st.Mistakes[kind][figure] = map[string]int{}
	}
	st.Mistakes[kind][figure][value] += n
}
