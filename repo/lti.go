package repo

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"primegames/play"
)

// LTI 1.3: registrations, logins under way, the tool's keys, and what launches made (play/lti*.go,
// migration 00045).

const ltiPlatformColumns = `id::text, issuer, client_id, deployment_ids, jwks_url, auth_url, token_url, created_at`

func scanLTIPlatform(row pgx.Row) (*play.LTIPlatform, error) {
	var p play.LTIPlatform
	if err := row.Scan(&p.ID, &p.Issuer, &p.ClientID, &p.DeploymentIDs, &p.JWKSURL, &p.AuthURL, &p.TokenURL, &p.CreatedAt); err != nil {
		return nil, err
	}
	return &p, nil
}

// InsertLTIPlatform stores a registration unless max are stored (the count taken under a lock of
// the table's rows, so that two registrations count on from each other).
func (s *Games) InsertLTIPlatform(ctx context.Context, p play.LTIPlatform, max int) (*play.LTIPlatform, error) {
	var out *play.LTIPlatform
	err := pgx.BeginFunc(ctx, s.db.Pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext('lti_platforms'))`); err != nil {
			return err
		}
		var n int
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM lti_platforms`).Scan(&n); err != nil {
			return err
		}
		if n >= max {
			return play.ErrFull
		}
		var err error
		out, err = scanLTIPlatform(tx.QueryRow(ctx, `INSERT INTO lti_platforms (issuer, client_id, deployment_ids, jwks_url, auth_url, token_url, created_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING `+ltiPlatformColumns, p.Issuer, p.ClientID, p.DeploymentIDs, p.JWKSURL, p.AuthURL, p.TokenURL, p.CreatedAt))
		return taken(err)
	})
	return out, err
}

// LTIPlatforms lists the registrations, oldest first.
func (s *Games) LTIPlatforms(ctx context.Context) ([]play.LTIPlatform, error) {
	return s.ltiPlatforms(ctx, `SELECT `+ltiPlatformColumns+` FROM lti_platforms ORDER BY created_at, id`)
}

// LTIPlatformsOfIssuer lists the registrations of an issuer.
func (s *Games) LTIPlatformsOfIssuer(ctx context.Context, issuer string) ([]play.LTIPlatform, error) {
	return s.ltiPlatforms(ctx, `SELECT `+ltiPlatformColumns+` FROM lti_platforms WHERE issuer = $1 ORDER BY created_at, id`, issuer)
}

func (s *Games) ltiPlatforms(ctx context.Context, query string, args ...any) ([]play.LTIPlatform, error) {
	rows, err := s.db.Pool.Query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (play.LTIPlatform, error) {
		p, err := scanLTIPlatform(row)
		if err != nil {
			return play.LTIPlatform{}, err
		}
		return *p, nil
	})
}

// LTIPlatform reads a registration.
func (s *Games) LTIPlatform(ctx context.Context, id string) (*play.LTIPlatform, error) {
	p, err := scanLTIPlatform(s.db.Pool.QueryRow(ctx, `SELECT `+ltiPlatformColumns+` FROM lti_platforms WHERE id = $1`, id))
	return p, notFound(err)
}

// UpdateLTIPlatform replaces a registration's fields.
func (s *Games) UpdateLTIPlatform(ctx context.Context, p play.LTIPlatform) (*play.LTIPlatform, error) {
	out, err := scanLTIPlatform(s.db.Pool.QueryRow(ctx, `UPDATE lti_platforms SET issuer = $2, client_id = $3, deployment_ids = $4,
		jwks_url = $5, auth_url = $6, token_url = $7 WHERE id = $1 RETURNING `+ltiPlatformColumns,
		p.ID, p.Issuer, p.ClientID, p.DeploymentIDs, p.JWKSURL, p.AuthURL, p.TokenURL))
	return out, taken(notFound(err))
}

// DeleteLTIPlatform deletes a registration, its logins and its courses' links (the classrooms stay).
func (s *Games) DeleteLTIPlatform(ctx context.Context, id string) error {
	tag, err := s.db.Pool.Exec(ctx, `DELETE FROM lti_platforms WHERE id = $1`, id)
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return play.ErrNotFound
	}
	return nil
}

// SaveLTILogin keeps a login under way, first deleting up to 100 expired ones.
func (s *Games) SaveLTILogin(ctx context.Context, stateHash []byte, l play.LTILogin, now, expiresAt time.Time) error {
	_, err := s.db.Pool.Exec(ctx, `WITH gone AS (
			DELETE FROM lti_logins WHERE state_hash IN (SELECT state_hash FROM lti_logins WHERE expires_at <= $5 LIMIT 100))
		INSERT INTO lti_logins (state_hash, nonce_hash, platform_id, expires_at) VALUES ($1, $2, $3, $4)`,
		stateHash, l.NonceHash, l.PlatformID, expiresAt, now)
	return err
}

