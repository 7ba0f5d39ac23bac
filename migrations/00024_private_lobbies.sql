-- Children's games are private by default (issue 27): a game outside a classroom is listed to
-- everyone only when its creator asked for a public lobby, and a private lobby is joined with its
-- invite code, a short code a child can type. Games created before keep what they had: listed and
-- open to anyone (private defaults to false, so no row is rewritten).
--
-- A new lobby draws a code no open lobby has (play checks in the transaction that creates it). The
-- index is not unique: a unique index on games must include the game's id, for the schema to stay
-- shardable by game (docs/scaling.md); two lobbies that drew the same code at the same instant
-- are refused at join rather than mixed up. It is built concurrently, as in 00018, so that a busy
-- games table is not locked while it builds.

-- +goose NO TRANSACTION
-- +goose Up
ALTER TABLE games ADD COLUMN IF NOT EXISTS private boolean NOT NULL DEFAULT false;
ALTER TABLE games ADD COLUMN IF NOT EXISTS invite_code text;
CREATE INDEX CONCURRENTLY IF NOT EXISTS games_open_invite_code ON games (invite_code)
    WHERE status = 'lobby' AND invite_code IS NOT NULL;

-- +goose Down
DROP INDEX CONCURRENTLY IF EXISTS games_open_invite_code;
ALTER TABLE games DROP COLUMN IF EXISTS invite_code;
ALTER TABLE games DROP COLUMN IF EXISTS private;
