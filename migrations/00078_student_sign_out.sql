-- A child signs out on a shared device (POST /v1/students/sign-out): the sign-in's row in
-- student_sign_ins is deleted, and its trigger (00050) ends the streams that hold the token. The
-- reason their `revoked` event gives was always token_rotated, right for a reset of the code (the
-- card's code was replaced) but not for a sign-out: a transaction that ends a sign-in for another
-- reason says so in the setting primegames.sign_in_ended (set_config(…, true), for that transaction
-- only), and the trigger announces that reason instead.

-- +goose Up
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION announce_student_sign_in_ended() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('authority_changes',
        coalesce(nullif(current_setting('primegames.sign_in_ended', true), ''), 'token_rotated')
            || ' token:' || encode(OLD.token_hash, 'hex'));
    RETURN NULL;
END
$$;
-- +goose StatementEnd

-- +goose Down
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION announce_student_sign_in_ended() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('authority_changes', 'token_rotated token:' || encode(OLD.token_hash, 'hex'));
    RETURN NULL;
END
$$;
-- +goose StatementEnd
