package play

import (
	"context"
	"encoding/json"
	"time"
)

// ReviewStore keeps the hints given and the reviews of games that are over.
type ReviewStore interface {
	// RecordHint counts a hint given to seat at the position whose next entry is seq, at the time
	// at, once however often it is asked for there (and in the student's progress of that day).
	RecordHint(ctx context.Context, gameID string, seat int, seq int64, at time.Time) error
	// HintsUsed counts a game's hints by seat.
	HintsUsed(ctx context.Context, gameID string) (map[int]int, error)
	// HintCounts counts the hints given to the classroom's current students, by student id.
	HintCounts(ctx context.Context, classroomID string) (map[string]int, error)
	// Review reads a game's kept review; ErrNotFound when there is none.
	Review(ctx context.Context, gameID string) (json.RawMessage, error)
	// KeepReview keeps review unless the game has one already, and returns the one kept.
	KeepReview(ctx context.Context, gameID string, review json.RawMessage) (json.RawMessage, error)
	// Reviews reads the kept reviews of the games listed, by game id.
	Reviews(ctx context.Context, gameIDs []string) (map[string]json.RawMessage, error)
}
