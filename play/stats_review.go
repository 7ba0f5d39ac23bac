package play

import (
	"context"
)

// ReviewCounts sums the judged actions of reviews.
type ReviewCounts struct {
	Judged int
	Labels map[string]int // judged actions by label
	Missed map[string]int // missed opportunities by kind
}

// Accuracy is the share of judged actions labelled best or good; nil when none was judged.
func (r *ReviewCounts) Accuracy() *float64 {
	if r == nil {
		return nil
	}
	return accuracyOf(r.Labels, r.Judged)
}

func (r *ReviewCounts) add(judged int, labels, missed map[string]int) {
	r.Judged += judged
	for label, n := range labels {
		r.Labels[label] += n
	}
	for kind, n := range missed {
		r.Missed[kind] += n
	}
}

// AllReviews sums a student's review counts over every kind; nil when no game was reviewed.
func (st *StudentStats) AllReviews() *ReviewCounts {
	if len(st.Reviews) == 0 {
		return nil
	}
	all := &ReviewCounts{Labels: map[string]int{}, Missed: map[string]int{}}
	for _, r := range st.Reviews {
		all.add(r.Judged, r.Labels, nil)
	}
	return all
}

func (st *StudentStats) addReview(kind string, judged int, labels, missed map[string]int) {
	if st.Reviews[kind] == nil {
		st.Reviews[kind] = &ReviewCounts{Labels: map[string]int{}, Missed: map[string]int{}}
	}
	st.Reviews[kind].add(judged, labels, missed)
}

// countReviews credits each current student with their seats' summaries in the reviews the worker
// kept of the finished games (review_worker.go), summed by the store. It returns how many finished
// games whose kind has an advisor still wait for their review: their figures join the statistics
// once the worker has made it.
func (sp *statistics) countReviews(ctx context.Context, classroomID string, byID map[string]*StudentStats) (pending int, err error) {
	totals, err := sp.summaries.ReviewTotals(ctx, classroomID)
	if err != nil {
		return 0, err
	}
	for _, t := range totals {
		if st := byID[t.StudentID]; st != nil {
			st.addReview(t.Kind, t.Judged, t.Labels, t.Missed)
		}
	}
	queued, err := sp.summaries.QueuedReviews(ctx, classroomID)
	if err != nil {
		return 0, err
	}
	for kindName, n := range queued {
		if kind, ok := sp.kinds.Lookup(kindName); ok && kind.Advisor != nil {
			pending += n
		}
	}
	return pending, nil
}
