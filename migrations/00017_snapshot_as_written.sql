-- A game's snapshot is kept as the text the service wrote (json) rather than parsed into jsonb: no
-- query looks inside it, Postgres no longer parses it on every action and prints it again on every
-- read, and the bytes read back are the bytes written, so that an instance can tell that the state
-- it has just written (or read) is still the game's and need not decode it again.
-- Changing the type rewrites the games table under an exclusive lock: one row per game, a few
-- kilobytes each.

-- +goose Up
ALTER TABLE games ALTER COLUMN snapshot TYPE json USING snapshot::json;

-- +goose Down
ALTER TABLE games ALTER COLUMN snapshot TYPE jsonb USING snapshot::jsonb;
