-- LTI 1.3 launches (issue 41 item 3, play/lti*.go). lti_platforms are the LMSs the operator
-- registered (issuer and client id unique together); lti_logins the logins under way, kept under
-- the hash of their state with the hash of their nonce, taken once by the launch within ten
-- minutes (on any instance); lti_contexts the classroom made for a course (a platform's context)
-- at its first instructor's launch (with the URL of its roster, when the platform offers it);
-- lti_students the student a learner of that course is, found
-- by a hash of (platform, context, subject) so that no LMS id is kept as it is; lti_handovers
-- the one-time codes a launch hands to the page in the LMS's frame (hashed, two minutes, taken
-- once); lti_tool_keys the tool's RSA key pairs, the private key sealed under a key derived from
-- SECRET_KEY, the current one with retired_at NULL, a retired one published until publish_until.
-- Accounts-related rows go with their account (ON DELETE CASCADE) or their classroom.

-- +goose Up
CREATE TABLE lti_platforms (
    id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    issuer         text        NOT NULL,
    client_id      text        NOT NULL,
    deployment_ids text[]      NOT NULL,
    jwks_url       text        NOT NULL,
    auth_url       text        NOT NULL,
    token_url      text        NOT NULL,
    created_at     timestamptz NOT NULL,
    UNIQUE (issuer, client_id)
);
CREATE TABLE lti_logins (
    state_hash  bytea PRIMARY KEY,
    nonce_hash  bytea       NOT NULL,
    platform_id uuid        NOT NULL REFERENCES lti_platforms ON DELETE CASCADE,
    expires_at  timestamptz NOT NULL
);
CREATE INDEX lti_logins_expiry ON lti_logins (expires_at);
CREATE TABLE lti_contexts (
    platform_id  uuid NOT NULL REFERENCES lti_platforms ON DELETE CASCADE,
    context_hash bytea NOT NULL,
    classroom_id uuid NOT NULL REFERENCES classrooms ON DELETE CASCADE,
    -- The course's Names and Role Provisioning Services URL, from its instructors' launches.
    memberships_url text NOT NULL DEFAULT '',
    PRIMARY KEY (platform_id, context_hash)
);
CREATE INDEX lti_contexts_classroom ON lti_contexts (classroom_id);
CREATE TABLE lti_students (
    learner_hash bytea PRIMARY KEY,
    classroom_id uuid NOT NULL REFERENCES classrooms ON DELETE CASCADE,
    student_id   uuid NOT NULL REFERENCES students ON DELETE CASCADE
);
CREATE INDEX lti_students_student ON lti_students (student_id);
CREATE TABLE lti_handovers (
    code_hash    bytea PRIMARY KEY,
    account_id   uuid REFERENCES accounts ON DELETE CASCADE,
    classroom_id uuid        NOT NULL REFERENCES classrooms ON DELETE CASCADE,
    student_id   uuid REFERENCES students ON DELETE CASCADE,
    expires_at   timestamptz NOT NULL,
    CHECK ((account_id IS NULL) <> (student_id IS NULL))
);
CREATE INDEX lti_handovers_expiry ON lti_handovers (expires_at);
CREATE TABLE lti_tool_keys (
    kid           text PRIMARY KEY,
    public_jwk    jsonb       NOT NULL,
    sealed        bytea       NOT NULL,
    created_at    timestamptz NOT NULL,
    retired_at    timestamptz,
    publish_until timestamptz
);
-- One current key: two instances starting at once make one between them.
CREATE UNIQUE INDEX lti_tool_keys_current ON lti_tool_keys ((true)) WHERE retired_at IS NULL;

-- +goose Down
DROP TABLE lti_tool_keys;
DROP TABLE lti_handovers;
DROP TABLE lti_students;
DROP TABLE lti_contexts;
DROP TABLE lti_logins;
DROP TABLE lti_platforms;
