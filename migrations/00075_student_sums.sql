-- Statistics that read a class's students, not its games (issue 42 item 5, the part 00060 left).
--
-- student_sums keeps, per classroom, student and game kind, every counter the statistics sum:
-- what = 'tally' the engines' counters of the student's seats in the current kept tallies (name:
-- the counter), 'judged' / 'label' / 'missed' the worker's review summaries of their seats
-- (review_seats; name: the label or the missed opportunity, '' for judged).
-- attempt_codes keeps, per classroom, student and refusal code, how many of the student's actions
-- were refused with it and the three most recent (ids and details); attempt_facts, per classroom,
-- student, kind, code and facts, how many refused actions had them.
--
-- They are kept in the transaction of the statement that changes what they sum, by triggers, so
-- that every writer keeps them (a step, a hint, the worker's review, the statistics keeping a stale
-- game's tally, an instance of an older build during an upgrade, tools/scalefill):
--
-- - a change of a classroom game's row adds the difference of its seats' counters in its kept
--   tally, counted when the tally is current (tally_version = version) and the game started, so
--   student_sums' tallies are always the sum over the current tallies (a tally becoming stale
--   takes its counters away; keeping it again, KeepTallies, adds them back);
-- - an insert into review_seats adds its summary; an insert into attempts adds the refusal.
--
-- The games a student played, finished and won and their hints join student_sums in 00076.
--
-- student_sums_recount() counts the three tables again from the games, review_seats and attempts:
-- this migration fills them so, scalefill after a fill, and tests compare it with what was kept.

-- +goose Up
CREATE TABLE student_sums (
    classroom_id uuid   NOT NULL REFERENCES classrooms ON DELETE CASCADE,
    student_id   uuid   NOT NULL REFERENCES students ON DELETE CASCADE,
    kind         text   NOT NULL,
    what         text   NOT NULL,
    name         text   NOT NULL,
    n            bigint NOT NULL,
    PRIMARY KEY (classroom_id, student_id, kind, what, name)
);
CREATE INDEX student_sums_student ON student_sums (student_id);

CREATE TABLE attempt_codes (
    classroom_id uuid     NOT NULL REFERENCES classrooms ON DELETE CASCADE,
    student_id   uuid     NOT NULL REFERENCES students ON DELETE CASCADE,
    code         text     NOT NULL,
    n            bigint   NOT NULL,
    example_ids  bigint[] NOT NULL,
    examples     text[]   NOT NULL,
    PRIMARY KEY (classroom_id, student_id, code)
);
CREATE INDEX attempt_codes_student ON attempt_codes (student_id);

CREATE TABLE attempt_facts (
    classroom_id uuid   NOT NULL REFERENCES classrooms ON DELETE CASCADE,
    student_id   uuid   NOT NULL REFERENCES students ON DELETE CASCADE,
    kind         text   NOT NULL,
    code         text   NOT NULL,
    facts        jsonb  NOT NULL,
    n            bigint NOT NULL,
    PRIMARY KEY (classroom_id, student_id, kind, code, facts)
);
CREATE INDEX attempt_facts_student ON attempt_facts (student_id);

-- +goose StatementBegin
CREATE FUNCTION student_sums_tally() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO student_sums AS ss (classroom_id, student_id, kind, what, name, n)
    SELECT NEW.classroom_id, s.student_id, NEW.kind, 'tally', d.name, sum(d.n)
    FROM seats s
    CROSS JOIN LATERAL (
        SELECT c.key AS name, c.value::bigint AS n
        FROM json_each_text(CASE WHEN NEW.status <> 'lobby' AND NEW.tally_version = NEW.version
            THEN NEW.tally->'counts'->(s.seat::text) END) c
        UNION ALL
        SELECT c.key, -c.value::bigint
        FROM json_each_text(CASE WHEN OLD.status <> 'lobby' AND OLD.tally_version = OLD.version
            THEN OLD.tally->'counts'->(s.seat::text) END) c
    ) d
    WHERE s.game_id = NEW.id AND s.student_id IS NOT NULL
    GROUP BY s.student_id, d.name
    -- a counter that changed, or one the tally gained (even at 0) or lost
    HAVING sum(d.n) <> 0 OR count(*) = 1
    -- one order of rows in every transaction, so that two games' steps never wait crosswise
    ORDER BY s.student_id, d.name
    ON CONFLICT (classroom_id, student_id, kind, what, name) DO UPDATE SET n = ss.n + EXCLUDED.n;
    RETURN NULL;
END
$$;
-- +goose StatementEnd

CREATE TRIGGER student_sums_tally AFTER UPDATE ON games FOR EACH ROW
    WHEN (NEW.classroom_id IS NOT NULL AND (OLD.tally::text IS DISTINCT FROM NEW.tally::text
        OR OLD.status IS DISTINCT FROM NEW.status
        OR (OLD.tally_version = OLD.version) IS DISTINCT FROM (NEW.tally_version = NEW.version)))
    EXECUTE FUNCTION student_sums_tally();

-- +goose StatementBegin
CREATE FUNCTION student_sums_review() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO student_sums AS ss (classroom_id, student_id, kind, what, name, n)
    SELECT NEW.classroom_id, NEW.student_id, NEW.kind, d.what, d.name, d.n FROM (
        SELECT 'judged' AS what, '' AS name, NEW.judged::bigint AS n
        UNION ALL SELECT 'label', l.key, l.value::bigint FROM jsonb_each_text(NEW.labels) l
        UNION ALL SELECT 'missed', m.key, m.value::bigint FROM jsonb_each_text(NEW.missed) m
    ) d
    ORDER BY d.what, d.name
    ON CONFLICT (classroom_id, student_id, kind, what, name) DO UPDATE SET n = ss.n + EXCLUDED.n;
    RETURN NULL;
