-- Assignments (issue 42): a teacher asks the students of a classroom to finish `games` games of a
-- kind (with its options) by due_at, against a computer player (bot, a level) or with classmates
-- (group_size students a game, grouped by the service as they ask for games).
--
-- assignment_games links a game to the assignment it was started from; only those games count.
-- assignment_progress is one row per (assignment, student) that has asked for a game: open_game_id
-- is the student's game of the assignment not yet over (one at a time), games_done and games_late
-- the games of the assignment the student finished (late: finished after due_at), done_at and
-- done_game_id when and by which game games_done last reached the assignment's games (the
-- assignment_done event goes out with that game's end: the streams and the webhooks' fan-out read
-- it there).
--
-- The counting is done by the trigger below, in the very transaction that ends the game (the step
-- that finishes it, or its abort), whichever path and instance ends it: the UPDATE of the game's
-- status fires it, and it updates the progress rows under their row locks, so racing games of one
-- student add up exactly. A game finished at due_at exactly is on time (late is strictly after).
-- An aborted game counts nothing; it only frees the student's open slot.
--
-- due_soon_at is when the worker sent the assignment's assignment_due_soon events (a day before
-- due_at, to the students not done): once per due time (changing due_at clears it). The events
-- go out as a notice on game_events named "assignment-<id>" (the streams of the classroom wake
-- and read who is not done) and as an outbox row of seq -2 under the assignment's id (the webhooks'
-- fan-out reads the same).
--
-- A removed student's rows go (trigger on students.removed_at), so the student drops out of the
-- lists and an erased student leaves nothing here; deleting the assignment or the classroom takes
-- its rows along.

-- +goose Up
CREATE TABLE assignments (
    id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    classroom_id uuid        NOT NULL REFERENCES classrooms ON DELETE CASCADE,
    title        text        NOT NULL,
    kind         text        NOT NULL,
    options      jsonb       NOT NULL,
    games        int         NOT NULL CHECK (games BETWEEN 1 AND 20),
    bot          text,
    group_size   int,
    due_at       timestamptz NOT NULL,
    created_at   timestamptz NOT NULL,
    due_soon_at  timestamptz,
    CHECK ((bot IS NULL) <> (group_size IS NULL))
);
CREATE INDEX assignments_classroom ON assignments (classroom_id, created_at, id);
CREATE INDEX assignments_due_soon ON assignments (due_at) WHERE due_soon_at IS NULL;

CREATE TABLE assignment_games (
    game_id       uuid        PRIMARY KEY REFERENCES games ON DELETE CASCADE,
    assignment_id uuid        NOT NULL REFERENCES assignments ON DELETE CASCADE,
    created_at    timestamptz NOT NULL
);
CREATE INDEX assignment_games_assignment ON assignment_games (assignment_id, created_at);

CREATE TABLE assignment_progress (
    assignment_id uuid        NOT NULL REFERENCES assignments ON DELETE CASCADE,
    student_id    uuid        NOT NULL REFERENCES students ON DELETE CASCADE,
    open_game_id  uuid,
    games_done    int         NOT NULL DEFAULT 0,
    games_late    int         NOT NULL DEFAULT 0,
    done_at       timestamptz,
    done_game_id  uuid,
    PRIMARY KEY (assignment_id, student_id)
);
CREATE INDEX assignment_progress_student ON assignment_progress (student_id);
CREATE INDEX assignment_progress_open ON assignment_progress (open_game_id) WHERE open_game_id IS NOT NULL;
CREATE INDEX assignment_progress_done_by ON assignment_progress (done_game_id) WHERE done_game_id IS NOT NULL;

-- +goose StatementBegin
CREATE FUNCTION count_assignment_game() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.status = 'finished' THEN
        UPDATE assignment_progress p
        SET games_done = p.games_done + 1,
            games_late = p.games_late + CASE WHEN NEW.finished_at > a.due_at THEN 1 ELSE 0 END,
            done_at = CASE WHEN p.games_done < a.games AND p.games_done + 1 >= a.games THEN NEW.finished_at ELSE p.done_at END,
            done_game_id = CASE WHEN p.games_done < a.games AND p.games_done + 1 >= a.games THEN NEW.id ELSE p.done_game_id END,
            open_game_id = CASE WHEN p.open_game_id = NEW.id THEN NULL ELSE p.open_game_id END
        FROM assignment_games ag JOIN assignments a ON a.id = ag.assignment_id
        WHERE ag.game_id = NEW.id AND p.assignment_id = a.id
          AND p.student_id IN (SELECT s.student_id FROM seats s WHERE s.game_id = NEW.id AND s.student_id IS NOT NULL);
    ELSE
        UPDATE assignment_progress SET open_game_id = NULL WHERE open_game_id = NEW.id;
    END IF;
    RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER games_count_assignment AFTER UPDATE OF status ON games
    FOR EACH ROW WHEN (NEW.status IN ('finished', 'aborted') AND OLD.status NOT IN ('finished', 'aborted'))
    EXECUTE FUNCTION count_assignment_game();

-- +goose StatementBegin
CREATE FUNCTION forget_removed_student_assignments() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM assignment_progress WHERE student_id = NEW.id;
    RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER students_forget_assignments AFTER UPDATE OF removed_at ON students
    FOR EACH ROW WHEN (NEW.removed_at IS NOT NULL AND OLD.removed_at IS NULL)
    EXECUTE FUNCTION forget_removed_student_assignments();

-- +goose Down
DROP TRIGGER students_forget_assignments ON students;
DROP FUNCTION forget_removed_student_assignments();
DROP TRIGGER games_count_assignment ON games;
DROP FUNCTION count_assignment_game();
DROP TABLE assignment_progress;
DROP TABLE assignment_games;
DROP TABLE assignments;
