-- Children's games are private by default (issue 27): a game outside a classroom is listed to
-- everyone only when its creator asked for a public lobby, and a private lobby is joined with its
-- invite code, a short code a child can type. Games created before keep what they had: listed and
-- open to anyone (private defaults to false, so no row is rewritten).
--
-- An invite code is unique among the lobbies still open, so that a code names one game; it is
-- kept after the game starts, when it no longer opens anything. The index is built concurrently,
-- as in 00018, so that a busy games table is not locked while it builds.

-- +goose NO TRANSACTION
-- +goose Up
ALTER TABLE games ADD COLUMN IF NOT EXISTS private boolean NOT NULL DEFAULT false;
ALTER TABLE games ADD COLUMN IF NOT EXISTS invite_code text;
CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS games_open_invite_code ON games (invite_code)
    WHERE status = 'lobby' AND invite_code IS NOT NULL;

-- +goose Down
DROP INDEX CONCURRENTLY IF EXISTS games_open_invite_code;
ALTER TABLE games DROP COLUMN IF EXISTS invite_code;
ALTER TABLE games DROP COLUMN IF EXISTS private;
