-- Computer players (issue 13): a seat may be a bot, which has no token and acts on the server when
-- the game's bot_due_at comes. The options every kind shares (bot_delay_ms, hints) live beside the
-- engine's own options, which stay as the engine validated them.

-- +goose Up
ALTER TABLE seats ADD COLUMN bot text CHECK (bot IN ('random', 'greedy', 'expert'));
ALTER TABLE seats ADD CONSTRAINT seats_bot_has_no_token CHECK (bot IS NULL OR token_hash IS NULL);
ALTER TABLE games ADD COLUMN bot_delay_ms int NOT NULL DEFAULT 800 CHECK (bot_delay_ms BETWEEN 0 AND 60000);
ALTER TABLE games ADD COLUMN hints boolean NOT NULL DEFAULT true;
-- When a bot seat is to act, the time its action is due; NULL when no bot is to act.
ALTER TABLE games ADD COLUMN bot_due_at timestamptz;
CREATE INDEX games_bot_due ON games (bot_due_at) WHERE bot_due_at IS NOT NULL;

-- +goose Down
DROP INDEX games_bot_due;
ALTER TABLE games DROP COLUMN bot_due_at;
ALTER TABLE games DROP COLUMN hints;
ALTER TABLE games DROP COLUMN bot_delay_ms;
ALTER TABLE seats DROP CONSTRAINT seats_bot_has_no_token;
ALTER TABLE seats DROP COLUMN bot;
