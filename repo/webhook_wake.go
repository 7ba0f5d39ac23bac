package repo

// WebhookChannel is the Postgres notification channel on which a transaction that queued webhooks
// (wrote to webhook_outbox) is announced when it commits, by a trigger (migration 00033), so that
// the webhook senders of every instance wake at once instead of at their next poll.
const WebhookChannel = "webhook_outbox"

// OnWebhookQueued makes the live-update listener (Listen) hear WebhookChannel too, and call wake
// for each notification, and each time it (re)connects (notifications sent while it was not
// connected are lost). Call it before the listener starts.
func (db *DB) OnWebhookQueued(wake func()) {
	db.webhookQueued = wake
}
