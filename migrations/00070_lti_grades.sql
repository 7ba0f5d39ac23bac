-- Grades to the LMS (issue 42 item 4, LTI Assignment and Grade Services 2.0; play/lti_grades.go).
--
-- lti_contexts keeps the course's AGS endpoint from its launches: the line items URL and the scopes
-- the platform granted. lti_students keeps the learner's LMS user id (the launch's sub, or the
-- roster's user_id), which AGS requires in each score: sealed (AES-GCM under a key derived from
-- SECRET_KEY, the learner's hash as additional data), never in an answer or a log, gone with the
-- student's row (erasure) or the classroom's.
--
-- An assignment with gradebook on is a column of the course's gradebook: lineitem_url is the line
-- item the worker made for it (NULL until made); gradebook_error the last failure's code (NULL once
-- a send succeeds). lti_grade_jobs are the sends to make: the line item (student_id NULL) and one
-- score per (assignment, student), queued by the trigger below in the transaction that ends a game
-- (the progress row's games_done changes), sent by the worker outside it. version counts the
-- changes queued, so that a change while a send is in flight sends again; attempts and due_at the
-- backoff; leased_until the worker's lease. At most one row per (assignment, student): bounded by
-- the assignments and the students.

-- +goose Up
ALTER TABLE lti_contexts ADD COLUMN lineitems_url text NOT NULL DEFAULT '',
    ADD COLUMN ags_scopes text[] NOT NULL DEFAULT '{}';
ALTER TABLE lti_students ADD COLUMN sealed_subject bytea;
ALTER TABLE assignments ADD COLUMN gradebook boolean NOT NULL DEFAULT false,
    ADD COLUMN lineitem_url text,
    ADD COLUMN gradebook_error text,
    ADD COLUMN gradebook_error_status int;

CREATE TABLE lti_grade_jobs (
    id            bigserial PRIMARY KEY,
    assignment_id uuid NOT NULL REFERENCES assignments ON DELETE CASCADE,
    student_id    uuid REFERENCES students ON DELETE CASCADE,
    platform_id   uuid NOT NULL REFERENCES lti_platforms ON DELETE CASCADE,
    version       int  NOT NULL DEFAULT 1,
    attempts      int  NOT NULL DEFAULT 0,
    due_at        timestamptz,
    leased_until  timestamptz,
    UNIQUE NULLS NOT DISTINCT (assignment_id, student_id)
);
CREATE INDEX lti_grade_jobs_platform ON lti_grade_jobs (platform_id, id);

-- +goose StatementBegin
CREATE FUNCTION queue_lti_score() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO lti_grade_jobs (assignment_id, student_id, platform_id)
    SELECT a.id, NEW.student_id, (SELECT c.platform_id FROM lti_contexts c WHERE c.classroom_id = a.classroom_id LIMIT 1)
    FROM assignments a
    WHERE a.id = NEW.assignment_id AND a.gradebook
      AND EXISTS (SELECT 1 FROM lti_contexts c WHERE c.classroom_id = a.classroom_id)
    ON CONFLICT (assignment_id, student_id) DO UPDATE
        SET version = lti_grade_jobs.version + 1, attempts = 0, due_at = NULL;
    RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER assignment_progress_queue_lti_score AFTER UPDATE OF games_done ON assignment_progress
    FOR EACH ROW WHEN (NEW.games_done <> OLD.games_done)
    EXECUTE FUNCTION queue_lti_score();

-- A removed student's LMS id and pending scores go at once (the student's row stays for its games).
-- +goose StatementBegin
CREATE FUNCTION forget_removed_student_lti() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE lti_students SET sealed_subject = NULL WHERE student_id = NEW.id;
    DELETE FROM lti_grade_jobs WHERE student_id = NEW.id;
    RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER students_forget_lti AFTER UPDATE OF removed_at ON students
    FOR EACH ROW WHEN (NEW.removed_at IS NOT NULL AND OLD.removed_at IS NULL)
    EXECUTE FUNCTION forget_removed_student_lti();

-- +goose Down
DROP TRIGGER students_forget_lti ON students;
DROP FUNCTION forget_removed_student_lti();
DROP TRIGGER assignment_progress_queue_lti_score ON assignment_progress;
DROP FUNCTION queue_lti_score();
DROP TABLE lti_grade_jobs;
ALTER TABLE assignments DROP COLUMN gradebook, DROP COLUMN lineitem_url, DROP COLUMN gradebook_error, DROP COLUMN gradebook_error_status;
ALTER TABLE lti_students DROP COLUMN sealed_subject;
ALTER TABLE lti_contexts DROP COLUMN lineitems_url, DROP COLUMN ags_scopes;
