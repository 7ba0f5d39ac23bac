-- Games, their seats and their full history. A game's snapshot is always the fold of its actions (G-2).

-- +goose Up
CREATE TABLE games (
    id                 uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    kind               text        NOT NULL,
    options            jsonb       NOT NULL,
    status             text        NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'aborted')),
    seat_count         int         NOT NULL CHECK (seat_count > 0),
    -- G-1: the secret seed of every roll and shuffle; never shown while the game runs.
    seed               bigint      NOT NULL,
    version            bigint      NOT NULL DEFAULT 0,
    snapshot           jsonb,
    winners            int[],
    creator_token_hash bytea       NOT NULL,
    created_at         timestamptz NOT NULL DEFAULT now(),
    updated_at         timestamptz NOT NULL DEFAULT now(),
    finished_at        timestamptz
);
CREATE INDEX games_created ON games (created_at DESC, id DESC);

CREATE TABLE seats (
    game_id    uuid        NOT NULL REFERENCES games ON DELETE CASCADE,
    seat       int         NOT NULL CHECK (seat >= 0),
    name       text        NOT NULL,
    token_hash bytea       NOT NULL UNIQUE,
    joined_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game_id, seat)
);

-- seq 0 is the start (roll-off, shuffle, deal); seq n > 0 is the n-th accepted action.
CREATE TABLE actions (
    game_id    uuid        NOT NULL REFERENCES games ON DELETE CASCADE,
    seq        bigint      NOT NULL CHECK (seq >= 0),
    seat       int,
    action     jsonb       NOT NULL,
    outcome    jsonb       NOT NULL,
    random     int[]       NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game_id, seq)
);

-- Refused actions, kept for teachers: they show where students struggle.
CREATE TABLE attempts (
    id         bigserial   PRIMARY KEY,
    game_id    uuid        NOT NULL REFERENCES games ON DELETE CASCADE,
    seat       int         NOT NULL,
    version    bigint      NOT NULL,
    action     jsonb       NOT NULL,
    code       text        NOT NULL,
    detail     text        NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX attempts_game ON attempts (game_id, id);

-- Responses remembered for Idempotency-Key retries.
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

-- +goose Down
DROP TABLE idempotency_keys;
DROP TABLE attempts;
DROP TABLE actions;
DROP TABLE seats;
DROP TABLE games;
