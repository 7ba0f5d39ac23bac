package play

import (
	"context"
	"encoding/json"
	"fmt"
)

// reviewsPerStats bounds the reviews one statistics request makes for finished games that have none
// kept yet; the rest are made by the next requests, and counted as pending meanwhile.
const reviewsPerStats = 10

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

// countReviews credits each student with their seat's summary in the kept reviews of the finished
// games they played, making (within reviewsPerStats) the reviews not kept yet. It returns how many
// finished games still wait for their review.
func (sp *statistics) countReviews(ctx context.Context, seats []StudentSeat, byID map[string]*StudentStats) (pending int, err error) {
	var ids []string
	reviewed := map[string]bool{}
	for _, ss := range seats {
		kind, ok := sp.kinds.Lookup(ss.Kind)
		if ss.Status != StatusFinished || byID[ss.StudentID] == nil || !ok || kind.Advisor == nil || reviewed[ss.GameID] {
			continue
		}
		reviewed[ss.GameID] = true
		ids = append(ids, ss.GameID)
	}
	if len(ids) == 0 {
		return 0, nil
	}
	kept, err := sp.reviews.Reviews(ctx, ids)
	if err != nil {
		return 0, err
	}
	reviews := map[string]*MoveReview{}
	made := 0
	for _, id := range ids {
		raw, ok := kept[id]
		if !ok && made == reviewsPerStats {
			pending++
			continue
		}
		review, err := sp.reviewOf(ctx, id, raw)
		if err != nil {
			return 0, err
		}
		if !ok {
			made++
		}
		reviews[id] = review
	}
	for _, ss := range seats {
		review, st := reviews[ss.GameID], byID[ss.StudentID]
		if review == nil || st == nil {
			continue
		}
		for _, summary := range review.Seats {
			if summary.Seat == ss.Seat {
				st.addReview(ss.Kind, summary.Judged, summary.Labels, summary.Missed)
			}
		}
	}
	return pending, nil
}

// reviewOf decodes a kept review, or makes and keeps the review of a finished game without one.
func (sp *statistics) reviewOf(ctx context.Context, gameID string, kept json.RawMessage) (*MoveReview, error) {
	if kept != nil {
		var review MoveReview
		if err := json.Unmarshal(kept, &review); err != nil {
			return nil, fmt.Errorf("the kept review of game %s: %w", gameID, err)
		}
		return &review, nil
	}
	g, err := sp.games.Load(ctx, gameID)
	if err != nil {
		return nil, err
	}
	advisor, err := advisorIn(sp.kinds, g, "review_unavailable", "move review")
	if err != nil {
		return nil, err
	}
	return sp.review.finalReview(ctx, g, advisor)
}
