-- Webhook subscriptions belong to the principal, not to the token that made them (issue 39).
--
-- owner_key names the principal, whose subscriptions one lists, deletes and counts against the
-- quota: 'admin', 'classroom:<id>' (its teacher), 'student:<id>', or 'token:<hash in hex>' for a
-- game's creator or seat token (a game token is its own principal). owner_kind says which
-- (admin, teacher, student, token); owner_classroom_id and owner_student_id name the teacher's
-- classroom and the student. token_hash (the former owner_hash) is the token whose authority the
-- subscription holds: once the teacher's token is rotated or the student's reissued, it no longer
-- matches, and the subscription is suspended (it delivers nothing) until the principal's current
-- token resumes it. A seat's subscription (seat not null) follows the seat's holder, by token or by
-- student: once they leave the seat, it has ended; so has a removed student's. The service works
-- out a subscription's standing (active, suspended, disabled, ended) when it fans out and again
-- right before each delivery is sent (repo/webhooks.go, standingSQL).
--
-- address_key is the address the subscription was made from, hashed with owner_secret as the games
-- keep theirs (migration 00019), for the quota per address. dropped counts the deliveries not
-- queued because the subscription or its owner had as many pending as allowed; last_dropped_at
-- says when the last was.
--
-- The rows made so far are classified by the token that made them: the admin's, a current
-- teacher's or student's token, else a game token. A subscription made with a teacher or student
-- token that has since been replaced cannot be told from a game token's: it is classified as a
-- game token's, which holds no game, so it has ended and is deleted on its next fan-out.
--
-- secret: new subscriptions keep their signing keys sealed (AES-256-GCM under a key derived from
-- WEBHOOK_SEALING_KEY, which the database does not hold). A migration cannot seal the raw 32-byte
-- keys stored so far, not knowing that key: each instance seals them when its webhook worker starts,
-- before it sends anything, and until then a raw key (32 bytes; a sealed one is longer) still signs.

-- +goose Up
ALTER TABLE webhook_subscriptions RENAME COLUMN owner_hash TO token_hash;
ALTER TABLE webhook_subscriptions ALTER COLUMN token_hash DROP NOT NULL;
ALTER TABLE webhook_subscriptions
    ADD COLUMN owner_key          text,
    ADD COLUMN owner_kind         text CHECK (owner_kind IN ('admin', 'teacher', 'student', 'token')),
    ADD COLUMN owner_classroom_id uuid,
    ADD COLUMN owner_student_id   uuid,
    ADD COLUMN address_key        bytea,
    ADD COLUMN dropped            bigint NOT NULL DEFAULT 0,
    ADD COLUMN last_dropped_at    timestamptz;
UPDATE webhook_subscriptions SET owner_kind = 'admin', owner_key = 'admin', token_hash = NULL WHERE token_hash = 'admin'::bytea;
UPDATE webhook_subscriptions s SET owner_kind = 'teacher', owner_key = 'classroom:' || c.id, owner_classroom_id = c.id
    FROM classrooms c WHERE s.owner_kind IS NULL AND c.teacher_token_hash = s.token_hash;
UPDATE webhook_subscriptions s SET owner_kind = 'student', owner_key = 'student:' || u.id, owner_classroom_id = u.classroom_id, owner_student_id = u.id
    FROM students u WHERE s.owner_kind IS NULL AND u.token_hash = s.token_hash;
UPDATE webhook_subscriptions SET owner_kind = 'token', owner_key = 'token:' || encode(token_hash, 'hex') WHERE owner_kind IS NULL;
ALTER TABLE webhook_subscriptions ALTER COLUMN owner_key SET NOT NULL, ALTER COLUMN owner_kind SET NOT NULL;
DROP INDEX webhook_subscriptions_owner;
CREATE INDEX webhook_subscriptions_owner ON webhook_subscriptions (owner_key, created_at);
CREATE INDEX webhook_subscriptions_address ON webhook_subscriptions (address_key) WHERE address_key IS NOT NULL;

-- +goose Down
DROP INDEX webhook_subscriptions_address;
DROP INDEX webhook_subscriptions_owner;
UPDATE webhook_subscriptions SET token_hash = 'admin'::bytea WHERE owner_kind = 'admin';
ALTER TABLE webhook_subscriptions
    DROP COLUMN owner_key, DROP COLUMN owner_kind, DROP COLUMN owner_classroom_id, DROP COLUMN owner_student_id,
    DROP COLUMN address_key, DROP COLUMN dropped, DROP COLUMN last_dropped_at;
ALTER TABLE webhook_subscriptions ALTER COLUMN token_hash SET NOT NULL;
ALTER TABLE webhook_subscriptions RENAME COLUMN token_hash TO owner_hash;
CREATE INDEX webhook_subscriptions_owner ON webhook_subscriptions (owner_hash, created_at);
