-- Every change of a game or its seats is announced on the channel game_events, by a trigger, in the
-- transaction that makes it, so Postgres delivers it at commit only and in commit order. The
-- payload is '<game id>:<version>', followed by ':<classroom id>' for a classroom's game. The
-- instances' live-update streams of the game and its classroom wake on it (they read the history
-- themselves), and their caches of game records (repo/records.go) drop the game. Until this
-- migration the service sent these notifications itself, for history entries, aborts and rematch
-- links only; a trigger also announces what changes a game without a new entry (a renamed seat, a
-- turn clock put off), and a write added later cannot forget it. Identical notifications of one
-- transaction are delivered once.

-- +goose Up
-- +goose StatementBegin
CREATE FUNCTION announce_game_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    changed games%ROWTYPE;
BEGIN
    IF TG_TABLE_NAME = 'games' THEN
        IF TG_OP = 'DELETE' THEN changed := OLD; ELSE changed := NEW; END IF;
    ELSE
        SELECT * INTO changed FROM games WHERE id = (CASE WHEN TG_OP = 'DELETE' THEN OLD.game_id ELSE NEW.game_id END);
        IF NOT FOUND THEN
            RETURN NULL; -- the game is gone, and its deletion announced
        END IF;
    END IF;
    PERFORM pg_notify('game_events', changed.id::text || ':' || changed.version::text || coalesce(':' || changed.classroom_id::text, ''));
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
