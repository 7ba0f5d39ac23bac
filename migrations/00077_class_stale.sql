-- How many of a classroom's started games keep no current tally (issue 42 item 5): a statistics
-- request looks for them (to count them from their histories once, play/stats.go tallyGames) only
-- when there are some, rather than reading every game of the class to find none.
--
-- class_stale counts, per classroom, its started games whose kept tally is not current
-- (tally_version <> version: a game from before kept tallies, or moved on by an instance that did
-- not keep it), kept by a trigger on the games' inserts and updates, in their transactions. It
-- counts whether or not a student sits in the game: a guard, which may send a request to look in
-- vain, never one that misses a stale game. class_stale_recount() counts it again.

-- +goose Up
CREATE TABLE class_stale (
    classroom_id uuid   PRIMARY KEY REFERENCES classrooms ON DELETE CASCADE,
    n            bigint NOT NULL
);

-- +goose StatementBegin
CREATE FUNCTION class_stale_keep() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    d int := (NEW.status <> 'lobby' AND NEW.tally_version IS DISTINCT FROM NEW.version)::int;
BEGIN
    IF TG_OP = 'UPDATE' THEN
        d := d - (OLD.status <> 'lobby' AND OLD.tally_version IS DISTINCT FROM OLD.version)::int;
    END IF;
    IF d <> 0 THEN
        INSERT INTO class_stale AS cs (classroom_id, n) VALUES (NEW.classroom_id, d)
        ON CONFLICT (classroom_id) DO UPDATE SET n = cs.n + EXCLUDED.n;
    END IF;
    RETURN NULL;
END
$$;
-- +goose StatementEnd

CREATE TRIGGER class_stale_insert AFTER INSERT ON games FOR EACH ROW
    WHEN (NEW.classroom_id IS NOT NULL AND NEW.status <> 'lobby' AND NEW.tally_version IS DISTINCT FROM NEW.version)
    EXECUTE FUNCTION class_stale_keep();
CREATE TRIGGER class_stale_update AFTER UPDATE ON games FOR EACH ROW
    WHEN (NEW.classroom_id IS NOT NULL
        AND (OLD.status <> 'lobby' AND OLD.tally_version IS DISTINCT FROM OLD.version)
            IS DISTINCT FROM (NEW.status <> 'lobby' AND NEW.tally_version IS DISTINCT FROM NEW.version))
    EXECUTE FUNCTION class_stale_keep();

-- +goose StatementBegin
CREATE FUNCTION class_stale_recount() RETURNS void LANGUAGE sql AS $$
DELETE FROM class_stale;
INSERT INTO class_stale (classroom_id, n)
SELECT classroom_id, count(*) FROM games
WHERE classroom_id IS NOT NULL AND status <> 'lobby' AND tally_version IS DISTINCT FROM version
GROUP BY 1;
$$;
-- +goose StatementEnd

SELECT class_stale_recount();

-- +goose Down
DROP TRIGGER class_stale_update ON games;
DROP TRIGGER class_stale_insert ON games;
DROP FUNCTION class_stale_recount();
DROP FUNCTION class_stale_keep();
DROP TABLE class_stale;