// TakeLTILogin deletes and returns the login kept under stateHash if unexpired at now.
func (s *Games) TakeLTILogin(ctx context.Context, stateHash []byte, now time.Time) (*play.LTILogin, error) {
	var l play.LTILogin
	var expiresAt time.Time
	err := s.db.Pool.QueryRow(ctx, `DELETE FROM lti_logins WHERE state_hash = $1 RETURNING platform_id::text, nonce_hash, expires_at`, stateHash).
		Scan(&l.PlatformID, &l.NonceHash, &expiresAt)
	if err != nil {
		return nil, notFound(err)
	}
	if !expiresAt.After(now) {
		return nil, play.ErrNotFound
	}
	return &l, nil
}

// LTIToolKeys lists the published keys at now, the current one first, deleting those past their
// publication.
func (s *Games) LTIToolKeys(ctx context.Context, now time.Time) ([]play.LTIToolKey, error) {
	rows, err := s.db.Pool.Query(ctx, `SELECT kid, public_jwk, sealed, created_at FROM lti_tool_keys
		WHERE retired_at IS NULL OR publish_until > $1 ORDER BY retired_at DESC NULLS FIRST, created_at DESC`, now)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(row pgx.CollectableRow) (play.LTIToolKey, error) {
		var k play.LTIToolKey
		var jwk []byte
		err := row.Scan(&k.KID, &jwk, &k.Sealed, &k.CreatedAt)
		k.PublicJWK = jwk
		return k, err
	})
}

// InsertLTIToolKey stores k as the current key: with rotate, after retiring the current one
// (published until publishUntil, and deleting keys past theirs); without, only if there is none.
func (s *Games) InsertLTIToolKey(ctx context.Context, k play.LTIToolKey, rotate bool, publishUntil time.Time) (bool, error) {
	inserted := false
	err := pgx.BeginFunc(ctx, s.db.Pool, func(tx pgx.Tx) error {
		if rotate {
			if _, err := tx.Exec(ctx, `DELETE FROM lti_tool_keys WHERE retired_at IS NOT NULL AND publish_until <= $1`, k.CreatedAt); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `UPDATE lti_tool_keys SET retired_at = $1, publish_until = $2 WHERE retired_at IS NULL`, k.CreatedAt, publishUntil); err != nil {
				return err
			}
		}
		tag, err := tx.Exec(ctx, `INSERT INTO lti_tool_keys (kid, public_jwk, sealed, created_at) VALUES ($1, $2, $3, $4)
			ON CONFLICT ((true)) WHERE retired_at IS NULL DO NOTHING`, k.KID, []byte(k.PublicJWK), k.Sealed, k.CreatedAt)
		inserted = err == nil && tag.RowsAffected() == 1
		return err
	})
	return inserted, err
}

// LTIClassroom is the classroom of a platform's course.
func (s *Games) LTIClassroom(ctx context.Context, platformID string, contextHash []byte) (string, error) {
	var id string
	err := s.db.Pool.QueryRow(ctx, `SELECT classroom_id::text FROM lti_contexts WHERE platform_id = $1 AND context_hash = $2`, platformID, contextHash).Scan(&id)
	return id, notFound(err)
}

