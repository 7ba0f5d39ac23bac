package repo

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"primegames/play"
)

// Teachers' accounts, their tokens and classrooms, and the sign-ins under way (play/accounts.go,
// migration 00040).

// UpsertAccount finds or makes the account of (issuer, subject) and sets its name.
func (s *Games) UpsertAccount(ctx context.Context, issuer, subject, name string, now time.Time) (*play.Account, error) {
	var a play.Account
	err := s.db.Pool.QueryRow(ctx, `INSERT INTO accounts (issuer, subject, name, created_at) VALUES ($1, $2, $3, $4)
		ON CONFLICT (issuer, subject) DO UPDATE SET name = EXCLUDED.name
		RETURNING id::text, issuer, subject, name, created_at`, issuer, subject, name, now).
		Scan(&a.ID, &a.Issuer, &a.Subject, &a.Name, &a.CreatedAt)
	if err != nil {
		return nil, err
	}
	return &a, nil
}

// Account reads an account.
func (s *Games) Account(ctx context.Context, id string) (*play.Account, error) {
	var a play.Account
	err := s.db.Pool.QueryRow(ctx, `SELECT id::text, issuer, subject, name, created_at FROM accounts WHERE id = $1`, id).
		Scan(&a.ID, &a.Issuer, &a.Subject, &a.Name, &a.CreatedAt)
	if err != nil {
		return nil, notFound(err)
	}
	return &a, nil
}

// InsertAccountToken stores a token of the account unless it holds play.MaxAccountTokens
// unexpired ones (the account's row locked so that two insertions count on from each other).
func (s *Games) InsertAccountToken(ctx context.Context, accountID, name string, hash []byte, now, expiresAt time.Time) (*play.AccountToken, error) {
	var t play.AccountToken
	err := pgx.BeginFunc(ctx, s.db.Pool, func(tx pgx.Tx) error {
		var held int
		err := tx.QueryRow(ctx, `SELECT (SELECT count(*) FROM account_tokens WHERE account_id = a.id AND expires_at > $2)
			FROM accounts a WHERE a.id = $1 FOR UPDATE`, accountID, now).Scan(&held)
		if err != nil {
			return notFound(err)
		}
		if held >= play.MaxAccountTokens {
			return play.ErrTaken
		}
		if _, err := tx.Exec(ctx, `DELETE FROM account_tokens WHERE account_id = $1 AND expires_at <= $2`, accountID, now); err != nil {
			return err
		}
		return tx.QueryRow(ctx, `INSERT INTO account_tokens (account_id, token_hash, name, created_at, expires_at)
			VALUES ($1, $2, $3, $4, $5) RETURNING id::text, name, created_at, expires_at`, accountID, hash, name, now, expiresAt).
			Scan(&t.ID, &t.Name, &t.CreatedAt, &t.ExpiresAt)
	})
	if err != nil {
		return nil, err
	}
	return &t, nil
}

// AccountOfToken is the account whose token, unexpired at now, has hash.
func (s *Games) AccountOfToken(ctx context.Context, hash []byte, now time.Time) (string, error) {
	var id string
	err := s.db.Pool.QueryRow(ctx, `SELECT account_id::text FROM account_tokens WHERE token_hash = $1 AND expires_at > $2`, hash, now).Scan(&id)
	return id, notFound(err)
}

// AccountTokens lists the account's unexpired tokens, oldest first.
func (s *Games) AccountTokens(ctx context.Context, accountID string, now time.Time) ([]play.AccountToken, error) {
	rows, err := s.db.Pool.Query(ctx, `SELECT id::text, name, created_at, expires_at FROM account_tokens
		WHERE account_id = $1 AND expires_at > $2 ORDER BY created_at, id`, accountID, now)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (play.AccountToken, error) {
		var t play.AccountToken
		err := row.Scan(&t.ID, &t.Name, &t.CreatedAt, &t.ExpiresAt)
		return t, err
	})
}

// DeleteAccountToken deletes one of the account's tokens (its trigger announces the revocation).
func (s *Games) DeleteAccountToken(ctx context.Context, accountID, tokenID string) error {
	tag, err := s.db.Pool.Exec(ctx, `DELETE FROM account_tokens WHERE id = $1 AND account_id = $2`, tokenID, accountID)
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return play.ErrNotFound
	}
	return nil
}

// AccountClassrooms lists the classrooms the account owns or co-teaches, oldest first.
func (s *Games) AccountClassrooms(ctx context.Context, accountID string) ([]play.Classroom, error) {
	rows, err := s.db.Pool.Query(ctx, `SELECT id::text, name, join_code, created_at,
			(SELECT count(*) FROM students WHERE classroom_id = classrooms.id AND removed_at IS NULL)
		FROM classrooms WHERE account_id = $1 OR id IN (SELECT classroom_id FROM classroom_co_teachers WHERE account_id = $1)
		ORDER BY created_at, id`, accountID)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (play.Classroom, error) {
		var c play.Classroom
		err := row.Scan(&c.ID, &c.Name, &c.JoinCode, &c.CreatedAt, &c.StudentCount)
		return c, err
	})
}

