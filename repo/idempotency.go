package repo

import (
	"context"
	"encoding/binary"
	"time"
)

// IdempotencyKeyLifetime is how long a result is kept for retries with the same Idempotency-Key.
const IdempotencyKeyLifetime = 24 * time.Hour

// PurgeIdempotencyKeys deletes the results kept longer than IdempotencyKeyLifetime before now (the
// service's clock, which recorded them).
func (db *DB) PurgeIdempotencyKeys(ctx context.Context, now time.Time) (int64, error) {
	tag, err := db.Pool.Exec(ctx, `DELETE FROM idempotency_keys WHERE created_at <= $1`, now.Add(-IdempotencyKeyLifetime))
	return tag.RowsAffected(), err
}

// lockResultSQL makes requests with the same lookup wait for each other until the transaction ends.
const lockResultSQL = `SELECT pg_advisory_xact_lock($1)`

// lockResultKey names the lock by the lookup hash, so not even the lock's parameters carry the key.
func lockResultKey(lookup []byte) int64 { return int64(binary.BigEndian.Uint64(lookup)) }
