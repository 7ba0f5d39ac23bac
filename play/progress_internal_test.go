package play

import (
	"context"
	"fmt"
	"testing"
	"time"

	"primegames/domain"
)

// manyStudents is a classroom store with n current students.
type manyStudents struct {
	ClassroomStore
	n int
}

func (m manyStudents) Students(context.Context, string) ([]StudentRecord, error) {
	out := make([]StudentRecord, m.n)
	for i := range out {
		out[i] = StudentRecord{ID: fmt.Sprintf("00000000-0000-0000-0000-%012d", i), Name: fmt.Sprint("Student ", i)}
	}
	return out, nil
}

// A progress answer holds at most MaxProgressFigures figures: a year by day is refused for 60
// students (before the store is read), and answered for 53.
func TestProgressAnswerIsBounded(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 12, 7, 12, 0, 0, 0, time.UTC)
	year := ProgressAsk{Bucket: BucketDay, From: now.AddDate(0, 0, -365)}
	sp := &statistics{students: manyStudents{n: 60}}
	if _, err := sp.progress(context.Background(), "c", year, now); domain.ErrorCode(err) != "progress_too_large" {
		t.Errorf("a year by day for 60 students: %v", err)
	}
	read := &progressReads{}
	sp = &statistics{students: manyStudents{n: 53}, summaries: read}
	p, err := sp.progress(context.Background(), "c", year, now)
	if err != nil || read.calls != 1 || len(p.Students) != 53 || len(p.Class) != 366 {
		t.Errorf("a year by day for 53 students: %v, %d reads", err, read.calls)
	}
}

// progressReads counts the reads of progress days, which find none.
type progressReads struct {
	ProgressStore
	calls int
}

func (r *progressReads) ProgressDays(context.Context, string, string, time.Time, time.Time, int) ([]ProgressRow, error) {
	r.calls++
	return nil, nil
}
