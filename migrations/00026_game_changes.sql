-- Every change of a game or its seats is announced on the channel game_changes, with the game's id
-- as the payload, in the transaction that makes it (so Postgres delivers it at commit, in commit
-- order). Each instance's cache of game records (repo/records.go) drops a game when it hears of it.
-- A trigger rather than a notification in each write: a write added later cannot forget it.
-- Identical notifications of one transaction are delivered once, so a game written several times
-- in a transaction is announced once.

-- +goose Up
-- +goose StatementBegin
CREATE FUNCTION announce_game_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_TABLE_NAME = 'games' THEN
        PERFORM pg_notify('game_changes', (CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END)::text);
    ELSE
        PERFORM pg_notify('game_changes', (CASE WHEN TG_OP = 'DELETE' THEN OLD.game_id ELSE NEW.game_id END)::text);
    END IF;
    RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER games_announce_change AFTER INSERT OR UPDATE OR DELETE ON games
    FOR EACH ROW EXECUTE FUNCTION announce_game_change();
CREATE TRIGGER seats_announce_change AFTER INSERT OR UPDATE OR DELETE ON seats
    FOR EACH ROW EXECUTE FUNCTION announce_game_change();

-- +goose Down
DROP TRIGGER seats_announce_change ON seats;
DROP TRIGGER games_announce_change ON games;
DROP FUNCTION announce_game_change();
