-- Co-teachers (issue 41): a classroom's owner (its owning account, or its teacher token) invites
-- another teacher by a one-time code, kept hashed for 7 days at most, 20 unexpired per classroom;
-- the account that accepts it co-teaches the classroom: its account token and sessions are then the
-- classroom's teacher as the owner's are. At most 20 co-teachers per classroom. Removing one
-- (or erasing their account, or the classroom) ends the streams they hold on the classroom: the
-- notice names the (classroom, account) pair.

-- +goose Up
CREATE TABLE classroom_co_teachers (
    classroom_id uuid        NOT NULL REFERENCES classrooms ON DELETE CASCADE,
    account_id   uuid        NOT NULL REFERENCES accounts ON DELETE CASCADE,
    added_at     timestamptz NOT NULL,
    PRIMARY KEY (classroom_id, account_id)
);
CREATE INDEX classroom_co_teachers_account ON classroom_co_teachers (account_id);
CREATE TABLE co_teacher_invites (
    code_hash    bytea PRIMARY KEY,
    classroom_id uuid        NOT NULL REFERENCES classrooms ON DELETE CASCADE,
    created_at   timestamptz NOT NULL,
    expires_at   timestamptz NOT NULL
);
CREATE INDEX co_teacher_invites_classroom ON co_teacher_invites (classroom_id, expires_at);

-- +goose StatementBegin
CREATE FUNCTION announce_co_teacher_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('authority_changes', 'teacher_removed teaching:' || OLD.classroom_id || ':' || OLD.account_id);
    RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER classroom_co_teachers_announce_authority AFTER DELETE ON classroom_co_teachers
    FOR EACH ROW EXECUTE FUNCTION announce_co_teacher_removed();

-- +goose Down
DROP TRIGGER classroom_co_teachers_announce_authority ON classroom_co_teachers;
DROP FUNCTION announce_co_teacher_removed();
DROP TABLE co_teacher_invites;
DROP TABLE classroom_co_teachers;
