package repo

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"primegames/play"
)

// Webhooks: subscriptions, the outbox the game transactions write (queueOutbox) and the deliveries
// (see migrations/00022_webhooks.sql).

// outboxSQL writes a game change ($2: an entry's seq, -1 for the end of an aborted game; now: the
// parameter of its time, such as "$3") to the outbox, in the change's transaction, when a live
// subscription may want it: the game's own, its classroom's or a service-wide one. Without one the
// statement writes nothing, through three partial indexes.
func outboxSQL(now string) string {
	return `INSERT INTO webhook_outbox (game_id, seq, created_at)
	SELECT $1, $2, ` + now + ` WHERE EXISTS (SELECT FROM webhook_subscriptions s WHERE s.disabled_at IS NULL
		AND (s.subject_game_id = $1 OR s.scope = 'service'
			OR s.classroom_id = (SELECT classroom_id FROM games WHERE id = $1)))`
}

// queueOutbox queues the outbox row of a change of the game.
func (t *gameTx) queueOutbox(ctx context.Context, gameID string, seq int64) error {
	return t.queue(ctx, outboxSQL("$3"), gameID, seq, t.now)
}

// fanOutRows bounds the outbox rows of one game taken at a time.
const fanOutRows = 500

const webhookColumns = `id::text, owner_hash, scope, subject_game_id::text, classroom_id::text, seat, url, secret, events, created_at,
	failures, last_attempt_at, last_success_at, last_error, disabled_at, disabled_reason`

func scanWebhook(row pgx.Row) (play.Webhook, error) {
	var w play.Webhook
	var seat *int32
	err := row.Scan(&w.ID, &w.Owner, &w.Scope, &w.GameID, &w.ClassroomID, &seat, &w.URL, &w.Secret, &w.Events, &w.CreatedAt,
		&w.Failures, &w.LastAttemptAt, &w.LastSuccessAt, &w.LastError, &w.DisabledAt, &w.DisabledReason)
	if seat != nil {
		n := int(*seat)
		w.Seat = &n
	}
	return w, err
}

func (s *Games) InsertWebhook(ctx context.Context, w *play.Webhook, quota int) error {
	return s.db.inTx(ctx, func(tx pgx.Tx) error {
		// One owner's creations wait for each other, so that the count holds.
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended('webhooks:' || encode($1::bytea, 'hex'), 0))`, w.Owner); err != nil {
			return err
		}
		var held int
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM webhook_subscriptions WHERE owner_hash = $1`, w.Owner).Scan(&held); err != nil {
			return err
		}
		if held >= quota {
			return play.ErrWebhookQuota
		}
		return tx.QueryRow(ctx, `INSERT INTO webhook_subscriptions (owner_hash, scope, subject_game_id, classroom_id, seat, url, secret, events, created_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id::text`,
			w.Owner, w.Scope, w.GameID, w.ClassroomID, w.Seat, w.URL, w.Secret, w.Events, w.CreatedAt).Scan(&w.ID)
	})
}

func (s *Games) Webhooks(ctx context.Context, owner []byte) ([]play.Webhook, error) {
	rows, err := s.db.Pool.Query(ctx, `SELECT `+webhookColumns+` FROM webhook_subscriptions WHERE owner_hash = $1 ORDER BY created_at, id`, owner)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (play.Webhook, error) { return scanWebhook(r) })
}

func (s *Games) DeleteWebhook(ctx context.Context, owner []byte, id string) error {
	tag, err := s.db.Pool.Exec(ctx, `DELETE FROM webhook_subscriptions WHERE id::text = $2 AND owner_hash = $1`, owner, id)
	if err == nil && tag.RowsAffected() == 0 {
		return play.ErrNotFound
	}
	return err
}

func (s *Games) FanOut(ctx context.Context, now time.Time, fn func(play.OutboxBatch) ([]play.NewDelivery, error)) (bool, error) {
	found := false
	err := s.db.inTx(ctx, func(tx pgx.Tx) error {
		found = false
		// The first game whose oldest row no other worker holds; then all its rows (up to the
		// bound), which the game's lock on the first keeps to this worker: a game is fanned out by
		// one worker at a time, so its events go out in order.
		var b play.OutboxBatch
		err := tx.QueryRow(ctx, `SELECT game_id::text FROM webhook_outbox o
			WHERE pg_try_advisory_xact_lock(hashtextextended('webhook_outbox:' || o.game_id::text, 0))
			ORDER BY id LIMIT 1`).Scan(&b.GameID)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		found = true
		var ids []int64
		rows, err := tx.Query(ctx, `SELECT id, seq FROM webhook_outbox WHERE game_id = $1 ORDER BY id LIMIT $2`, b.GameID, fanOutRows)
		if err != nil {
			return err
		}
		for rows.Next() {
			var id, seq int64
			if err := rows.Scan(&id, &seq); err != nil {
				return err
			}
			ids, b.Seqs = append(ids, id), append(b.Seqs, seq)
		}
		if err := rows.Err(); err != nil {
			return err
		}
		rows, err = tx.Query(ctx, `SELECT `+webhookColumns+` FROM webhook_subscriptions s WHERE s.disabled_at IS NULL
			AND (s.subject_game_id = $1 OR s.scope = 'service' OR s.classroom_id = (SELECT classroom_id FROM games WHERE id = $1))
			ORDER BY s.created_at, s.id`, b.GameID)
		if err != nil {
			return err
		}
		if b.Subscriptions, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (play.Webhook, error) { return scanWebhook(r) }); err != nil {
			return err
		}
		deliveries, err := fn(b)
		if err != nil {
			return err
		}
		batch := &pgx.Batch{}
		for _, d := range deliveries {
			batch.Queue(`INSERT INTO webhook_deliveries (webhook_id, subscription_id, game_id, type, payload, next_attempt_at, created_at)
				VALUES ($1, $2, $3, $4, $5, $6, $6)`, d.WebhookID, d.SubscriptionID, d.GameID, d.Type, d.Payload, now)
		}
		batch.Queue(`DELETE FROM webhook_outbox WHERE game_id = $1 AND id = ANY($2)`, b.GameID, ids)
		return tx.SendBatch(ctx, batch).Close()
	})
	return found, err
}

