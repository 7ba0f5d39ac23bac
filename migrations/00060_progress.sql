-- Progress over time and statistics that cost a class, not a request (issue 42 items 3 and 5).
--
-- progress_days keeps, per classroom, student and day (UTC), what the student did: games started
-- (played), finished and won, hints asked, their moves with the time each took (the time since the
-- game's previous step, summed, with the number of moves), and the missed opportunities the move
-- reviews found. Every step of a classroom's game adds to it in the step's own transaction (as the
-- games' tallies are kept), a hint in the statement that keeps it, and the worker adds the missed
-- opportunities when it reviews a finished game (on the day the game finished).
--
-- review_due is the worker's queue of finished classroom games to review, filled in the
-- transaction of the step that finishes one; the worker takes its classrooms in turn. review_seats
-- is each reviewed game's summary per student's seat, which the statistics read instead of the
-- reviews.
--
-- progress_recount() counts progress_days again from the histories, the hints and review_seats:
-- this migration fills it so for the games there are (their missed opportunities once the worker
-- has reviewed them), scalefill after a fill, and tests compare it with what the steps kept.

-- +goose Up
CREATE TABLE progress_days (
    classroom_id   uuid   NOT NULL REFERENCES classrooms ON DELETE CASCADE,
    day            date   NOT NULL,
    student_id     uuid   NOT NULL REFERENCES students ON DELETE CASCADE,
    games_played   int    NOT NULL DEFAULT 0,
    games_finished int    NOT NULL DEFAULT 0,
    games_won      int    NOT NULL DEFAULT 0,
    hints          int    NOT NULL DEFAULT 0,
    moves          int    NOT NULL DEFAULT 0,
    move_ms        bigint NOT NULL DEFAULT 0,
    missed         int    NOT NULL DEFAULT 0,
    PRIMARY KEY (classroom_id, day, student_id)
);
CREATE INDEX progress_days_student ON progress_days (student_id);

CREATE TABLE review_due (
    game_id      uuid        PRIMARY KEY REFERENCES games ON DELETE CASCADE,
    classroom_id uuid        NOT NULL REFERENCES classrooms ON DELETE CASCADE,
    due_at       timestamptz NOT NULL
);
CREATE INDEX review_due_classroom ON review_due (classroom_id, due_at);

CREATE TABLE review_seats (
    game_id      uuid  NOT NULL REFERENCES games ON DELETE CASCADE,
    seat         int   NOT NULL,
    classroom_id uuid  NOT NULL REFERENCES classrooms ON DELETE CASCADE,
    student_id   uuid  NOT NULL REFERENCES students ON DELETE CASCADE,
    kind         text  NOT NULL,
    judged       int   NOT NULL,
    labels       jsonb NOT NULL,
    missed       jsonb NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX review_seats_classroom ON review_seats (classroom_id, student_id);
CREATE INDEX review_seats_student ON review_seats (student_id);

-- +goose StatementBegin
CREATE FUNCTION progress_recount() RETURNS void LANGUAGE sql AS $$
DELETE FROM progress_days;
INSERT INTO progress_days (classroom_id, day, student_id, games_played, games_finished, games_won, hints, moves, move_ms, missed)
SELECT classroom_id, day, student_id, sum(played), sum(finished), sum(won), sum(hints), sum(moves), sum(move_ms), sum(missed)
FROM (
    -- a game is played on the day it starts (its entry 0)
    SELECT g.classroom_id, (a.created_at AT TIME ZONE 'UTC')::date AS day, s.student_id,
        1 AS played, 0 AS finished, 0 AS won, 0 AS hints, 0 AS moves, 0::bigint AS move_ms, 0 AS missed
    FROM games g JOIN seats s ON s.game_id = g.id AND s.student_id IS NOT NULL
    JOIN actions a ON a.game_id = g.id AND a.seq = 0
    WHERE g.classroom_id IS NOT NULL
    UNION ALL
    -- finished and won on the day it finishes; a seat the computer plays (resigned) wins nothing
    SELECT g.classroom_id, (g.finished_at AT TIME ZONE 'UTC')::date, s.student_id,
        0, 1, (s.seat = ANY(coalesce(g.winners, '{}')) AND s.bot IS NULL)::int, 0, 0, 0, 0
    FROM games g JOIN seats s ON s.game_id = g.id AND s.student_id IS NOT NULL
    WHERE g.classroom_id IS NOT NULL AND g.status = 'finished'
    UNION ALL
    -- a student's own move (not the computer's, not one the server played when time ran out),
    -- timed from the game's step before it
    SELECT m.classroom_id, (m.created_at AT TIME ZONE 'UTC')::date, s.student_id, 0, 0, 0, 0, 1,
        greatest(0, floor(extract(epoch FROM m.created_at - m.before) * 1000))::bigint, 0
    FROM (SELECT g.classroom_id, a.game_id, a.seat, a.seq, a.service, a.bot, a.timeout, a.created_at,
            lag(a.created_at) OVER (PARTITION BY a.game_id ORDER BY a.seq) AS before
        FROM games g JOIN actions a ON a.game_id = g.id WHERE g.classroom_id IS NOT NULL) m
    JOIN seats s ON s.game_id = m.game_id AND s.seat = m.seat AND s.student_id IS NOT NULL
    WHERE m.seq > 0 AND NOT m.service AND m.bot IS NULL AND NOT m.timeout
    UNION ALL
    SELECT g.classroom_id, (h.created_at AT TIME ZONE 'UTC')::date, s.student_id, 0, 0, 0, 1, 0, 0, 0
    FROM hints h JOIN games g ON g.id = h.game_id AND g.classroom_id IS NOT NULL
    JOIN seats s ON s.game_id = h.game_id AND s.seat = h.seat AND s.student_id IS NOT NULL
    UNION ALL
    SELECT r.classroom_id, (g.finished_at AT TIME ZONE 'UTC')::date, r.student_id, 0, 0, 0, 0, 0, 0,
        (SELECT coalesce(sum(value::int), 0) FROM jsonb_each_text(r.missed))
    FROM review_seats r JOIN games g ON g.id = r.game_id
) x
GROUP BY classroom_id, day, student_id;
$$;
-- +goose StatementEnd

SELECT progress_recount();

-- The finished classroom games with a student in a seat wait for the worker's review.
INSERT INTO review_due (game_id, classroom_id, due_at)
SELECT g.id, g.classroom_id, g.finished_at FROM games g
WHERE g.classroom_id IS NOT NULL AND g.status = 'finished'
    AND EXISTS (SELECT FROM seats s WHERE s.game_id = g.id AND s.student_id IS NOT NULL);

-- +goose Down
DROP FUNCTION progress_recount();
DROP TABLE review_seats;
DROP TABLE review_due;
DROP TABLE progress_days;
