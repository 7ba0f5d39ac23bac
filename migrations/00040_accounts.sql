-- Teachers' accounts (issue 41): an account is a person signed in through an OpenID provider,
-- known by the provider's issuer and its subject for them; only a display name is kept (no email:
-- privacy by default). An account holds named account tokens (hashed, expiring) and owns
-- classrooms; a classroom's teacher token keeps working besides.
-- oidc_logins are the sign-ins under way: the hash of the state sent to the provider, with the
-- nonce and PKCE verifier it must come back with; a callback takes its row (used once) within ten
-- minutes, on any instance. The verifier and nonce are kept as they are: each is worth something
-- only with the provider's one-time code of the same sign-in, which never reaches the database, and
-- the row is deleted when the callback takes it, or refused after ten minutes and deleted by a
-- later sign-in.

-- +goose Up
CREATE TABLE accounts (
    id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    issuer     text        NOT NULL,
    subject    text        NOT NULL,
    name       text        NOT NULL,
    created_at timestamptz NOT NULL,
    UNIQUE (issuer, subject)
);
CREATE TABLE account_tokens (
    id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    account_id uuid        NOT NULL REFERENCES accounts ON DELETE CASCADE,
    token_hash bytea       NOT NULL UNIQUE,
    name       text        NOT NULL,
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL
);
CREATE INDEX account_tokens_account ON account_tokens (account_id, created_at);
ALTER TABLE classrooms ADD COLUMN account_id uuid REFERENCES accounts ON DELETE SET NULL;
CREATE INDEX classrooms_account ON classrooms (account_id) WHERE account_id IS NOT NULL;
CREATE TABLE oidc_logins (
    state_hash bytea PRIMARY KEY,
    nonce      text        NOT NULL,
    verifier   text        NOT NULL,
    return_to  text        NOT NULL,
    expires_at timestamptz NOT NULL
);
CREATE INDEX oidc_logins_expiry ON oidc_logins (expires_at);

-- A revoked account token ends the streams that hold it (00028's notice).
-- +goose StatementBegin
CREATE FUNCTION announce_account_token_revoked() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('authority_changes', 'token_revoked token:' || encode(OLD.token_hash, 'hex'));
    RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER account_tokens_announce_authority AFTER DELETE ON account_tokens
    FOR EACH ROW EXECUTE FUNCTION announce_account_token_revoked();

-- +goose Down
DROP TRIGGER account_tokens_announce_authority ON account_tokens;
DROP FUNCTION announce_account_token_revoked();
DROP TABLE oidc_logins;
ALTER TABLE classrooms DROP COLUMN account_id;
DROP TABLE account_tokens;
DROP TABLE accounts;
