-- An action's Idempotency-Key is kept on the history entry the action appended, rather than in
-- idempotency_keys: the entry is what a retry answers from, it lives with its game (one shard when
-- the tables are distributed by game, README "Scaling"), and an action writes one row less.
-- key_lookup is the key's lookup hash (bound to the game and the caller's token, as before),
-- key_request_hash the hash of the request body. Keys that earlier releases kept in
-- idempotency_keys are still read there until they expire.
--
-- The index is built concurrently, so that a large history keeps taking actions meanwhile; that
-- cannot run inside a transaction. Each statement can run again, so that a migration cut off half way
-- (an index build that failed leaves an invalid index behind) completes when it is run again.

-- +goose NO TRANSACTION
-- +goose Up
ALTER TABLE actions ADD COLUMN IF NOT EXISTS key_lookup bytea, ADD COLUMN IF NOT EXISTS key_request_hash bytea;
DROP INDEX CONCURRENTLY IF EXISTS actions_key_lookup;
CREATE INDEX CONCURRENTLY actions_key_lookup ON actions (game_id, key_lookup) WHERE key_lookup IS NOT NULL;

-- +goose Down
DROP INDEX CONCURRENTLY IF EXISTS actions_key_lookup;
ALTER TABLE actions DROP COLUMN IF EXISTS key_request_hash, DROP COLUMN IF EXISTS key_lookup;