// ClassroomOwner is the account owning the classroom, "" for none.
func (s *Games) ClassroomOwner(ctx context.Context, classroomID string) (string, error) {
	var owner *string
	if err := s.db.Pool.QueryRow(ctx, `SELECT account_id::text FROM classrooms WHERE id = $1`, classroomID).Scan(&owner); err != nil {
		return "", notFound(err)
	}
	if owner == nil {
		return "", nil
	}
	return *owner, nil
}

// InsertOwnedClassroom stores a new classroom the account owns, unless it owns
// play.MaxOwnedClassrooms already.
func (s *Games) InsertOwnedClassroom(ctx context.Context, accountID, name, joinCode string, teacherHash []byte) (*play.Classroom, error) {
	var c play.Classroom
	err := pgx.BeginFunc(ctx, s.db.Pool, func(tx pgx.Tx) error {
		if err := roomForAnotherClassroom(ctx, tx, accountID, ""); err != nil {
			return err
		}
		err := tx.QueryRow(ctx, `INSERT INTO classrooms (name, join_code, teacher_token_hash, account_id) VALUES ($1, $2, $3, $4)
			RETURNING id::text, name, join_code, created_at`, name, joinCode, teacherHash, accountID).Scan(&c.ID, &c.Name, &c.JoinCode, &c.CreatedAt)
		return taken(err)
	})
	if err != nil {
		return nil, err
	}
	return &c, nil
}

// SetClassroomOwner makes the account own the classroom unless another does or the account owns
// play.MaxOwnedClassrooms already.
func (s *Games) SetClassroomOwner(ctx context.Context, classroomID, accountID string) error {
	return pgx.BeginFunc(ctx, s.db.Pool, func(tx pgx.Tx) error {
		if err := roomForAnotherClassroom(ctx, tx, accountID, classroomID); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `UPDATE classrooms SET account_id = $2 WHERE id = $1 AND (account_id IS NULL OR account_id = $2)`, classroomID, accountID)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return play.ErrTaken
		}
		return nil
	})
}

// roomForAnotherClassroom locks the account's row (so that two requests cannot both take the last
// place) and answers play.ErrFull when it owns play.MaxOwnedClassrooms, not counting except (one
// it may own already). LTI courses' classrooms are not counted: the operator's platforms bound them.
func roomForAnotherClassroom(ctx context.Context, tx pgx.Tx, accountID, except string) error {
	var held int
	err := tx.QueryRow(ctx, `SELECT (SELECT count(*) FROM classrooms c WHERE c.account_id = a.id AND c.id::text <> $2
			AND NOT EXISTS (SELECT FROM lti_contexts x WHERE x.classroom_id = c.id))
		FROM accounts a WHERE a.id = $1 FOR UPDATE`, accountID, except).Scan(&held)
	if err != nil {
		return notFound(err)
	}
	if held >= play.MaxOwnedClassrooms {
		return play.ErrFull
	}
	return nil
}

// SavePendingSignIn keeps a sign-in under way, first deleting up to 100 expired ones.
func (s *Games) SavePendingSignIn(ctx context.Context, stateHash []byte, p play.PendingSignIn, now, expiresAt time.Time) error {
	_, err := s.db.Pool.Exec(ctx, `WITH gone AS (
			DELETE FROM oidc_logins WHERE state_hash IN (SELECT state_hash FROM oidc_logins WHERE expires_at <= $6 LIMIT 100))
		INSERT INTO oidc_logins (state_hash, nonce, verifier, return_to, expires_at, provider) VALUES ($1, $2, $3, $4, $5, $7)`,
		stateHash, p.Nonce, p.Verifier, p.ReturnTo, expiresAt, now, p.Provider)
	return err
}

// TakePendingSignIn deletes and returns the sign-in kept under stateHash if unexpired at now.
func (s *Games) TakePendingSignIn(ctx context.Context, stateHash []byte, now time.Time) (*play.PendingSignIn, error) {
	var p play.PendingSignIn
	var expiresAt time.Time
	err := s.db.Pool.QueryRow(ctx, `DELETE FROM oidc_logins WHERE state_hash = $1 RETURNING nonce, verifier, return_to, expires_at, provider`, stateHash).
		Scan(&p.Nonce, &p.Verifier, &p.ReturnTo, &expiresAt, &p.Provider)
	if err != nil {
		return nil, notFound(err)
	}
	if !expiresAt.After(now) {
		return nil, play.ErrNotFound
	}
	return &p, nil
}
