package repo

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"primegames/play"
)

// Accounts' browser sessions (play/sessions.go, migration 00041).

// InsertSession stores a session of the account, first deleting its expired sessions and those
// beyond the newest play.MaxSessions-1 (the account's row locked so that two sign-ins count on
// from each other).
func (s *Games) InsertSession(ctx context.Context, accountID string, hash []byte, now, expiresAt time.Time) error {
	return pgx.BeginFunc(ctx, s.db.Pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT FROM accounts WHERE id = $1 FOR UPDATE`, accountID); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM account_sessions WHERE account_id = $1 AND (expires_at <= $2 OR id IN (
				SELECT id FROM account_sessions WHERE account_id = $1 ORDER BY created_at DESC, id OFFSET $3))`,
			accountID, now, play.MaxSessions-1); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO account_sessions (account_id, token_hash, created_at, seen_at, expires_at)
			VALUES ($1, $2, $3, $3, $4)`, accountID, hash, now, expiresAt)
		return err
	})
}

// AccountOfSession is the account of the session with hash, unexpired at now and seen after
// idleSince; now is recorded as its last request when that was before seenBefore.
func (s *Games) AccountOfSession(ctx context.Context, hash []byte, now, idleSince, seenBefore time.Time) (string, error) {
	var account string
	var seen time.Time
	err := s.db.Pool.QueryRow(ctx, `SELECT account_id::text, seen_at FROM account_sessions
		WHERE token_hash = $1 AND expires_at > $2 AND seen_at > $3`, hash, now, idleSince).Scan(&account, &seen)
	if err != nil {
		return "", notFound(err)
	}
	if seen.Before(seenBefore) {
		if _, err := s.db.Pool.Exec(ctx, `UPDATE account_sessions SET seen_at = $2 WHERE token_hash = $1 AND seen_at < $2`, hash, now); err != nil {
			return "", err
		}
	}
	return account, nil
}

// DeleteSession deletes the session with hash (its trigger announces the end).
func (s *Games) DeleteSession(ctx context.Context, hash []byte) error {
	_, err := s.db.Pool.Exec(ctx, `DELETE FROM account_sessions WHERE token_hash = $1`, hash)
	return err
}
