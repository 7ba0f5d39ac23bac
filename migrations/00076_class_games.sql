-- The games a class's students played, finished and won, and the hints they asked, counted as the
-- games go (issue 42 item 5): the statistics read them instead of counting the class's games and
-- hints on request.
--
-- student_sums (00075) gains, per classroom, student and kind, what = 'games' (name 'played',
-- 'finished', 'won': one a seat the student holds; a seat the computer plays, one the student
-- resigned, wins nothing) and what = 'hints' (name ''). class_totals keeps the class's: its
-- started games in which a current student holds a seat, each once, finished, and won when a
-- current student won it.
--
-- Kept by triggers in the transaction of the statement that changes them: a game's start (its
-- entry 0) plays it, the update that finishes it finishes it, a hint kept adds one. Removing a
-- student (or taking them back) counts the class's row again from its games, once, in the
-- removal's transaction: a removed student's games leave the class's figures.
-- class_games_recount() counts them all again from the games and hints: this migration fills
-- them so, scalefill after a fill, and tests compare it with what was kept.

-- +goose Up
CREATE TABLE class_totals (
    classroom_id uuid   PRIMARY KEY REFERENCES classrooms ON DELETE CASCADE,
    played       bigint NOT NULL DEFAULT 0,
    finished     bigint NOT NULL DEFAULT 0,
    won          bigint NOT NULL DEFAULT 0
);

-- +goose StatementBegin
-- class_game_counts counts the started games of a classroom (or of every one, when cid is null)
-- as class_totals keeps them.
CREATE FUNCTION class_game_counts(cid uuid) RETURNS TABLE (classroom_id uuid, played bigint, finished bigint, won bigint)
LANGUAGE sql STABLE AS $$
SELECT g.classroom_id, count(*), count(*) FILTER (WHERE g.finished), count(*) FILTER (WHERE g.won)
FROM (SELECT g.classroom_id, bool_or(g.status = 'finished') AS finished,
        bool_or(g.status = 'finished' AND s.seat = ANY(coalesce(g.winners, '{}')) AND s.bot IS NULL) AS won
    FROM games g JOIN seats s ON s.game_id = g.id
    JOIN students st ON st.id = s.student_id AND st.removed_at IS NULL
    WHERE g.classroom_id IS NOT NULL AND g.status <> 'lobby' AND (cid IS NULL OR g.classroom_id = cid)
    GROUP BY g.id) g
GROUP BY 1
$$;
-- +goose StatementEnd

-- +goose StatementBegin
-- class_games_count adds a game's start (finishing false) or end (true) to its students' and
-- classroom's figures.
CREATE FUNCTION class_games_count(gid uuid, finishing boolean) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    cid  uuid;
    k    text;
    wins int[];
    cur  boolean;
    win  boolean;
BEGIN
    SELECT g.classroom_id, g.kind, coalesce(g.winners, '{}') INTO cid, k, wins FROM games g
    WHERE g.id = gid AND g.classroom_id IS NOT NULL;
    IF cid IS NULL THEN
        RETURN;
    END IF;
    INSERT INTO student_sums AS ss (classroom_id, student_id, kind, what, name, n)
    SELECT cid, s.student_id, k, 'games', d.name, count(*)
    FROM seats s CROSS JOIN LATERAL (
        SELECT CASE WHEN finishing THEN 'finished' ELSE 'played' END AS name
        UNION ALL SELECT 'won' WHERE finishing AND s.seat = ANY(wins) AND s.bot IS NULL) d
    WHERE s.game_id = gid AND s.student_id IS NOT NULL
    GROUP BY s.student_id, d.name
    ORDER BY s.student_id, d.name
    ON CONFLICT (classroom_id, student_id, kind, what, name) DO UPDATE SET n = ss.n + EXCLUDED.n;
    SELECT bool_or(true), bool_or(finishing AND s.seat = ANY(wins) AND s.bot IS NULL) INTO cur, win
    FROM seats s JOIN students st ON st.id = s.student_id AND st.removed_at IS NULL
    WHERE s.game_id = gid;
    IF cur THEN
        INSERT INTO class_totals AS ct (classroom_id, played, finished, won)
        VALUES (cid, (NOT finishing)::int, finishing::int, win::int)
        ON CONFLICT (classroom_id) DO UPDATE SET played = ct.played + EXCLUDED.played,
            finished = ct.finished + EXCLUDED.finished, won = ct.won + EXCLUDED.won;
    END IF;
END
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION class_games_start() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM class_games_count(NEW.game_id, false);
    RETURN NULL;
END
$$;
-- +goose StatementEnd

CREATE TRIGGER class_games_start AFTER INSERT ON actions FOR EACH ROW WHEN (NEW.seq = 0)
    EXECUTE FUNCTION class_games_start();