// claimSQL leases the due deliveries that head their subscription's queue for their game: the
// oldest pending delivery of each (subscription, game), if it is due and no lease on it runs. The
// conditions are on the locked row itself, so that Postgres checks them again on the row as
// another worker's lease, committed meanwhile, left it.
const claimSQL = `WITH heads AS (
		SELECT DISTINCT ON (subscription_id, game_id) game_id, id
		FROM webhook_deliveries ORDER BY subscription_id, game_id, id
	), picked AS (
		SELECT d.game_id, d.id FROM webhook_deliveries d JOIN heads h ON h.game_id = d.game_id AND h.id = d.id
		WHERE d.next_attempt_at <= $1 AND (d.leased_until IS NULL OR d.leased_until <= $1)
		ORDER BY d.next_attempt_at, d.id LIMIT $3
		FOR UPDATE OF d SKIP LOCKED
	)
	UPDATE webhook_deliveries d SET leased_until = $2, attempts = d.attempts + 1
	FROM picked, webhook_subscriptions s
	WHERE d.game_id = picked.game_id AND d.id = picked.id AND s.id = d.subscription_id AND s.disabled_at IS NULL
	RETURNING d.id, d.webhook_id, d.subscription_id::text, d.game_id::text, d.type, d.payload, d.attempts, d.created_at, s.url, s.secret`

func (s *Games) ClaimDeliveries(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]play.Delivery, error) {
	rows, err := s.db.Pool.Query(ctx, claimSQL, now, now.Add(lease), limit)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (play.Delivery, error) {
		var d play.Delivery
		err := r.Scan(&d.ID, &d.WebhookID, &d.SubscriptionID, &d.GameID, &d.Type, &d.Payload, &d.Attempts, &d.CreatedAt, &d.URL, &d.Secret)
		return d, err
	})
}

func (s *Games) DeliveryDone(ctx context.Context, d *play.Delivery, now time.Time, o play.DeliveryOutcome) error {
	b := &pgx.Batch{}
	switch {
	case o.Delivered:
		b.Queue(`DELETE FROM webhook_deliveries WHERE game_id = $1 AND id = $2`, d.GameID, d.ID)
		b.Queue(`UPDATE webhook_subscriptions SET failures = 0, last_attempt_at = $2, last_success_at = $2 WHERE id = $1`, d.SubscriptionID, now)
	case o.DisableReason != "":
		b.Queue(`DELETE FROM webhook_deliveries WHERE subscription_id = $1`, d.SubscriptionID)
		b.Queue(`UPDATE webhook_subscriptions SET failures = failures + 1, last_attempt_at = $2, last_error = $3,
			disabled_at = coalesce(disabled_at, $2), disabled_reason = coalesce(disabled_reason, $4) WHERE id = $1`,
			d.SubscriptionID, now, o.Error, o.DisableReason)
	default:
		b.Queue(`UPDATE webhook_deliveries SET leased_until = NULL, next_attempt_at = $3 WHERE game_id = $1 AND id = $2`, d.GameID, d.ID, o.RetryAt)
		b.Queue(`UPDATE webhook_subscriptions SET failures = failures + 1, last_attempt_at = $2, last_error = $3 WHERE id = $1`,
			d.SubscriptionID, now, o.Error)
		if o.Backlog > 0 {
			b.Queue(backlogSQL, d.SubscriptionID, now, o.Backlog, o.BacklogReason)
		}
	}
	return s.db.inTx(ctx, func(tx pgx.Tx) error { return tx.SendBatch(ctx, b).Close() })
}

// backlogSQL disables a subscription with more than $3 deliveries pending, and drops them; it
// counts at most $3+1 of them.
const backlogSQL = `WITH behind AS (
		UPDATE webhook_subscriptions SET disabled_at = $2, disabled_reason = $4
		WHERE id = $1 AND disabled_at IS NULL
			AND (SELECT count(*) FROM (SELECT FROM webhook_deliveries WHERE subscription_id = $1 LIMIT $3 + 1) pending) > $3
		RETURNING id)
	DELETE FROM webhook_deliveries WHERE subscription_id IN (SELECT id FROM behind)`

func (s *Games) NextWebhookDue(ctx context.Context) (*time.Time, error) {
	var at *time.Time
	// Only the head of each queue can be sent next: a delivery behind one that waits, waits too.
	err := s.db.Pool.QueryRow(ctx, `SELECT min(greatest(next_attempt_at, coalesce(leased_until, next_attempt_at))) FROM (
			SELECT DISTINCT ON (subscription_id, game_id) next_attempt_at, leased_until
			FROM webhook_deliveries ORDER BY subscription_id, game_id, id) heads`).Scan(&at)
	return at, err
}
