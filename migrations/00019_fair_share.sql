-- Fair share (issue 23): every game records who created it, so that the service can count what
-- one client holds (its quotas) and its worker can take turns between clients.
--
-- owner_key is the creating client as the rate limits name it (its bearer token, else its
-- address), address_key the address it came from; both are SHA-256 hashes keyed with a secret
-- kept in owner_secret, made here and never shown, so that the table holds neither a token nor an
-- address, nor anything from which a guess of an address can be checked without the secret. The
-- games created before this migration have the empty key: one owner, of no address.
--
-- computer_only marks an active game in which no person holds a seat (set as each step is saved):
-- the worker serves the games with a person first, and a client may run only so many of these.
--
-- The indexes serve the quota counts (a client's and an address's games not over) and the worker's
-- round-robin reads (the soonest due game of each owner in turn, per kind of job), each partial to
-- the rows it reads. They are built concurrently, as in 00018, and each statement can run again.

-- +goose NO TRANSACTION
-- +goose Up
CREATE TABLE IF NOT EXISTS owner_secret (
    one    boolean PRIMARY KEY DEFAULT true CHECK (one),
    secret bytea   NOT NULL
);
INSERT INTO owner_secret (secret)
    VALUES (decode(replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''), 'hex'))
    ON CONFLICT DO NOTHING;
ALTER TABLE games ADD COLUMN IF NOT EXISTS owner_key bytea NOT NULL DEFAULT '\x';
ALTER TABLE games ADD COLUMN IF NOT EXISTS address_key bytea;
ALTER TABLE games ADD COLUMN IF NOT EXISTS computer_only boolean NOT NULL DEFAULT false;
UPDATE games g SET computer_only = true
    WHERE status = 'active' AND NOT computer_only AND NOT EXISTS (SELECT FROM seats s WHERE s.game_id = g.id AND s.bot IS NULL);
CREATE INDEX CONCURRENTLY IF NOT EXISTS games_open_owner ON games (owner_key, computer_only) WHERE status IN ('lobby', 'active');
CREATE INDEX CONCURRENTLY IF NOT EXISTS games_open_address ON games (address_key, computer_only)
    WHERE status IN ('lobby', 'active') AND address_key IS NOT NULL;
CREATE INDEX CONCURRENTLY IF NOT EXISTS games_turn_owner ON games (owner_key, turn_deadline) WHERE turn_deadline IS NOT NULL;
CREATE INDEX CONCURRENTLY IF NOT EXISTS games_bot_person_owner ON games (owner_key, bot_due_at)
    WHERE bot_due_at IS NOT NULL AND NOT computer_only;
CREATE INDEX CONCURRENTLY IF NOT EXISTS games_bot_computer_owner ON games (owner_key, bot_due_at)
    WHERE bot_due_at IS NOT NULL AND computer_only;

-- +goose Down
DROP INDEX CONCURRENTLY IF EXISTS games_bot_computer_owner;
DROP INDEX CONCURRENTLY IF EXISTS games_bot_person_owner;
DROP INDEX CONCURRENTLY IF EXISTS games_turn_owner;
DROP INDEX CONCURRENTLY IF EXISTS games_open_address;
DROP INDEX CONCURRENTLY IF EXISTS games_open_owner;
ALTER TABLE games DROP COLUMN IF EXISTS computer_only;
ALTER TABLE games DROP COLUMN IF EXISTS address_key;
ALTER TABLE games DROP COLUMN IF EXISTS owner_key;
DROP TABLE IF EXISTS owner_secret;
