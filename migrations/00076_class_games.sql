-- The games a class's students played, finished and won, counted as the games go (issue 42 item
-- 5): the statistics read them instead of counting the class's games on request.
--
-- class_games counts, per classroom, the started games by who sat in them: the students of their
-- seats (sorted, once per seat), whether the game finished, and the students whose seats won it (a
-- seat the computer plays, one the student resigned, wins nothing). A student's games are those
-- of the rows that name them; the class's, each game once, those of the rows that name a current
-- student, won when a current student won it: so a removed student's games leave the class's
-- figures without counting any game again. The rows are as many as the class's groups of
-- players, however many games they played.
--
-- Kept by triggers in the transaction of the step that changes them: a game's start (its entry 0)
-- adds it unfinished; the step that finishes it moves it to finished with its winners.
-- class_games_recount() counts it again from the games: this migration fills it so, scalefill
-- after a fill, and tests compare it with what the steps kept.

-- +goose Up
CREATE TABLE class_games (
    classroom_id uuid    NOT NULL REFERENCES classrooms ON DELETE CASCADE,
    students     uuid[]  NOT NULL,
    winners      uuid[]  NOT NULL,
    finished     boolean NOT NULL,
    n            int     NOT NULL,
    PRIMARY KEY (classroom_id, students, winners, finished)
);

-- +goose StatementBegin
CREATE FUNCTION class_games_start() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO class_games AS cg (classroom_id, students, winners, finished, n)
    SELECT g.classroom_id, array_agg(s.student_id ORDER BY s.student_id), '{}', false, 1
    FROM games g JOIN seats s ON s.game_id = g.id AND s.student_id IS NOT NULL
    WHERE g.id = NEW.game_id AND g.classroom_id IS NOT NULL
    GROUP BY g.classroom_id
    ON CONFLICT (classroom_id, students, winners, finished) DO UPDATE SET n = cg.n + 1;
    RETURN NULL;
END
$$;
-- +goose StatementEnd

CREATE TRIGGER class_games_start AFTER INSERT ON actions FOR EACH ROW WHEN (NEW.seq = 0)
    EXECUTE FUNCTION class_games_start();

-- +goose StatementBegin
CREATE FUNCTION class_games_finish() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    who uuid[];
    won uuid[];
BEGIN
    SELECT array_agg(s.student_id ORDER BY s.student_id),
        coalesce(array_agg(s.student_id ORDER BY s.student_id)
            FILTER (WHERE s.seat = ANY(coalesce(NEW.winners, '{}')) AND s.bot IS NULL), '{}')
    INTO who, won
    FROM seats s WHERE s.game_id = NEW.id AND s.student_id IS NOT NULL;
    IF who IS NULL THEN
        RETURN NULL;
    END IF;
    UPDATE class_games SET n = n - 1
    WHERE classroom_id = NEW.classroom_id AND students = who AND winners = '{}' AND NOT finished;
    INSERT INTO class_games AS cg (classroom_id, students, winners, finished, n)
    VALUES (NEW.classroom_id, who, won, true, 1)
    ON CONFLICT (classroom_id, students, winners, finished) DO UPDATE SET n = cg.n + 1;
    RETURN NULL;
END
$$;
-- +goose StatementEnd

CREATE TRIGGER class_games_finish AFTER UPDATE ON games FOR EACH ROW
    WHEN (NEW.classroom_id IS NOT NULL AND NEW.status = 'finished' AND OLD.status <> 'finished')
    EXECUTE FUNCTION class_games_finish();

-- +goose StatementBegin
CREATE FUNCTION class_games_recount() RETURNS void LANGUAGE sql AS $$
DELETE FROM class_games;
INSERT INTO class_games (classroom_id, students, winners, finished, n)
SELECT classroom_id, students, winners, finished, count(*) FROM (
    SELECT g.classroom_id, g.status = 'finished' AS finished, array_agg(s.student_id ORDER BY s.student_id) AS students,
        coalesce(array_agg(s.student_id ORDER BY s.student_id)
            FILTER (WHERE g.status = 'finished' AND s.seat = ANY(coalesce(g.winners, '{}')) AND s.bot IS NULL), '{}') AS winners
    FROM games g JOIN seats s ON s.game_id = g.id AND s.student_id IS NOT NULL
    WHERE g.classroom_id IS NOT NULL AND g.status <> 'lobby'
    GROUP BY g.id
) x
GROUP BY 1, 2, 3, 4;
$$;
-- +goose StatementEnd

SELECT class_games_recount();

-- +goose Down
DROP TRIGGER class_games_finish ON games;
DROP TRIGGER class_games_start ON actions;
DROP FUNCTION class_games_recount();
DROP FUNCTION class_games_finish();
DROP FUNCTION class_games_start();
DROP TABLE class_games;