// EnsureLTIClassroom is the course's classroom, made owned by the account when there is none (two
// first launches at once wait for each other on the course's lock).
func (s *Games) EnsureLTIClassroom(ctx context.Context, platformID string, contextHash []byte, accountID, name, joinCode string, teacherHash []byte, membershipsURL string) (string, error) {
	var id string
	err := pgx.BeginFunc(ctx, s.db.Pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended($1 || encode($2::bytea, 'hex'), 0))`, platformID, contextHash); err != nil {
			return err
		}
		err := tx.QueryRow(ctx, `UPDATE lti_contexts SET memberships_url = CASE WHEN $3 = '' THEN memberships_url ELSE $3 END
			WHERE platform_id = $1 AND context_hash = $2 RETURNING classroom_id::text`, platformID, contextHash, membershipsURL).Scan(&id)
		if !errors.Is(err, pgx.ErrNoRows) {
			return err
		}
		if err := tx.QueryRow(ctx, `INSERT INTO classrooms (name, join_code, teacher_token_hash, account_id) VALUES ($1, $2, $3, $4) RETURNING id::text`,
			name, joinCode, teacherHash, accountID).Scan(&id); err != nil {
			return taken(err)
		}
		_, err = tx.Exec(ctx, `INSERT INTO lti_contexts (platform_id, context_hash, classroom_id, memberships_url) VALUES ($1, $2, $3, $4)`,
			platformID, contextHash, id, membershipsURL)
		return err
	})
	return id, err
}

// LTIRosterOf is the course a classroom was made for.
func (s *Games) LTIRosterOf(ctx context.Context, classroomID string) (*play.LTIRoster, error) {
	var r play.LTIRoster
	err := s.db.Pool.QueryRow(ctx, `SELECT platform_id::text, context_hash, memberships_url FROM lti_contexts WHERE classroom_id = $1 LIMIT 1`, classroomID).
		Scan(&r.PlatformID, &r.ContextHash, &r.MembershipsURL)
	if err != nil {
		return nil, notFound(err)
	}
	return &r, nil
}

// EnsureLTIStudent is the learner's student in the classroom, made when there is none (two first
// launches of one learner at once wait for each other on the learner's lock).
func (s *Games) EnsureLTIStudent(ctx context.Context, classroomID string, learnerHash []byte, name, nameKey string, tokenHash []byte) (*play.StudentRecord, bool, error) {
	st := play.StudentRecord{ClassroomID: classroomID}
	var removed bool
	err := pgx.BeginFunc(ctx, s.db.Pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended(encode($1::bytea, 'hex'), 0))`, learnerHash); err != nil {
			return err
		}
		err := tx.QueryRow(ctx, `SELECT s.id::text, s.name, s.created_at, s.removed_at IS NOT NULL FROM lti_students l JOIN students s ON s.id = l.student_id
			WHERE l.learner_hash = $1`, learnerHash).Scan(&st.ID, &st.Name, &st.CreatedAt, &removed)
		if !errors.Is(err, pgx.ErrNoRows) {
			return err
		}
		if err := tx.QueryRow(ctx, `INSERT INTO students (classroom_id, name, name_key, token_hash) VALUES ($1, $2, $3, $4) RETURNING id::text, name, created_at`,
			classroomID, name, nameKey, tokenHash).Scan(&st.ID, &st.Name, &st.CreatedAt); err != nil {
			return taken(err)
		}
		_, err = tx.Exec(ctx, `INSERT INTO lti_students (learner_hash, classroom_id, student_id) VALUES ($1, $2, $3)`, learnerHash, classroomID, st.ID)
		return err
	})
	if err != nil {
		return nil, false, err
	}
	return &st, removed, nil
}

// SetLTIStudentToken replaces a current student's token hash (the trigger of 00028 announces it).
func (s *Games) SetLTIStudentToken(ctx context.Context, studentID string, hash []byte) (*play.StudentRecord, error) {
	var st play.StudentRecord
	err := s.db.Pool.QueryRow(ctx, `UPDATE students SET token_hash = $2 WHERE id = $1 AND removed_at IS NULL
		RETURNING id::text, classroom_id::text, name, created_at`, studentID, hash).Scan(&st.ID, &st.ClassroomID, &st.Name, &st.CreatedAt)
	if err != nil {
		return nil, notFound(err)
	}
	return &st, nil
}

// SaveLTIHandover keeps a one-time code's hash, first deleting up to 100 expired ones.
func (s *Games) SaveLTIHandover(ctx context.Context, codeHash []byte, h play.LTIHandover, now, expiresAt time.Time) error {
	_, err := s.db.Pool.Exec(ctx, `WITH gone AS (
			DELETE FROM lti_handovers WHERE code_hash IN (SELECT code_hash FROM lti_handovers WHERE expires_at <= $6 LIMIT 100))
		INSERT INTO lti_handovers (code_hash, account_id, classroom_id, student_id, expires_at) VALUES ($1, $2, $3, $4, $5)`,
		codeHash, nullable(h.AccountID), h.ClassroomID, nullable(h.StudentID), expiresAt, now)
	return err
}

// TakeLTIHandover deletes and returns what the code opens if unexpired at now.
func (s *Games) TakeLTIHandover(ctx context.Context, codeHash []byte, now time.Time) (*play.LTIHandover, error) {
	var h play.LTIHandover
	var account, student *string
	var expiresAt time.Time
	err := s.db.Pool.QueryRow(ctx, `DELETE FROM lti_handovers WHERE code_hash = $1
		RETURNING account_id::text, classroom_id::text, student_id::text, expires_at`, codeHash).Scan(&account, &h.ClassroomID, &student, &expiresAt)
	if err != nil {
		return nil, notFound(err)
	}
	if !expiresAt.After(now) {
		return nil, play.ErrNotFound
	}
	if account != nil {
		h.AccountID = *account
	}
	if student != nil {
		h.StudentID = *student
	}
	return &h, nil
}

func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
