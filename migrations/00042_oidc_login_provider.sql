-- Several OpenID providers (issue 41): a sign-in under way remembers which provider it went to, by
-- the name the operator gave it (OIDC_PROVIDERS; `default` for OIDC_ISSUER's), so that the callback
-- exchanges the code with that provider. Accounts stay keyed by (issuer, subject): two providers'
-- subjects never meet.

-- +goose Up
ALTER TABLE oidc_logins ADD COLUMN provider text NOT NULL DEFAULT 'default';

-- +goose Down
ALTER TABLE oidc_logins DROP COLUMN provider;
