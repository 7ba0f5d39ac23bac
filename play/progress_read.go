package play

import (
	"context"
	"time"

	"primegames/domain"
)

// Progress buckets and their bounds.
const (
	BucketDay  = "day"
	BucketWeek = "week"
	// MaxProgressDays bounds a progress by day: a year and a day.
	MaxProgressDays = 366
	// MaxProgressWeeks bounds a progress by week: three years.
	MaxProgressWeeks = 157
	// MaxProgressFigures bounds a progress answer: buckets times students (a year by day for 53
	// students, twelve weeks for 1,665).
	MaxProgressFigures = 20_000
	// defaultProgressDays and defaultProgressWeeks are the range read when from is not given:
	// the last 30 days, or the last 12 weeks.
	defaultProgressDays  = 30
	defaultProgressWeeks = 12
)

// ProgressAsk is what a teacher asks of a classroom's progress: the days from From to To, both
// included (UTC), zero for the defaults (To today, From 30 days or 12 weeks before), in buckets of
// a day or a week (ISO weeks: Monday to Sunday, From moved back to its Monday and To on to its
// Sunday); one student's only when StudentID is set.
type ProgressAsk struct {
	From, To  time.Time
	Bucket    string
	StudentID string
}

// ProgressFigures are a student's (or the class's) figures over one bucket.
type ProgressFigures struct {
	Start                                       time.Time
	Played, Finished, Won, Hints, Moves, Missed int
	MoveMS                                      int64
}

// MSPerMove is the mean time of a move in the bucket, in milliseconds; nil without moves.
func (f ProgressFigures) MSPerMove() *int64 {
	if f.Moves == 0 {
		return nil
	}
	ms := f.MoveMS / int64(f.Moves)
	return &ms
}

func (f *ProgressFigures) add(r ProgressRow) {
	f.plus(ProgressFigures{Played: r.Played, Finished: r.Finished, Won: r.Won, Hints: r.Hints, Moves: r.Moves, Missed: r.Missed, MoveMS: r.MoveMS})
}

// plus adds another's figures to f's (its Start stays).
func (f *ProgressFigures) plus(o ProgressFigures) {
	f.Played += o.Played
	f.Finished += o.Finished
	f.Won += o.Won
	f.Hints += o.Hints
	f.Moves += o.Moves
	f.Missed += o.Missed
	f.MoveMS += o.MoveMS
}

// StudentProgress is one current student's figures, a bucket each.
type StudentProgress struct {
	StudentID, Name string
	Buckets         []ProgressFigures
}

// ClassroomProgress is the current students' progress over the days asked, every bucket present.
type ClassroomProgress struct {
	From, To time.Time // the first and the last day, included
	Bucket   string
	Students []StudentProgress
	// Class sums the students' figures, bucket by bucket (a game two students played counts for each).
	Class []ProgressFigures
}

// ClassroomProgress reads a classroom's progress from the figures the steps kept.
func (s *Service) ClassroomProgress(ctx context.Context, classroomID string, ask ProgressAsk) (*ClassroomProgress, error) {
	return s.statistics.progress(ctx, classroomID, ask, s.now())
}

func (sp *statistics) progress(ctx context.Context, classroomID string, ask ProgressAsk, now time.Time) (*ClassroomProgress, error) {
	from, to, days, err := progressRange(ask, now)
	if err != nil {
		return nil, err
	}
	students, err := sp.students.Students(ctx, classroomID)
	if err != nil {
		return nil, err
	}
	if ask.StudentID != "" {
		var only []StudentRecord
		for _, st := range students {
			if st.ID == ask.StudentID {
				only = append(only, st)
			}
		}
		if len(only) == 0 {
			return nil, domain.Invalid("unknown_student", "Student %s is not in this classroom.", ask.StudentID)
		}
		students = only
	}
	n := int(to.Sub(from).Hours()/24)/days + 1
	if n*(len(students)+1) > MaxProgressFigures {
		return nil, domain.Invalid("progress_too_large",
			"%d %ss for %d students is %d figures; at most %d in one answer: ask for a shorter range, by week, or one student (student_id).",
			n, ask.Bucket, len(students), n*(len(students)+1), MaxProgressFigures)
	}
	rows, err := sp.summaries.ProgressDays(ctx, classroomID, ask.StudentID, from, to.AddDate(0, 0, 1), days)
	if err != nil {
		return nil, err
	}
	out := &ClassroomProgress{From: from, To: to, Bucket: ask.Bucket, Students: make([]StudentProgress, len(students)), Class: emptyBuckets(from, days, n)}
	byID := map[string]*StudentProgress{}
	for i, st := range students {
		out.Students[i] = StudentProgress{StudentID: st.ID, Name: st.Name, Buckets: emptyBuckets(from, days, n)}
		byID[st.ID] = &out.Students[i]
	}
	for _, r := range rows {
		i := int(r.Start.Sub(from).Hours()/24) / days
		st := byID[r.StudentID]
		if st == nil || i < 0 || i >= n {
			continue
		}
		st.Buckets[i].add(r)
		out.Class[i].add(r)
	}
	return out, nil
}

func emptyBuckets(from time.Time, days, n int) []ProgressFigures {
	out := make([]ProgressFigures, n)
	for i := range out {
		out[i].Start = from.AddDate(0, 0, i*days)
	}
	return out
}

// progressRange checks what was asked and works out the first and last day, included, and the
// bucket's length in days.
func progressRange(ask ProgressAsk, now time.Time) (from, to time.Time, days int, err error) {
	day := func(t time.Time) time.Time {
		t = t.UTC()
		return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	}
	switch ask.Bucket {
	case BucketDay:
		days = 1
	case BucketWeek:
		days = 7
	default:
		return from, to, 0, domain.Invalid("invalid_bucket", "bucket is %q; it is day or week.", ask.Bucket)
	}
	to = day(now)
	if !ask.To.IsZero() {
		to = day(ask.To)
	}
	if ask.From.IsZero() {
		from = to.AddDate(0, 0, 1-defaultProgressDays)
		if days == 7 {
			from = to.AddDate(0, 0, -7*(defaultProgressWeeks-1))
		}
	} else {
		from = day(ask.From)
	}
	if days == 7 { // ISO weeks: Monday to Sunday
		from = from.AddDate(0, 0, -((int(from.Weekday()) + 6) % 7))
		to = to.AddDate(0, 0, 6-(int(to.Weekday())+6)%7)
	}
	if from.After(to) {
		return from, to, 0, domain.Invalid("invalid_progress_range", "from (%s) is after to (%s).",
			from.Format(time.DateOnly), to.Format(time.DateOnly))
	}
	if n := int(to.Sub(from).Hours()/24)/days + 1; (days == 1 && n > MaxProgressDays) || (days == 7 && n > MaxProgressWeeks) {
		return from, to, 0, domain.Invalid("progress_range_too_long",
			"From %s to %s is %d %ss; at most %d days by day or %d weeks by week.", from.Format(time.DateOnly), to.Format(time.DateOnly), n,
			ask.Bucket, MaxProgressDays, MaxProgressWeeks)
	}
	return from, to, days, nil
}