END
$$;
-- +goose StatementEnd

CREATE TRIGGER student_sums_review AFTER INSERT ON review_seats FOR EACH ROW EXECUTE FUNCTION student_sums_review();

-- +goose StatementBegin
CREATE FUNCTION student_sums_attempt() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    cid uuid;
    sid uuid;
    k   text;
BEGIN
    SELECT g.classroom_id, s.student_id, g.kind INTO cid, sid, k
    FROM games g JOIN seats s ON s.game_id = g.id AND s.seat = NEW.seat
    WHERE g.id = NEW.game_id AND g.classroom_id IS NOT NULL AND s.student_id IS NOT NULL;
    IF sid IS NULL THEN
        RETURN NULL;
    END IF;
    -- the three most recent by id, whatever order racing refusals commit in
    INSERT INTO attempt_codes AS c (classroom_id, student_id, code, n, example_ids, examples)
    VALUES (cid, sid, NEW.code, 1, ARRAY[NEW.id], ARRAY[NEW.detail])
    ON CONFLICT (classroom_id, student_id, code) DO UPDATE SET n = c.n + 1,
        (example_ids, examples) = (SELECT array_agg(u.id ORDER BY u.id DESC), array_agg(u.detail ORDER BY u.id DESC)
            FROM (SELECT * FROM unnest(c.example_ids || EXCLUDED.example_ids, c.examples || EXCLUDED.examples) AS e(id, detail)
                ORDER BY e.id DESC LIMIT 3) u);
    IF NEW.facts IS NOT NULL THEN
        INSERT INTO attempt_facts AS f (classroom_id, student_id, kind, code, facts, n)
        VALUES (cid, sid, k, NEW.code, NEW.facts, 1)
        ON CONFLICT (classroom_id, student_id, kind, code, facts) DO UPDATE SET n = f.n + 1;
    END IF;
    RETURN NULL;
END
$$;
-- +goose StatementEnd

CREATE TRIGGER student_sums_attempt AFTER INSERT ON attempts FOR EACH ROW EXECUTE FUNCTION student_sums_attempt();

-- +goose StatementBegin
CREATE FUNCTION student_sums_recount() RETURNS void LANGUAGE sql AS $$
DELETE FROM student_sums WHERE what IN ('tally', 'judged', 'label', 'missed');
DELETE FROM attempt_codes;
DELETE FROM attempt_facts;
INSERT INTO student_sums (classroom_id, student_id, kind, what, name, n)
SELECT g.classroom_id, s.student_id, g.kind, 'tally', c.key, sum(c.value::bigint)
FROM games g JOIN seats s ON s.game_id = g.id AND s.student_id IS NOT NULL
CROSS JOIN json_each_text(g.tally->'counts'->(s.seat::text)) c
WHERE g.classroom_id IS NOT NULL AND g.status <> 'lobby' AND g.tally_version = g.version
GROUP BY 1, 2, 3, 5
UNION ALL
SELECT r.classroom_id, r.student_id, r.kind, 'judged', '', sum(r.judged) FROM review_seats r GROUP BY 1, 2, 3
UNION ALL
SELECT r.classroom_id, r.student_id, r.kind, 'label', l.key, sum(l.value::bigint)
FROM review_seats r CROSS JOIN jsonb_each_text(r.labels) l GROUP BY 1, 2, 3, 5
UNION ALL
SELECT r.classroom_id, r.student_id, r.kind, 'missed', m.key, sum(m.value::bigint)
FROM review_seats r CROSS JOIN jsonb_each_text(r.missed) m GROUP BY 1, 2, 3, 5;
INSERT INTO attempt_codes (classroom_id, student_id, code, n, example_ids, examples)
SELECT g.classroom_id, s.student_id, a.code, count(*), (array_agg(a.id ORDER BY a.id DESC))[1:3],
    (array_agg(a.detail ORDER BY a.id DESC))[1:3]
FROM attempts a JOIN games g ON g.id = a.game_id AND g.classroom_id IS NOT NULL
JOIN seats s ON s.game_id = a.game_id AND s.seat = a.seat AND s.student_id IS NOT NULL
GROUP BY 1, 2, 3;
INSERT INTO attempt_facts (classroom_id, student_id, kind, code, facts, n)
SELECT g.classroom_id, s.student_id, g.kind, a.code, a.facts, count(*)
FROM attempts a JOIN games g ON g.id = a.game_id AND g.classroom_id IS NOT NULL
JOIN seats s ON s.game_id = a.game_id AND s.seat = a.seat AND s.student_id IS NOT NULL
WHERE a.facts IS NOT NULL
GROUP BY 1, 2, 3, 4, 5;
$$;
-- +goose StatementEnd

SELECT student_sums_recount();

-- +goose Down
DROP TRIGGER student_sums_attempt ON attempts;
DROP TRIGGER student_sums_review ON review_seats;
DROP TRIGGER student_sums_tally ON games;
DROP FUNCTION student_sums_recount();
DROP FUNCTION student_sums_attempt();
DROP FUNCTION student_sums_review();
DROP FUNCTION student_sums_tally();
DROP TABLE attempt_facts;
DROP TABLE attempt_codes;
DROP TABLE student_sums;
