-- Idempotency-Key responses are kept as secrets (issue 10): a row is found by a hash derived from the
-- key (joined by the caller's token when one identifies the caller) and its scope, and holds the
-- response encrypted with a key derived from the same secret. Neither the key nor the scope is kept.
-- The rows kept so far held keys, token-bearing scopes and responses in plain text; they are deleted,
-- not converted (their keys are not known here, and they would expire within 24 hours anyway). A
-- retry of a request answered before this migration acts afresh.

-- +goose Up
DROP TABLE idempotency_keys;
CREATE TABLE idempotency_keys (
    lookup       bytea       PRIMARY KEY,
    request_hash bytea       NOT NULL,
    response     bytea       NOT NULL, -- AES-256-GCM: nonce, ciphertext, tag
    created_at   timestamptz NOT NULL DEFAULT now()
);

-- +goose Down
DROP TABLE idempotency_keys;
CREATE TABLE idempotency_keys (
    scope        text        NOT NULL,
    key          text        NOT NULL,
    request_hash bytea       NOT NULL,
    status       int         NOT NULL,
    headers      jsonb       NOT NULL,
    body         bytea       NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (scope, key)
);
