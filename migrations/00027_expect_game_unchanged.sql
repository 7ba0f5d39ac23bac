-- An instance that keeps a game's record (repo/records.go) may apply an action to it in one round
-- trip instead of two: it sends this check first, then the action's writes, in one implicit
-- transaction. The check locks the game's row and fails the transaction (SQLSTATE PGC01) unless the
-- game is still at the version the record has, its next history entry still takes the seq the
-- record expects, and no entry (nor, from an earlier release, a row of idempotency_keys) kept under
-- the action's Idempotency-Key lookup is alive; the instance then does the action as before, in two
-- round trips. Every change of a game or its seats moves the game's version on (renames too, from
-- this release), so an unchanged version means an unchanged game.

-- +goose Up
-- +goose StatementBegin
CREATE FUNCTION expect_game_unchanged(game uuid, expected_version bigint, expected_next_seq bigint, lookup bytea, alive_after timestamptz)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    PERFORM FROM games WHERE id = game AND version = expected_version FOR UPDATE;
    -- Each statement below sees what the transactions that held the lock before committed.
    IF NOT FOUND
        OR (SELECT coalesce(max(seq), -1) + 1 FROM actions WHERE game_id = game) <> expected_next_seq
        OR (lookup IS NOT NULL AND (
            EXISTS (SELECT FROM actions WHERE game_id = game AND key_lookup = lookup AND created_at > alive_after)
            OR EXISTS (SELECT FROM idempotency_keys k WHERE k.lookup = expect_game_unchanged.lookup AND k.created_at > alive_after)))
    THEN
        RAISE EXCEPTION 'game % is not as the record read of it', game USING ERRCODE = 'PGC01';
    END IF;
END
$$;
-- +goose StatementEnd

-- +goose Down
DROP FUNCTION expect_game_unchanged(uuid, bigint, bigint, bytea, timestamptz);
