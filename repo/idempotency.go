package repo

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
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

// Idempotency is a request that a client may send more than once (Idempotency-Key). The key is a
// secret: the database keeps neither it nor the response in a form that can be read without it.
type Idempotency struct {
	key         string
	credential  string // the bearer token presented, if any
	requestHash []byte // of the request body, to tell a retry from a different request
}

// NewIdempotency is a request with an Idempotency-Key, its body and the bearer token it presented
// ("" for none). The token counts only where it identifies the caller.
func NewIdempotency(key string, body []byte, credential string) *Idempotency {
	sum := sha256.Sum256(body)
	return &Idempotency{key: key, credential: credential, requestHash: sum[:]}
}

// byPrincipal binds the key to a caller its token has identified; scope names the caller by id (a
// seat number, a student id), never by the token. The token joins the secret, so a short key is
// enough and the stored response cannot be read without the token.
func (i *Idempotency) byPrincipal(scope string) (*storedResponse, error) {
	if i == nil {
		return nil, nil
	}
	return newStoredResponse(scope, i.credential, i.key, i.requestHash)
}

// byAnyone binds the key to a request that no token identifies: the key alone is the secret, so it
// must be one nobody else could guess.
func (i *Idempotency) byAnyone(scope string) (*storedResponse, error) {
	if i == nil {
		return nil, nil
	}
	if !strongIdempotencyKey(i.key) {
		return nil, domain.Invalid("weak_idempotency_key", "This request carries no token, so its Idempotency-Key is its only secret: "+
			"use at least %d random hex digits or %d other random characters (a random UUID or 16 random bytes), with at least %d different characters.",
			minHexKeyDigits, minKeyCharacters, minKeyDistinct)
	}
	return newStoredResponse(scope, "", i.key, i.requestHash)
}

// Response is an HTTP response rendered inside the transaction that produced it, so that a retry
// gets exactly the same bytes.
type Response struct {
	Status  int
	Headers map[string]string
	Body    []byte
}

// idempotentRender is idempotent for work whose result is rendered into the response.
func idempotentRender[T any](ctx context.Context, tx pgx.Tx, stored *storedResponse, work func() (T, error), render func(T) (Response, error)) (Response, error) {
	return idempotent(ctx, tx, stored, func() (Response, error) {
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
func idempotent(ctx context.Context, tx pgx.Tx, stored *storedResponse, do func() (Response, error)) (Response, error) {
	if stored == nil {
		return do()
	}
	// Requests with the same key wait for each other here; the lock is named by the lookup hash, so
	// not even the lock's parameters carry the key to the database.
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(binary.BigEndian.Uint64(stored.lookup))); err != nil {
		return Response{}, err
	}
	var hash, sealed []byte
	err := tx.QueryRow(ctx, `SELECT request_hash, response FROM idempotency_keys
		WHERE lookup = $1 AND created_at > now() - make_interval(secs => $2)`,
		stored.lookup, IdempotencyKeyLifetime.Seconds()).Scan(&hash, &sealed)
	switch {
	case err == nil:
		if !bytes.Equal(hash, stored.requestHash) {
			return Response{}, domain.Errorf(domain.KindIllegal, "idempotency_key_reused",
				"This Idempotency-Key was already used for a different request; use a new key for a new request.")
		}
		return stored.open(sealed)
	case !errors.Is(err, pgx.ErrNoRows):
		return Response{}, err
	}
	resp, err := do()
	if err != nil {
		return resp, err
	}
	if sealed, err = stored.seal(resp); err != nil {
		return Response{}, err
	}
	// A row that is still there has expired: the key starts afresh.
	_, err = tx.Exec(ctx, `INSERT INTO idempotency_keys (lookup, request_hash, response) VALUES ($1, $2, $3)
		ON CONFLICT (lookup) DO UPDATE SET request_hash = excluded.request_hash, response = excluded.response, created_at = now()`,
		stored.lookup, stored.requestHash, sealed)
	return resp, err
}

// encodeResponse and decodeResponse are the plain form of a stored response, before sealing.
func encodeResponse(r Response) ([]byte, error) { return json.Marshal(r) }

func decodeResponse(b []byte) (Response, error) {
	var r Response
	err := json.Unmarshal(b, &r)
	return r, err
}
