-- Webhooks (issue 26): subscriptions, the transactional outbox and the deliveries.
--
-- For a schema distributed by game (docs/scaling.md), the outbox and the deliveries are kept per
-- game (their keys include game_id); the subscriptions are a reference table (small, rarely
-- written), which is why a game's subscription names its game as subject_game_id, without a
-- foreign key into games.
--
-- webhook_subscriptions: who asked (owner_hash: the hash of the token that created it, or
-- 'admin'), for what (scope game/classroom/service and its id; seat when a seat's token subscribed
-- to its game: that seat's player events only), where to (url) and how to sign (secret, the raw
-- key of the `whsec_` secret shown once). A subscription that keeps failing, or answered 410, is
-- disabled with its reason; its pending deliveries go.
--
-- webhook_outbox: one row per game change (a history entry's seq, or -1 for the end of an aborted
-- game), written in the change's own transaction when any live subscription might want it. The
-- worker turns a game's rows into deliveries and deletes them, so the table holds only the changes
-- not yet fanned out.
--
-- webhook_deliveries: one row per event per subscription, deleted once delivered (or its
-- subscription disabled). Each has its webhook-id for good; a lease (leased_until) marks the one
-- being sent, so that a worker killed mid-send leaves it to be sent again, with the same id, once
-- the lease has run out.

-- +goose Up
CREATE TABLE webhook_subscriptions (
    id              uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    owner_hash      bytea       NOT NULL,
    scope           text        NOT NULL CHECK (scope IN ('game', 'classroom', 'service')),
    subject_game_id uuid,
    classroom_id    uuid        REFERENCES classrooms ON DELETE CASCADE,
    seat            int,
    url             text        NOT NULL,
    secret          bytea       NOT NULL,
    events          text[]      NOT NULL,
    created_at      timestamptz NOT NULL,
    failures        int         NOT NULL DEFAULT 0,
    last_attempt_at timestamptz,
    last_success_at timestamptz,
    last_error      text,
    disabled_at     timestamptz,
    disabled_reason text,
    CHECK ((scope = 'game') = (subject_game_id IS NOT NULL)),
    CHECK ((scope = 'classroom') = (classroom_id IS NOT NULL))
);
CREATE INDEX webhook_subscriptions_owner ON webhook_subscriptions (owner_hash, created_at);
CREATE INDEX webhook_subscriptions_game ON webhook_subscriptions (subject_game_id) WHERE disabled_at IS NULL;
CREATE INDEX webhook_subscriptions_classroom ON webhook_subscriptions (classroom_id) WHERE disabled_at IS NULL;
CREATE INDEX webhook_subscriptions_service ON webhook_subscriptions (scope) WHERE disabled_at IS NULL AND scope = 'service';

CREATE TABLE webhook_outbox (
    id         bigserial,
    game_id    uuid        NOT NULL,
    seq        bigint      NOT NULL,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (game_id, id)
);
CREATE INDEX webhook_outbox_order ON webhook_outbox (id);

CREATE TABLE webhook_deliveries (
    id              bigserial,
    webhook_id      text        NOT NULL,
    subscription_id uuid        NOT NULL REFERENCES webhook_subscriptions ON DELETE CASCADE,
    game_id         uuid        NOT NULL,
    type            text        NOT NULL,
    payload         bytea       NOT NULL,
    attempts        int         NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL,
    leased_until    timestamptz,
    created_at      timestamptz NOT NULL,
    PRIMARY KEY (game_id, id)
);
CREATE INDEX webhook_deliveries_queue ON webhook_deliveries (subscription_id, game_id, id);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at);

-- +goose Down
DROP TABLE webhook_deliveries;
DROP TABLE webhook_outbox;
DROP TABLE webhook_subscriptions;
