-- A change that queues a webhook wakes the senders of every instance when it commits: a row
-- written to webhook_outbox is announced on the channel webhook_outbox (empty payload; Postgres
-- delivers the notifications of one transaction once). Until now the senders looked for work once
-- a second.

-- +goose Up
-- +goose StatementBegin
CREATE FUNCTION announce_webhook_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('webhook_outbox', '');
    RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER webhook_outbox_announce AFTER INSERT ON webhook_outbox
    FOR EACH ROW EXECUTE FUNCTION announce_webhook_outbox();

-- +goose Down
DROP TRIGGER webhook_outbox_announce ON webhook_outbox;
DROP FUNCTION announce_webhook_outbox();
