-- A game subscription follows the game to its rematch (issue 39): when the rematch is created, each
-- active subscription of the finished game is copied to it, in the rematch's own transaction (so
-- that its game_started is queued for the copies), with the same owner, token, events, url and
-- signing key (sealed anew for the copy's id). The subscription copied is marked followed_at; once
-- nothing of its game waits for it (no pending delivery, no outbox row of its game) it has ended
-- and is deleted at its next look-up, so a chain of rematches does not pile up subscriptions.

-- +goose Up
ALTER TABLE webhook_subscriptions ADD COLUMN followed_at timestamptz;

-- +goose Down
ALTER TABLE webhook_subscriptions DROP COLUMN followed_at;