-- +goose StatementBegin
CREATE FUNCTION class_games_finish() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM class_games_count(NEW.id, true);
    RETURN NULL;
END
$$;
-- +goose StatementEnd

CREATE TRIGGER class_games_finish AFTER UPDATE ON games FOR EACH ROW
    WHEN (NEW.classroom_id IS NOT NULL AND NEW.status = 'finished' AND OLD.status <> 'finished')
    EXECUTE FUNCTION class_games_finish();

-- +goose StatementBegin
CREATE FUNCTION class_games_hint() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO student_sums AS ss (classroom_id, student_id, kind, what, name, n)
    SELECT g.classroom_id, s.student_id, g.kind, 'hints', '', 1
    FROM games g JOIN seats s ON s.game_id = g.id AND s.seat = NEW.seat AND s.student_id IS NOT NULL
    WHERE g.id = NEW.game_id AND g.classroom_id IS NOT NULL
    ON CONFLICT (classroom_id, student_id, kind, what, name) DO UPDATE SET n = ss.n + 1;
    RETURN NULL;
END
$$;
-- +goose StatementEnd

CREATE TRIGGER class_games_hint AFTER INSERT ON hints FOR EACH ROW EXECUTE FUNCTION class_games_hint();

-- +goose StatementBegin
CREATE FUNCTION class_games_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- the row locked first, then counted in a statement of its own: a start or end committed
    -- meanwhile is counted, one still under way adds to the count once it has the row
    INSERT INTO class_totals (classroom_id) VALUES (NEW.classroom_id) ON CONFLICT DO NOTHING;
    PERFORM FROM class_totals WHERE classroom_id = NEW.classroom_id FOR UPDATE;
    INSERT INTO class_totals AS ct (classroom_id, played, finished, won)
    SELECT NEW.classroom_id, coalesce(c.played, 0), coalesce(c.finished, 0), coalesce(c.won, 0)
    FROM (SELECT 1) one LEFT JOIN class_game_counts(NEW.classroom_id) c ON true
    ON CONFLICT (classroom_id) DO UPDATE SET played = EXCLUDED.played, finished = EXCLUDED.finished, won = EXCLUDED.won;
    RETURN NULL;
END
$$;
-- +goose StatementEnd

CREATE TRIGGER class_games_removed AFTER UPDATE OF removed_at ON students FOR EACH ROW
    WHEN (OLD.removed_at IS DISTINCT FROM NEW.removed_at) EXECUTE FUNCTION class_games_removed();

-- +goose StatementBegin
CREATE FUNCTION class_games_recount() RETURNS void LANGUAGE sql AS $$
DELETE FROM student_sums WHERE what IN ('games', 'hints');
DELETE FROM class_totals;
INSERT INTO student_sums (classroom_id, student_id, kind, what, name, n)
SELECT g.classroom_id, s.student_id, g.kind, 'games', d.name, count(*)
FROM games g JOIN seats s ON s.game_id = g.id AND s.student_id IS NOT NULL
CROSS JOIN LATERAL (SELECT 'played' AS name
    UNION ALL SELECT 'finished' WHERE g.status = 'finished'
    UNION ALL SELECT 'won' WHERE g.status = 'finished' AND s.seat = ANY(coalesce(g.winners, '{}')) AND s.bot IS NULL) d
WHERE g.classroom_id IS NOT NULL AND g.status <> 'lobby'
GROUP BY 1, 2, 3, 5
UNION ALL
SELECT g.classroom_id, s.student_id, g.kind, 'hints', '', count(*)
FROM hints h JOIN games g ON g.id = h.game_id AND g.classroom_id IS NOT NULL
JOIN seats s ON s.game_id = h.game_id AND s.seat = h.seat AND s.student_id IS NOT NULL
GROUP BY 1, 2, 3;
INSERT INTO class_totals (classroom_id, played, finished, won) SELECT * FROM class_game_counts(NULL);
$$;
-- +goose StatementEnd

SELECT class_games_recount();

-- +goose Down
DROP TRIGGER class_games_removed ON students;
DROP TRIGGER class_games_hint ON hints;
DROP TRIGGER class_games_finish ON games;
DROP TRIGGER class_games_start ON actions;
DROP FUNCTION class_games_recount();
DROP FUNCTION class_games_removed();
DROP FUNCTION class_games_hint();
DROP FUNCTION class_games_finish();
DROP FUNCTION class_games_start();
DROP FUNCTION class_games_count(uuid, boolean);
DROP FUNCTION class_game_counts(uuid);
DROP TABLE class_totals;
DELETE FROM student_sums WHERE what IN ('games', 'hints');
