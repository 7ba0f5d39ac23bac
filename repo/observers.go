package repo

import (
	"context"

	"github.com/jackc/pgx/v5"

	"primegames/play"
)

// ObserverToken reads the observer token whose hash is hash.
func (s *Games) ObserverToken(ctx context.Context, hash []byte) (*play.ObserverRecord, error) {
	return readRetry(ctx, func() (*play.ObserverRecord, error) {
		var rec play.ObserverRecord
		err := s.db.Pool.QueryRow(ctx, `SELECT id::text, coalesce(watched_game_id::text, ''), coalesce(classroom_id::text, ''), created_at, expires_at
			FROM observer_tokens WHERE token_hash = $1`, hash).Scan(&rec.ID, &rec.GameID, &rec.ClassroomID, &rec.CreatedAt, &rec.ExpiresAt)
		if err != nil {
			return nil, notFound(err)
		}
		return &rec, nil
	})
}

// targetColumn is the column and value that name an observer token's target.
func targetColumn(target play.ObserverTarget) (string, string) {
	if target.ClassroomID != "" {
		return "classroom_id", target.ClassroomID
	}
	return "watched_game_id", target.GameID
}

// LiveObserverTokens deletes the target's expired observer tokens and counts the others.
func (t *gameTx) LiveObserverTokens(ctx context.Context, target play.ObserverTarget) (int, error) {
	column, id := targetColumn(target)
	if err := t.queue(ctx, `DELETE FROM observer_tokens WHERE `+column+` = $1::uuid AND expires_at <= $2`, id, t.now); err != nil {
		return 0, err
	}
	var n int
	err := t.one(ctx, `SELECT count(*) FROM observer_tokens WHERE `+column+` = $1::uuid`, []any{id},
		func(r pgx.Row) error { return r.Scan(&n) })
	return n, err
}

// InsertObserverToken stores an observer token.
func (t *gameTx) InsertObserverToken(ctx context.Context, rec play.ObserverRecord, hash []byte) (play.ObserverRecord, error) {
	rec.CreatedAt = t.now
	err := t.one(ctx, `INSERT INTO observer_tokens (token_hash, watched_game_id, classroom_id, created_at, expires_at)
		VALUES ($1, $2::uuid, $3::uuid, $4, $5) RETURNING id::text`,
		[]any{hash, nullIfEmpty(rec.GameID), nullIfEmpty(rec.ClassroomID), t.now, rec.ExpiresAt},
		func(r pgx.Row) error { return r.Scan(&rec.ID) })
	return rec, err
}

// DeleteObserverToken deletes the target's observer token of that id.
func (t *gameTx) DeleteObserverToken(ctx context.Context, target play.ObserverTarget, id string) (bool, error) {
	column, targetID := targetColumn(target)
	deleted := false
	err := t.one(ctx, `WITH gone AS (DELETE FROM observer_tokens WHERE id = $1::uuid AND `+column+` = $2::uuid RETURNING 1)
		SELECT EXISTS (SELECT FROM gone)`, []any{id, targetID}, func(r pgx.Row) error { return r.Scan(&deleted) })
	return deleted, err
}
