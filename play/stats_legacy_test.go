package play

import (
	"context"
	"encoding/json"
	"fmt"
)

// The statistics' reviews as they were counted before the worker made them (issue 42): each
// request made up to legacyReviewsPerStats missing reviews and read every kept review back. Kept
// here, in a test file only, as the oracle the statistics read from the worker's summaries are
// compared with (TestStatisticsFromSummariesEqualThePerRequestReviews).

const legacyReviewsPerStats = 10

// LegacyClassroomStats is ClassroomStats with the reviews counted the old way, on request.
func (s *Service) LegacyClassroomStats(ctx context.Context, classroomID string) (*ClassroomStats, error) {
	stats, err := s.ClassroomStats(ctx, classroomID)
	if err != nil {
		return nil, err
	}
	byID := map[string]*StudentStats{}
	stats.Class.Reviews = map[string]*ReviewCounts{}
	for i := range stats.Students {
		stats.Students[i].Reviews = map[string]*ReviewCounts{}
		byID[stats.Students[i].StudentID] = &stats.Students[i]
	}
	seats, err := s.statistics.stats.StudentSeats(ctx, classroomID)
	if err != nil {
		return nil, err
	}
	if stats.ReviewsPending, err = s.legacyCountReviews(ctx, seats, byID); err != nil {
		return nil, err
	}
	for _, st := range stats.Students {
		for kind, r := range st.Reviews {
			stats.Class.addReview(kind, r.Judged, r.Labels, r.Missed)
		}
	}
	return stats, nil
}

func (s *Service) legacyCountReviews(ctx context.Context, seats []StudentSeat, byID map[string]*StudentStats) (pending int, err error) {
	var ids []string
	reviewed := map[string]bool{}
	for _, ss := range seats {
		kind, ok := s.kinds.Lookup(ss.Kind)
		if ss.Status != StatusFinished || byID[ss.StudentID] == nil || !ok || kind.Advisor == nil || reviewed[ss.GameID] {
			continue
		}
		reviewed[ss.GameID] = true
		ids = append(ids, ss.GameID)
	}
	if len(ids) == 0 {
		return 0, nil
	}
	kept, err := s.store.Reviews(ctx, ids)
	if err != nil {
		return 0, err
	}
	reviews := map[string]*MoveReview{}
	made := 0
	for _, id := range ids {
		raw, ok := kept[id]
		if !ok && made == legacyReviewsPerStats {
			pending++
			continue
		}
		review, err := s.legacyReviewOf(ctx, id, raw)
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

func (s *Service) legacyReviewOf(ctx context.Context, gameID string, kept json.RawMessage) (*MoveReview, error) {
	if kept != nil {
		var review MoveReview
		if err := json.Unmarshal(kept, &review); err != nil {
			return nil, fmt.Errorf("the kept review of game %s: %w", gameID, err)
		}
		return &review, nil
	}
	g, err := s.Load(ctx, gameID)
	if err != nil {
		return nil, err
	}
	advisor, err := advisorIn(s.kinds, g, "review_unavailable", "move review")
	if err != nil {
		return nil, err
	}
	return s.reviews.finalReview(ctx, g, advisor)
}
