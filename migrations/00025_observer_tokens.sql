-- Observer tokens (issue 27): a read-only token for one game (minted by a seat, the creator or the
-- classroom's teacher) or for a classroom (minted by its teacher), which sees what a spectator sees
-- and acts on nothing. Only its hash is kept. Revoking one deletes its row; an expired one is
-- refused, and deleted when another is minted for the same game or classroom, which holds at most
-- a few (play.MaxObservers), so the table stays bounded by the games and classrooms.
--
-- The table is distributed by its own key, the token's hash (docs/scaling.md): a token is looked
-- up before its game is known. So the game it watches is a plain column (watched_game_id, no
-- foreign key into the games' shards), and id, which names a token to revoke it, is random and
-- not a unique index.

-- +goose Up
CREATE TABLE observer_tokens (
    token_hash      bytea       PRIMARY KEY,
    id              uuid        NOT NULL DEFAULT gen_random_uuid(),
    watched_game_id uuid,
    classroom_id    uuid        REFERENCES classrooms ON DELETE CASCADE,
    created_at      timestamptz NOT NULL,
    expires_at      timestamptz,
    CHECK ((watched_game_id IS NULL) <> (classroom_id IS NULL))
);
CREATE INDEX observer_tokens_game ON observer_tokens (watched_game_id, id) WHERE watched_game_id IS NOT NULL;
CREATE INDEX observer_tokens_classroom ON observer_tokens (classroom_id, id) WHERE classroom_id IS NOT NULL;

-- +goose Down
DROP TABLE observer_tokens;
