-- Browser sessions of teachers' accounts (issue 41): a sign-in with return_to sets an HttpOnly
-- cookie holding a session token (pgb_…); only its hash is kept. A session works until 12 hours
-- pass without a request (seen_at) or 7 days after it began (expires_at), whichever comes first;
-- an account holds at most 20 (a new one ends its oldest). Logout deletes the row, and so does
-- erasing the account (cascade); each deletion ends the streams the session holds (00028's notice).

-- +goose Up
CREATE TABLE account_sessions (
    id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    account_id uuid        NOT NULL REFERENCES accounts ON DELETE CASCADE,
    token_hash bytea       NOT NULL UNIQUE,
    created_at timestamptz NOT NULL,
    seen_at    timestamptz NOT NULL,
    expires_at timestamptz NOT NULL
);
CREATE INDEX account_sessions_account ON account_sessions (account_id, created_at);

-- +goose StatementBegin
CREATE FUNCTION announce_account_session_ended() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('authority_changes', 'token_revoked token:' || encode(OLD.token_hash, 'hex'));
    RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER account_sessions_announce_authority AFTER DELETE ON account_sessions
    FOR EACH ROW EXECUTE FUNCTION announce_account_session_ended();

-- +goose Down
DROP TRIGGER account_sessions_announce_authority ON account_sessions;
DROP FUNCTION announce_account_session_ended();
DROP TABLE account_sessions;
