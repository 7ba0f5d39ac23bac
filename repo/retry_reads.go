package repo

import (
	"context"

	"primegames/play"
)

// The reads of every request, retried once on another connection when theirs was lost (readRetry).

// Game reads a game and its seats in one statement, or answers from the records kept (records.go)
// when they are known to be current.
func (s *Games) Game(ctx context.Context, id string) (*play.GameRecord, error) {
	load := func() (*play.GameRecord, error) {
		return readRetry(ctx, func() (*play.GameRecord, error) { return s.game(ctx, id) })
	}
	if s.db.records == nil {
		return load()
	}
	return s.db.records.read(ctx, id, load)
}

// ClassroomMember resolves a teacher or student token hash; a removed student's is not found.
func (s *Games) ClassroomMember(ctx context.Context, kind play.TokenKind, hash []byte) (classroomID, studentID string, err error) {
	ids, err := readRetry(ctx, func() ([2]string, error) {
		c, st, err := s.classroomMember(ctx, kind, hash)
		return [2]string{c, st}, err
	})
	return ids[0], ids[1], err
}

// Entries returns up to limit history entries with seq > after, in order.
func (s *Games) Entries(ctx context.Context, gameID string, after int64, limit int) ([]play.Entry, error) {
	return readRetry(ctx, func() ([]play.Entry, error) { return s.entries(ctx, gameID, after, limit) })
}

// EntriesThrough returns the entries with seq <= through, in order.
func (s *Games) EntriesThrough(ctx context.Context, gameID string, through int64) ([]play.Entry, error) {
	return readRetry(ctx, func() ([]play.Entry, error) { return s.entriesThrough(ctx, gameID, through) })
}

// EntryCount is the number of entries in a game's history, the start included.
func (s *Games) EntryCount(ctx context.Context, gameID string) (int64, error) {
	return readRetry(ctx, func() (int64, error) { return s.entryCount(ctx, gameID) })
}

// ListGames returns up to q.Limit games matching q, newest first.
func (s *Games) ListGames(ctx context.Context, q play.GameQuery) ([]play.GameSummary, error) {
	return readRetry(ctx, func() ([]play.GameSummary, error) { return s.listGames(ctx, q) })
}
