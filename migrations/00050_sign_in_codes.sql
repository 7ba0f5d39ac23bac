-- Children's personal sign-in codes (issue 41): a student's code is derived, not stored: six
-- characters drawn from HMAC-SHA256 under a key derived from the operator's SECRET_KEY, over the
-- student's id and sign_in_nonce (play/signin_codes.go). Resetting the code draws a new nonce. What
-- is stored to find a student by their code is sign_in_lookup, a second keyed HMAC over the
-- classroom and the code: the database alone (a dump, a backup) holds neither the codes nor a way
-- to try the 31^6 of them offline. A lookup is unique among a classroom's current students; it is
-- NULL until the teacher first lists the codes or prints the cards.
-- student_sign_ins are the student tokens issued by POST /v1/students/sign-in, hashed as every
-- token: a child signs in on several devices (the school's tablet, a phone at home), each with a
-- token of its own, up to five a student (a sixth sign-in ends the oldest). They end with the
-- student's removal, with a reset of the code, and are deleted with the student (erasure too).

-- +goose Up
ALTER TABLE students ADD COLUMN sign_in_nonce bigint NOT NULL DEFAULT 0,
    ADD COLUMN sign_in_lookup bytea;
CREATE UNIQUE INDEX students_sign_in_lookup ON students (classroom_id, sign_in_lookup)
    WHERE removed_at IS NULL AND sign_in_lookup IS NOT NULL;
CREATE TABLE student_sign_ins (
    token_hash bytea PRIMARY KEY,
    student_id uuid        NOT NULL REFERENCES students ON DELETE CASCADE,
    created_at timestamptz NOT NULL
);
CREATE INDEX student_sign_ins_student ON student_sign_ins (student_id, created_at);

-- An ended sign-in token ends the streams that hold it (00028's notice).
-- +goose StatementBegin
CREATE FUNCTION announce_student_sign_in_ended() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('authority_changes', 'token_rotated token:' || encode(OLD.token_hash, 'hex'));
    RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER student_sign_ins_announce_authority AFTER DELETE ON student_sign_ins
    FOR EACH ROW EXECUTE FUNCTION announce_student_sign_in_ended();

-- +goose Down
DROP TRIGGER student_sign_ins_announce_authority ON student_sign_ins;
DROP FUNCTION announce_student_sign_in_ended();
DROP TABLE student_sign_ins;
DROP INDEX students_sign_in_lookup;
ALTER TABLE students DROP COLUMN sign_in_lookup, DROP COLUMN sign_in_nonce;
