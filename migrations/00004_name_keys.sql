-- Students' names are compared in the comparison form of the RFC 8266 nickname profile (issue 10),
-- which the server computes (domain/names.Key) and keeps in name_key; the database keeps a
-- classroom's current students' keys unique. Rows written before this migration get lower(name),
-- an approximation that equals the profile's form for names in plain ASCII letters but not for
-- full-width or decomposed characters; such a name gets its exact key when it is next renamed.
-- A clash between two existing names cannot arise from lower(name): the index it replaces was unique
-- on the same expression.

-- +goose Up
ALTER TABLE students ADD COLUMN name_key text;
UPDATE students SET name_key = lower(name);
ALTER TABLE students ALTER COLUMN name_key SET NOT NULL;
DROP INDEX students_name;
CREATE UNIQUE INDEX students_name_key ON students (classroom_id, name_key) WHERE removed_at IS NULL;

-- +goose Down
DROP INDEX students_name_key;
ALTER TABLE students DROP COLUMN name_key;
CREATE UNIQUE INDEX students_name ON students (classroom_id, lower(name)) WHERE removed_at IS NULL;
