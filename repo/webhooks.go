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
			batch.Queue(insertDeliverySQL, d.WebhookID, d.SubscriptionID, d.GameID, d.Type, d.Payload, now)
		}
		batch.Queue(`DELETE FROM webhook_outbox WHERE game_id = $1 AND id = ANY($2)`, b.GameID, ids)
		return tx.SendBatch(ctx, batch).Close()
	})
	return found, err
}

// insertDeliverySQL queues a delivery: due at once ($6) when it heads its queue, else behind the
// head ('infinity') until the one before it goes (the trigger of migration 00032). The game's
// fan-out lock, which the caller holds, keeps the head from going unseen meanwhile.
const insertDeliverySQL = `INSERT INTO webhook_deliveries (webhook_id, subscription_id, game_id, type, payload, next_attempt_at, created_at)
	VALUES ($1, $2, $3, $4, $5, CASE WHEN EXISTS (SELECT FROM webhook_deliveries q WHERE q.subscription_id = $2 AND q.game_id = $3)
		THEN 'infinity'::timestamptz ELSE $6 END, $6)`

// claimSQL leases due deliveries that head their queue (the oldest pending delivery of a
// subscription and game, so that a game's events go out in order), fairly across subscriptions:
// none of a subscription that already has $6 in flight ($6 the cap per subscription), at most $6
// of any, each subscription's first before any's second, those of healthy subscriptions before
// those of subscriptions whose last attempts failed, and of those at most $4. A claimed delivery is
// due again when its lease runs out.
//
// It reads the first $5 due deliveries in the order of an index (next_attempt_at, id), where only
// heads are due (those behind wait at 'infinity'), leaving out the subscriptions at their cap, and
// counts each subscription's requests in flight from the partial index of leased rows. A delivery
// found due that is not its queue's head (made due by hand) is put back behind it. The rows are
// locked as they are read (SKIP LOCKED), so that two workers take different ones, and the due
// condition is checked again on the row updated.
const claimSQL = `WITH busy AS (
		SELECT subscription_id, count(*) AS n FROM webhook_deliveries
		WHERE leased_until > $1 GROUP BY subscription_id
	), candidates AS (
		SELECT d.game_id, d.id, d.subscription_id, d.next_attempt_at FROM webhook_deliveries d
		WHERE d.next_attempt_at <= $1
			AND d.subscription_id <> ALL (ARRAY(SELECT subscription_id FROM busy WHERE n >= $6))
		ORDER BY d.next_attempt_at, d.id
		LIMIT $5
		FOR UPDATE OF d SKIP LOCKED
	), heads AS (
		SELECT c.*, c.id = (SELECT min(o.id) FROM webhook_deliveries o
				WHERE o.subscription_id = c.subscription_id AND o.game_id = c.game_id) AS head,
			(SELECT count(*) FROM webhook_deliveries l WHERE l.subscription_id = c.subscription_id AND l.leased_until > $1) AS in_flight
		FROM candidates c
	), behind AS (
		UPDATE webhook_deliveries d SET next_attempt_at = 'infinity'
		FROM heads h WHERE NOT h.head AND d.game_id = h.game_id AND d.id = h.id
	), ranked AS (
		SELECT h.game_id, h.id, h.next_attempt_at, s.failures > 0 AS failing,
			row_number() OVER (PARTITION BY h.subscription_id ORDER BY h.next_attempt_at, h.id) + h.in_flight AS place
		FROM heads h JOIN webhook_subscriptions s ON s.id = h.subscription_id AND s.disabled_at IS NULL
		WHERE h.head
	), allowed AS (
		SELECT game_id, id, next_attempt_at, failing, place,
			row_number() OVER (PARTITION BY failing ORDER BY place, next_attempt_at, id) AS nth
		FROM ranked WHERE place <= $6
	), picked AS (
		SELECT game_id, id, failing FROM allowed WHERE NOT failing OR nth <= $4
		ORDER BY failing, place, next_attempt_at, id LIMIT $3
	)
	UPDATE webhook_deliveries d SET leased_until = $2, next_attempt_at = $2, attempts = d.attempts + 1
	FROM picked, webhook_subscriptions s
	WHERE d.game_id = picked.game_id AND d.id = picked.id AND d.next_attempt_at <= $1 AND s.id = d.subscription_id
	RETURNING d.id, d.webhook_id, d.subscription_id::text, d.game_id::text, d.type, d.payload, d.attempts, d.created_at, s.url, s.secret, picked.failing`

// claimWindow is how many due deliveries a claim of limit looks at, to choose among them fairly.
func claimWindow(c play.DeliveryClaim) int { return 2*c.Limit + 16 }

func (s *Games) ClaimDeliveries(ctx context.Context, now time.Time, lease time.Duration, c play.DeliveryClaim) ([]play.Delivery, error) {
	if c.Limit <= 0 {
		return nil, nil
	}
	c.PerSubscription = max(c.PerSubscription, 1)
	rows, err := s.db.Pool.Query(ctx, claimSQL, now, now.Add(lease), c.Limit, max(c.Failing, 0), claimWindow(c), c.PerSubscription)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (play.Delivery, error) {
		var d play.Delivery
		err := r.Scan(&d.ID, &d.WebhookID, &d.SubscriptionID, &d.GameID, &d.Type, &d.Payload, &d.Attempts, &d.CreatedAt, &d.URL, &d.Secret, &d.Failing)
		return d, err
	})
}

func (s *Games) DeliveryDone(ctx context.Context, d *play.Delivery, now time.Time, o play.DeliveryOutcome) error {
	b := &pgx.Batch{}
	switch {
	case o.Delivered:
		// The next delivery of the queue becomes its head (a trigger, migration 00032).
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

// nextDueSQL is the earliest time a head of a queue is due or its lease runs out: only heads have
// a due time before 'infinity'.
const nextDueSQL = `SELECT min(next_attempt_at) FROM webhook_deliveries WHERE next_attempt_at < 'infinity'`

func (s *Games) NextWebhookDue(ctx context.Context) (*time.Time, error) {
	var at *time.Time
	err := s.db.Pool.QueryRow(ctx, nextDueSQL).Scan(&at)
	return at, err
}
