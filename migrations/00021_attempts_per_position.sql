-- A game keeps at most so many refused actions of one seat at one position (play's
-- attemptsKeptPerPosition): this index counts them as each refusal is recorded, so that the count
-- reads only the seat's attempts at that version, however many the game has.
--
-- Built concurrently, so that a large table keeps taking refusals meanwhile; it can run again (an
-- index a cut-off build left invalid is dropped first).

-- +goose NO TRANSACTION
-- +goose Up
DROP INDEX CONCURRENTLY IF EXISTS attempts_position;
CREATE INDEX CONCURRENTLY attempts_position ON attempts (game_id, version, seat);

-- +goose Down
DROP INDEX CONCURRENTLY IF EXISTS attempts_position;
