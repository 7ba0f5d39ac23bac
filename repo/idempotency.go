package repo

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"primegames/domain"
)

// IdempotencyKeyLifetime is how long a response is kept for retries with the same Idempotency-Key.
const IdempotencyKeyLifetime = 24 * time.Hour

// PurgeIdempotencyKeys deletes the responses kept longer than IdempotencyKeyLifetime.
func (db *DB) PurgeIdempotencyKeys(ctx context.Context) (int64, error) {
	tag, err := db.Pool.Exec(ctx, `DELETE FROM idempotency_keys WHERE created_at <= now() - make_interval(secs => $1)`,
		IdempotencyKeyLifetime.Seconds())
	return tag.RowsAffected(), err
}

// Idempotency identifies a request that a client may send more than once (Idempotency-Key).
type Idempotency struct {
	Scope       string // what the key is unique within, e.g. "actions:<game>:<seat>"
	Key         string
	RequestHash []byte // of the request body, to tell a retry from a different request
}

// NewIdempotency identifies a request by its key within scope and by its body.
func NewIdempotency(scope, key string, body []byte) *Idempotency {
	sum := sha256.Sum256(body)
	return &Idempotency{Scope: scope, Key: key, RequestHash: sum[:]}
}

// Response is an HTTP response rendered inside the transaction that produced it, so that a retry
// gets exactly the same bytes.
type Response struct {
	Status  int
	Headers map[string]string
	Body    []byte
}

// idempotentRender is idempotent for work whose result is rendered into the response.
func idempotentRender[T any](ctx context.Context, tx pgx.Tx, idem *Idempotency, work func() (T, error), render func(T) (Response, error)) (Response, error) {
	return idempotent(ctx, tx, idem, func() (Response, error) {
		result, err := work()
		if err != nil {
			return Response{}, err
		}
		return render(result)
	})
}

// idempotent runs do unless the same request was already answered, in which case it returns the
// stored response. It runs inside the caller's transaction: the stored response and the work it
// describes are committed together or not at all.
func idempotent(ctx context.Context, tx pgx.Tx, idem *Idempotency, do func() (Response, error)) (Response, error) {
	if idem == nil {
		return do()
	}
	// Requests with the same key wait for each other here.
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, idem.Scope+"\n"+idem.Key); err != nil {
		return Response{}, err
	}
	var stored Response
	var hash, headers []byte
	err := tx.QueryRow(ctx, `SELECT request_hash, status, headers, body FROM idempotency_keys
		WHERE scope = $1 AND key = $2 AND created_at > now() - make_interval(secs => $3)`,
		idem.Scope, idem.Key, IdempotencyKeyLifetime.Seconds()).Scan(&hash, &stored.Status, &headers, &stored.Body)
	switch {
	case err == nil:
		if !bytes.Equal(hash, idem.RequestHash) {
			return Response{}, domain.Errorf(domain.KindIllegal, "idempotency_key_reused",
				"The Idempotency-Key %q was already used for a different request; use a new key for a new request.", idem.Key)
		}
		if err := json.Unmarshal(headers, &stored.Headers); err != nil {
			return Response{}, err
		}
		return stored, nil
	case !errors.Is(err, pgx.ErrNoRows):
		return Response{}, err
	}
	resp, err := do()
	if err != nil {
		return resp, err
	}
	headers, err = json.Marshal(resp.Headers)
	if err != nil {
		return Response{}, err
	}
	// A row that is still there has expired: the key starts afresh.
	_, err = tx.Exec(ctx, `INSERT INTO idempotency_keys (scope, key, request_hash, status, headers, body) VALUES ($1, $2, $3, $4, $5, $6)
		ON CONFLICT (scope, key) DO UPDATE SET request_hash = excluded.request_hash, status = excluded.status,
			headers = excluded.headers, body = excluded.body, created_at = now()`,
		idem.Scope, idem.Key, idem.RequestHash, resp.Status, headers, resp.Body)
	return resp, err
}
