-- An action's UPDATE of its game becomes a heap-only (HOT) update: Postgres writes the new row
-- version on the same page and no index entry, instead of one new entry in each of the games
-- table's indexes. That holds only when no indexed column changes, and every action changed
-- updated_at, which the index of the worker's search for idle active games covered.
--
-- That index now covers active_minute instead: the minute of the game's last change
-- (date_trunc('minute', updated_at)), written wherever updated_at is, so that it changes once a
-- minute at most while a game is played. It is never later than updated_at, so a game idle since
-- a time is among those whose active_minute is no later than it; the search narrows with the index
-- and then compares updated_at itself (repo/due.go). The column's default is the minute the row is
-- written in, for the rows that an instance of an earlier release inserts during a rolling upgrade;
-- that release's updates leave the column as it was, earlier than updated_at, which is still safe.
--
-- fillfactor 70 leaves room on each page for the next versions of its rows (a row is about 1 KB),
-- so that the update finds space on its page. It applies to pages written from now on.
--
-- The index is built concurrently, so that a large table keeps taking actions meanwhile, which
-- cannot run inside a transaction; each statement can run again, so that a migration cut off half
-- way completes when it is run again.

-- +goose NO TRANSACTION
-- +goose Up
ALTER TABLE games ADD COLUMN IF NOT EXISTS active_minute timestamptz NOT NULL DEFAULT date_trunc('minute', now());
UPDATE games SET active_minute = date_trunc('minute', updated_at) WHERE status = 'active' AND active_minute > updated_at;
DROP INDEX CONCURRENTLY IF EXISTS games_active_minute;
CREATE INDEX CONCURRENTLY games_active_minute ON games (active_minute) WHERE status = 'active';
DROP INDEX CONCURRENTLY IF EXISTS games_active_updated;
ALTER TABLE games SET (fillfactor = 70);

-- +goose Down
ALTER TABLE games RESET (fillfactor);
CREATE INDEX CONCURRENTLY IF NOT EXISTS games_active_updated ON games (updated_at) WHERE status = 'active';
DROP INDEX CONCURRENTLY IF EXISTS games_active_minute;
ALTER TABLE games DROP COLUMN IF EXISTS active_minute;
