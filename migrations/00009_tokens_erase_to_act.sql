-- Children's data and "your turn" across games (issue 14). A removed student may be erased: their
-- name becomes "Erased student <n>" everywhere, n counting the classroom's erasures (erased_at says
-- which and when). A game keeps the seats that may act now in to_act, set wherever its snapshot is
-- saved, so that a player's list of games can be filtered to those where it is their turn. Active
-- games saved before this migration have to_act NULL (SQL cannot read a kind's snapshot) until the
-- server's start-up pass (play.Service.FillToAct) or their next action sets it; a lobby, a finished
-- and an aborted game have nobody to act and get '{}'.
-- +goose Up
ALTER TABLE students ADD COLUMN erased_at timestamptz;
ALTER TABLE students ADD CONSTRAINT students_erased_were_removed CHECK (erased_at IS NULL OR removed_at IS NOT NULL);
ALTER TABLE games ADD COLUMN to_act int[];
ALTER TABLE games ALTER COLUMN to_act SET DEFAULT '{}';
UPDATE games SET to_act = '{}' WHERE status <> 'active';
-- +goose Down
ALTER TABLE games DROP COLUMN to_act;
ALTER TABLE students DROP CONSTRAINT students_erased_were_removed;
ALTER TABLE students DROP COLUMN erased_at;
