-- Who a token is (GET /v1/me) and a creator's own games (GET /v1/me/games) look a creator token up
-- among all games; without this index each lookup reads the whole table. Built concurrently, as in
-- 00018, so that a busy games table is not locked while it builds.

-- +goose NO TRANSACTION
-- +goose Up
CREATE INDEX CONCURRENTLY IF NOT EXISTS games_creator_token ON games (creator_token_hash);

-- +goose Down
DROP INDEX CONCURRENTLY IF EXISTS games_creator_token;
