-- Turn clocks and abandoned games (issue 14).
--
-- A game with the option turn_seconds gives a person to act that long: turn_deadline is when their
-- time is up, set by the same UPDATE that saves each step, NULL when no clock runs (no option, a
-- computer player or nobody to act, the game over). When it passes, the server acts for the seat,
-- and the entries it records are marked `timeout`; each seat counts its consecutive timed-out turns,
-- back to 0 when its player acts (G-4).
--
-- A game that ends without finishing says why: its creator aborted it, or the service did, for a
-- lobby nobody started or an active game nobody moved in for too long.

-- +goose Up
ALTER TABLE games ADD COLUMN turn_seconds int CHECK (turn_seconds BETWEEN 3 AND 604800);
ALTER TABLE games ADD COLUMN turn_deadline timestamptz;
CREATE INDEX games_turn_deadline ON games (turn_deadline) WHERE turn_deadline IS NOT NULL;
ALTER TABLE games ADD COLUMN end_reason text CHECK (end_reason IN ('creator', 'lobby_expired', 'idle'));
UPDATE games SET end_reason = 'creator' WHERE status = 'aborted';
-- The worker looks for lobbies and active games left alone for too long.
CREATE INDEX games_lobby_created ON games (created_at) WHERE status = 'lobby';
CREATE INDEX games_active_updated ON games (updated_at) WHERE status = 'active';
ALTER TABLE seats ADD COLUMN timeouts int NOT NULL DEFAULT 0;
ALTER TABLE actions ADD COLUMN timeout boolean NOT NULL DEFAULT false;

-- +goose Down
ALTER TABLE actions DROP COLUMN timeout;
ALTER TABLE seats DROP COLUMN timeouts;
DROP INDEX games_active_updated;
DROP INDEX games_lobby_created;
ALTER TABLE games DROP COLUMN end_reason;
DROP INDEX games_turn_deadline;
ALTER TABLE games DROP COLUMN turn_deadline;
ALTER TABLE games DROP COLUMN turn_seconds;
