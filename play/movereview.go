package play

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"primegames/domain"
)

// MoveReview is the expert's judgement of every action a person played in one game. Actions that
// were the seat's only legal one (a roll, say) are not judged: they are counted as forced.
type MoveReview struct {
	Game string `json:"game"`
	// Final is true for the review of a game that is over: kept as it was first made, it never
	// changes. A game still being played is judged afresh at each request.
	Final   bool            `json:"final"`
	Entries []ReviewEntry   `json:"entries"`
	Seats   []ReviewSummary `json:"seats"`
}

// ReviewEntry is one judged action: what was played at entry Seq, and the expert's best there.
type ReviewEntry struct {
	Seq         int64           `json:"seq"`
	Seat        int             `json:"seat"`
	Played      json.RawMessage `json:"played"`
	Best        json.RawMessage `json:"best"`
	Explanation string          `json:"explanation"` // why the best is best
	Loss        float64         `json:"loss"`
	Label       string          `json:"label"`
	Missed      []domain.Missed `json:"missed"`
}

// ReviewSummary sums up one person's seat.
type ReviewSummary struct {
	Seat   int `json:"seat"`
	Judged int `json:"judged"`
	Forced int `json:"forced"`
	// Accuracy is the share of judged actions labelled best or good; nil when none was judged.
	Accuracy  *float64       `json:"accuracy"`
	Labels    map[string]int `json:"labels"` // judged actions by label
	Missed    map[string]int `json:"missed"` // missed opportunities by kind
	HintsUsed int            `json:"hints_used"`
}

// Review is the move review of a game: for its teacher at any time, for anyone who may see the game
// once it is over. A game that is over is reviewed once; its review is kept and served as it is.
func (s *Service) Review(ctx context.Context, gameID string, p Principal) (*MoveReview, error) {
	g, caller, err := s.Get(ctx, gameID, p)
	if err != nil {
		return nil, err
	}
	if err := MaySeeMoveReview(g.Status, caller); err != nil {
		return nil, err
	}
	advisor, err := s.advisorOf(g, "review_unavailable", "move review")
	if err != nil {
		return nil, err
	}
	if g.Status.Over() {
		return s.reviews.finalReview(ctx, g, advisor)
	}
	return s.reviews.reviewNow(ctx, g, advisor)
}

// finalReview is the kept review of a game that is over, made and kept first if it has none.
func (r *reviews) finalReview(ctx context.Context, g *Game, advisor *domain.Advisor) (*MoveReview, error) {
	raw, err := r.store.Review(ctx, g.ID)
	if errors.Is(err, ErrNotFound) {
		var review *MoveReview
		if review, err = r.reviewNow(ctx, g, advisor); err != nil {
			return nil, err
		}
		if raw, err = json.Marshal(review); err != nil {
			return nil, err
		}
		raw, err = r.store.KeepReview(ctx, g.ID, raw)
	}
	if err != nil {
		return nil, err
	}
	var review MoveReview
	if err := json.Unmarshal(raw, &review); err != nil {
		return nil, fmt.Errorf("the kept review of game %s: %w", g.ID, err)
	}
	return &review, nil
}

// reviewNow replays the game's history and judges each person's action where it was played.
func (r *reviews) reviewNow(ctx context.Context, g *Game, advisor *domain.Advisor) (*MoveReview, error) {
	review := &MoveReview{Game: g.Kind, Final: g.Status.Over(), Entries: []ReviewEntry{}, Seats: []ReviewSummary{}}
	hints, err := r.store.HintsUsed(ctx, g.ID)
	if err != nil {
		return nil, err
	}
	var entries []Entry
	if g.State != nil {
		if entries, err = r.history.EntriesThrough(ctx, g.ID, math.MaxInt64); err != nil {
			return nil, err
		}
		entries = engineEntries(entries)
	}
	people := peoplesSeats(&g.GameRecord, entries)
	summaries := map[int]*ReviewSummary{}
	for seat := range g.SeatCount {
		if people[seat] {
			review.Seats = append(review.Seats, ReviewSummary{Seat: seat, Labels: map[string]int{}, Missed: map[string]int{}, HintsUsed: hints[seat]})
		}
	}
	for i := range review.Seats {
		summaries[review.Seats[i].Seat] = &review.Seats[i]
	}
	if g.State == nil {
		return review, nil // never started: nothing was played
	}
	judge := func(i int, before domain.State) error {
		e := entries[i+1]
		summary := summaries[*e.Seat]
		if summary == nil || e.Bot != "" || e.Timeout {
			return nil // a computer's action, or the server's for a player out of time (G-4)
		}
		entry, judged, err := judgeAction(advisor, before, e)
		if err != nil {
			return err
		}
		if !judged {
			summary.Forced++
			return nil
		}
		review.Entries = append(review.Entries, entry)
		summary.count(entry)
		return nil
	}
	if _, err := foldVisiting(g, entries, judge); err != nil {
		return nil, fmt.Errorf("reviewing game %s: %w", g.ID, err)
	}
	for i := range review.Seats {
		review.Seats[i].Accuracy = accuracyOf(review.Seats[i].Labels, review.Seats[i].Judged)
	}
	return review, nil
}

// judgeAction judges the action of entry e against the expert's best in the state before it; an
// action that was the seat's only legal one is not judged.
func judgeAction(advisor *domain.Advisor, before domain.State, e Entry) (ReviewEntry, bool, error) {
	view, legal, err := seatSight(before, *e.Seat)
	if err != nil || len(legal) <= 1 {
		return ReviewEntry{}, false, err
	}
	j, err := advisor.Review(view, legal, e.Action)
	if err != nil {
		return ReviewEntry{}, false, fmt.Errorf("judging entry %d: %w", e.Seq, err)
	}
	best, err := j.Best.ActionIn(legal)
	if err != nil {
		return ReviewEntry{}, false, err
	}
	missed := j.Missed
	if missed == nil {
		missed = []domain.Missed{}
	}
	return ReviewEntry{
		Seq: e.Seq, Seat: *e.Seat, Played: e.Action, Best: best, Explanation: j.Best.Explanation,
		Loss: j.Loss, Label: advisor.Label(j.Loss), Missed: missed,
	}, true, nil
}

func (r *ReviewSummary) count(e ReviewEntry) {
	r.Judged++
	r.Labels[e.Label]++
	for _, m := range e.Missed {
		r.Missed[m.Kind]++
	}
}

// accuracyOf is the share of judged actions labelled best or good; nil when none was judged.
func accuracyOf(labels map[string]int, judged int) *float64 {
	if judged == 0 {
		return nil
	}
	share := float64(labels["best"]+labels["good"]) / float64(judged)
	return &share
}

// peoplesSeats are the seats a person played: a person's seat now, or one a computer took over
// when its student resigned (G-3), whose entries before that are the student's.
func peoplesSeats(g *GameRecord, entries []Entry) map[int]bool {
	people := map[int]bool{}
	for seat := range g.SeatCount {
		people[seat] = !isBotSeat(g, seat)
	}
	for _, e := range entries {
		if e.Seat != nil && e.Bot == "" {
			people[*e.Seat] = true
		}
	}
	return people
}
