-- Webhook deliveries claimed and found through indexes, whatever the backlog (issue 39).
--
-- Only the oldest pending delivery of a (subscription, game) — the head of its queue — may be
-- sent: a game's events reach a subscriber in order. Until now every claim and every search for
-- the next due time found the heads by reading the whole table (DISTINCT ON), which, at a backlog
-- of 50,000 deliveries for receivers that failed, cost Postgres most of a core with no new work.
--
-- From now on a delivery waiting behind its queue's head is due at 'infinity': the index on
-- next_attempt_at then holds, in its due range, only heads. When a head goes (delivered, or deleted
-- by anyone), a trigger makes the next delivery of its queue the head, due since it was queued, in
-- the same transaction; it first takes the game's fan-out lock (the one the sender's fan-out holds
-- while it adds to the game's queues), so that a delivery added meanwhile is either seen behind
-- the head or sees the head gone, never stranded at 'infinity'. A delivery deleted with its
-- subscription (the foreign key's cascade, after which the subscription is no longer visible to the
-- trigger) leaves no queue worth promoting: the trigger then does nothing, and takes no lock, so
-- that deleting a subscription never waits for a game's fan-out (which may itself wait for the
-- subscription's row: a deadlock). Whoever deletes the deliveries of several games while their
-- subscription remains takes those games' locks first, in the order of their ids (repo/webhooks.go
-- says why). A claimed delivery is due
-- again when its lease runs out (next_attempt_at = leased_until), so that the same index finds the
-- deliveries a dead worker left. leased_until, set while a delivery is being sent, counts what each
-- subscription has in flight, through its own small index.

-- +goose Up
UPDATE webhook_deliveries d SET next_attempt_at = 'infinity'
WHERE EXISTS (SELECT FROM webhook_deliveries o
    WHERE o.subscription_id = d.subscription_id AND o.game_id = d.game_id AND o.id < d.id);
UPDATE webhook_deliveries SET next_attempt_at = greatest(next_attempt_at, leased_until)
WHERE leased_until IS NOT NULL AND next_attempt_at < 'infinity';
CREATE INDEX webhook_deliveries_leased ON webhook_deliveries (subscription_id, leased_until) WHERE leased_until IS NOT NULL;
-- The due deliveries in the order they are claimed, so that a claim reads the first of them only.
CREATE INDEX webhook_deliveries_next ON webhook_deliveries (next_attempt_at, id);
DROP INDEX webhook_deliveries_due;

-- +goose StatementBegin
CREATE FUNCTION promote_webhook_delivery() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NOT EXISTS (SELECT FROM webhook_subscriptions WHERE id = OLD.subscription_id) THEN
        RETURN NULL;
    END IF;
    PERFORM pg_advisory_xact_lock(hashtextextended('webhook_outbox:' || OLD.game_id::text, 0));
    UPDATE webhook_deliveries SET next_attempt_at = created_at
    WHERE game_id = OLD.game_id AND next_attempt_at = 'infinity' AND id = (
        SELECT id FROM webhook_deliveries WHERE subscription_id = OLD.subscription_id AND game_id = OLD.game_id ORDER BY id LIMIT 1);
    RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER webhook_deliveries_promote AFTER DELETE ON webhook_deliveries
    FOR EACH ROW WHEN (OLD.next_attempt_at < 'infinity') EXECUTE FUNCTION promote_webhook_delivery();

-- +goose Down
DROP TRIGGER webhook_deliveries_promote ON webhook_deliveries;
DROP FUNCTION promote_webhook_delivery();
DROP INDEX webhook_deliveries_leased;
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at);
DROP INDEX webhook_deliveries_next;
UPDATE webhook_deliveries SET next_attempt_at = created_at WHERE next_attempt_at = 'infinity';
