package repo

import (
	"context"
	"time"

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

// EndedAuthorities returns, of the token hashes, those that open nothing any more, and of the
// students, those removed; each lookup is by a unique index (teacher_token_hash, students'
// token_hash, observer_tokens' key, students' key).
// A read lost with its connection is retried once on another (readRetry).
func (s *Games) EndedAuthorities(ctx context.Context, hashes [][]byte, studentIDs []string, now time.Time) (tokens [][]byte, students []string, err error) {
	type ended struct {
		tokens   [][]byte
		students []string
	}
	e, err := readRetry(ctx, func() (ended, error) {
		tokens, students, err := s.endedAuthorities(ctx, hashes, studentIDs, now)
		return ended{tokens, students}, err
	})
	return e.tokens, e.students, err
}

func (s *Games) endedAuthorities(ctx context.Context, hashes [][]byte, studentIDs []string, now time.Time) (tokens [][]byte, students []string, err error) {
	if len(hashes) > 0 {
		rows, err := s.db.Pool.Query(ctx, `SELECT h FROM unnest($1::bytea[]) AS h
			WHERE NOT EXISTS (SELECT FROM classrooms WHERE teacher_token_hash = h)
			AND NOT EXISTS (SELECT FROM students WHERE token_hash = h AND removed_at IS NULL)
			AND NOT EXISTS (SELECT FROM student_sign_ins i JOIN students u ON u.id = i.student_id WHERE i.token_hash = h AND u.removed_at IS NULL)
			AND NOT EXISTS (SELECT FROM observer_tokens WHERE token_hash = h AND (expires_at IS NULL OR expires_at > $2))
			AND NOT EXISTS (SELECT FROM account_tokens WHERE token_hash = h AND expires_at > $2)
			AND NOT EXISTS (SELECT FROM account_sessions WHERE token_hash = h AND expires_at > $2)`, hashes, now)
		if err != nil {
			return nil, nil, err
		}
		if tokens, err = pgx.CollectRows(rows, pgx.RowTo[[]byte]); err != nil {
			return nil, nil, err
		}
	}
	if len(studentIDs) > 0 {
		rows, err := s.db.Pool.Query(ctx, `SELECT id::text FROM students WHERE id = ANY($1::uuid[]) AND removed_at IS NOT NULL`, studentIDs)
		if err != nil {
			return nil, nil, err
		}
		if students, err = pgx.CollectRows(rows, pgx.RowTo[string]); err != nil {
			return nil, nil, err
		}
	}
	return tokens, students, nil
}
