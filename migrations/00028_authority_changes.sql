-- Every change that ends what a token may do is announced on the channel authority_changes, by a
-- trigger, in the transaction that makes it, so Postgres delivers it at commit only and in commit
-- order with the games' changes (00026): every instance then ends the live streams that hold the
-- authority (live/authority.go) before it reads anything committed later. The payload is
-- '<reason> <key>', the key naming the authority as live.AuthorityKey does:
--   token_rotated    token:<hex of the old hash>         a teacher token rotated, a student token reissued
--   student_removed  student:<id>                        a student removed from the classroom
--   student_erased   student:<id>                        a removed student erased
--   observer_revoked token:<hex of the hash>             an observer token revoked
--   observer_expired token:<hex of the hash>             an expired observer token deleted
--   seat_left        seat:<game id>:<hex of the hash>    a lobby seat left, a seat handed to the computer

-- +goose Up
-- +goose StatementBegin
CREATE FUNCTION announce_authority_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    CASE TG_TABLE_NAME
    WHEN 'classrooms' THEN
        PERFORM pg_notify('authority_changes', 'token_rotated token:' || encode(OLD.teacher_token_hash, 'hex'));
    WHEN 'students' THEN
        IF OLD.token_hash IS DISTINCT FROM NEW.token_hash THEN
            PERFORM pg_notify('authority_changes', 'token_rotated token:' || encode(OLD.token_hash, 'hex'));
        END IF;
        IF OLD.removed_at IS NULL AND NEW.removed_at IS NOT NULL THEN
            PERFORM pg_notify('authority_changes', 'student_removed student:' || NEW.id::text);
        END IF;
        IF OLD.erased_at IS NULL AND NEW.erased_at IS NOT NULL THEN
            PERFORM pg_notify('authority_changes', 'student_erased student:' || NEW.id::text);
        END IF;
    WHEN 'observer_tokens' THEN
        PERFORM pg_notify('authority_changes',
            CASE WHEN OLD.expires_at <= statement_timestamp() THEN 'observer_expired' ELSE 'observer_revoked' END
            || ' token:' || encode(OLD.token_hash, 'hex'));
    WHEN 'seats' THEN
        PERFORM pg_notify('authority_changes', 'seat_left seat:' || OLD.game_id::text || ':' || encode(OLD.token_hash, 'hex'));
    END CASE;
    RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER classrooms_announce_authority AFTER UPDATE OF teacher_token_hash ON classrooms
    FOR EACH ROW WHEN (OLD.teacher_token_hash IS DISTINCT FROM NEW.teacher_token_hash)
    EXECUTE FUNCTION announce_authority_change();
CREATE TRIGGER students_announce_authority AFTER UPDATE ON students
    FOR EACH ROW WHEN (OLD.token_hash IS DISTINCT FROM NEW.token_hash
        OR (OLD.removed_at IS NULL AND NEW.removed_at IS NOT NULL)
        OR (OLD.erased_at IS NULL AND NEW.erased_at IS NOT NULL))
    EXECUTE FUNCTION announce_authority_change();
CREATE TRIGGER observer_tokens_announce_authority AFTER DELETE ON observer_tokens
    FOR EACH ROW EXECUTE FUNCTION announce_authority_change();
CREATE TRIGGER seats_announce_authority_delete AFTER DELETE ON seats
    FOR EACH ROW WHEN (OLD.token_hash IS NOT NULL)
    EXECUTE FUNCTION announce_authority_change();
CREATE TRIGGER seats_announce_authority_update AFTER UPDATE OF token_hash ON seats
    FOR EACH ROW WHEN (OLD.token_hash IS NOT NULL AND OLD.token_hash IS DISTINCT FROM NEW.token_hash)
    EXECUTE FUNCTION announce_authority_change();

-- +goose Down
DROP TRIGGER seats_announce_authority_update ON seats;
DROP TRIGGER seats_announce_authority_delete ON seats;
DROP TRIGGER observer_tokens_announce_authority ON observer_tokens;
DROP TRIGGER students_announce_authority ON students;
DROP TRIGGER classrooms_announce_authority ON classrooms;
DROP FUNCTION announce_authority_change();
