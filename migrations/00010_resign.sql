-- Resigning, leaving and rematches (issue 14).
--
-- A history entry the service records itself, not an engine's action (a resignation, G-3), is
-- marked `service`: the fold of a game's history (G-2) and the statistics skip it. A resigned seat
-- that a computer player takes over loses its token (a bot's seat has none).
--
-- A rematch is a new game whose seats keep the token hashes of the old game's seats, so that each
-- player's token acts in both: a seat token is looked up within the game named in the request, so
-- a hash need only be unique within a game. The old game links to its rematch, once.

-- +goose Up
ALTER TABLE actions ADD COLUMN service boolean NOT NULL DEFAULT false;
ALTER TABLE seats DROP CONSTRAINT seats_token_hash_key;
CREATE UNIQUE INDEX seats_game_token ON seats (game_id, token_hash);
-- A player's own list of games (GET /v1/me/games with a seat token) finds every game of a token.
CREATE INDEX seats_token ON seats (token_hash) WHERE token_hash IS NOT NULL;
ALTER TABLE games ADD COLUMN rematch_id uuid UNIQUE REFERENCES games;

-- +goose Down
-- Down fails once a rematch shares its players' tokens with the game before it.
ALTER TABLE games DROP COLUMN rematch_id;
DROP INDEX seats_token;
DROP INDEX seats_game_token;
ALTER TABLE seats ADD CONSTRAINT seats_token_hash_key UNIQUE (token_hash);
ALTER TABLE actions DROP COLUMN service;
