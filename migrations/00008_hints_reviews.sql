-- Hints and move review (issue 13). A hint is kept once per seat and position (the seq the seat's
-- next action would take), so asking again at the same position, or a retried request, is one hint
-- used. A finished game's review is computed once and kept as it was first served: it never changes.

-- +goose Up
CREATE TABLE hints (
    game_id    uuid        NOT NULL REFERENCES games ON DELETE CASCADE,
    seat       int         NOT NULL CHECK (seat >= 0),
    seq        bigint      NOT NULL CHECK (seq > 0),
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game_id, seat, seq)
);

CREATE TABLE reviews (
    game_id     uuid        PRIMARY KEY REFERENCES games ON DELETE CASCADE,
    review      jsonb       NOT NULL,
    computed_at timestamptz NOT NULL DEFAULT now()
);

-- +goose Down
DROP TABLE reviews;
DROP TABLE hints;
