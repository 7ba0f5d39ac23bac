-- Resigning (issue 14, G-3). A history entry the service records itself, not an engine's action (a
-- resignation), is marked `service`: the fold of a game's history (G-2) and the statistics skip it.
-- A resigned seat that a computer player takes over loses its token (a bot's seat has none).

-- +goose Up
ALTER TABLE actions ADD COLUMN service boolean NOT NULL DEFAULT false;

-- +goose Down
ALTER TABLE actions DROP COLUMN service;
