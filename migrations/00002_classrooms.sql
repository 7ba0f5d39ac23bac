-- Classrooms, their students, and games that belong to a classroom with seats bound to students.

-- +goose Up
CREATE TABLE classrooms (
    id                 uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    name               text        NOT NULL,
    join_code          text        NOT NULL UNIQUE,
    teacher_token_hash bytea       NOT NULL UNIQUE,
    created_at         timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE students (
    id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    classroom_id uuid        NOT NULL REFERENCES classrooms ON DELETE CASCADE,
    name         text        NOT NULL,
    token_hash   bytea       NOT NULL UNIQUE,
    created_at   timestamptz NOT NULL DEFAULT now(),
    -- A removed student's token stops working; their seats and history stay.
    removed_at   timestamptz
);
CREATE UNIQUE INDEX students_name ON students (classroom_id, lower(name)) WHERE removed_at IS NULL;

ALTER TABLE games ADD COLUMN classroom_id uuid REFERENCES classrooms ON DELETE CASCADE;
CREATE INDEX games_classroom ON games (classroom_id, created_at DESC, id DESC);

-- A student's seat has no token of its own: the student's token acts for it.
ALTER TABLE seats ADD COLUMN student_id uuid REFERENCES students;
ALTER TABLE seats ALTER COLUMN token_hash DROP NOT NULL;
CREATE INDEX seats_student ON seats (student_id);

-- +goose Down
DELETE FROM games WHERE classroom_id IS NOT NULL;
ALTER TABLE seats ALTER COLUMN token_hash SET NOT NULL;
ALTER TABLE seats DROP COLUMN student_id;
ALTER TABLE games DROP COLUMN classroom_id;
DROP TABLE students;
DROP TABLE classrooms;
