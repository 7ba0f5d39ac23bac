package repo

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"primegames/play"
)

// Webhooks: subscriptions, the outbox the game transactions write (queueOutbox) and the deliveries
// (see migrations/00022_webhooks.sql).
//
// Lock order. A transaction that waits for a lock while it holds another takes them in this order,
// so that no two can wait on each other in a cycle:
//
//  1. the fan-out locks of games (gameLockSQL, which the trigger of migration 00032 takes too when a
//     queue's head is deleted), several of them in ascending game id (subscriptionGamesLockSQL);
//  2. subscription rows: a fan-out's inserts hold KEY SHARE on theirs, updates of a subscription
//     NO KEY UPDATE (ownedWebhookSQL reads with it too), deletions FOR UPDATE; several of them in
//     ascending id (a fan-out's inserts and its counts of dropped events, a rematch's follows,
//     deletions of ended ones);
//  3. delivery rows.
//
// Who takes what:
//   - FanOut: its game's lock, without waiting (pg_try_advisory_xact_lock), then subscriptions
//     (inserts, dropped counts, ended ones deleted), then, through the cascade, those deliveries.
//   - ClaimDeliveries: deliveries only, skipping the locked ones: it never waits.
//   - DeliveryDone: delivered, the game's lock, the subscription, the delivery; disabled, or trimmed
//     to the backlog bound, the locks of all the subscription's games in order, the subscription,
//     its deliveries; retried, the subscription, then the delivery.
//   - WebhookStanding: ended, the subscription deleted, its deliveries through the cascade; dropped
//     (suspended or disabled), the locks of its games in order, then its deliveries.
//   - DeleteWebhook and the listing's deletion of ended ones: the subscriptions, their deliveries
//     through the cascade, and no game's lock (the trigger does nothing for a delivery whose
//     subscription is being deleted).
//   - ReviveWebhook, RotateWebhookSecret: the subscription, then (retry now) its deliveries.
//   - the rematch's follow (gameTx.FollowWebhooks): the game rows its transaction holds, then the
//     subscriptions followed, in ascending id; it takes no game's fan-out lock nor any delivery.
//
// What is left to the retry of inTx and inGameTx (a deadlock fails one transaction, which runs
// again, nothing of it committed): a game whose first delivery of a subscription commits between
// the locking of the subscription's games and the deletion of its deliveries, or a backlog that
// passes its bound between the two (the trigger then takes a game's lock out of order); a
// subscription that two fan-outs read in different standings (one inserts for it, the other
// deletes it as ended); a fan-out's inserts and its dropped counts, each in ascending id but one
// after the other; and a classroom deleted by hand (the service deletes none), whose cascade
// deletes its subscriptions in no particular order.

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

// standingSQL is a subscription's standing (active, suspended, disabled or ended) and, for a seat's,
// the seat its holder holds now, as a lateral subquery of the row s: the authority is read from
// the owner's rows as they are now (the classroom's teacher token, the student's token and whether
// they were removed, the seat's token or student, the game's creator token). A subscription followed
// to its game's rematch has ended once nothing of its game waits for it.
const standingSQL = `SELECT CASE
		WHEN NOT (a.present AND (s.seat IS NULL OR a.seat IS NOT NULL)) THEN 'ended'
		WHEN s.followed_at IS NOT NULL AND NOT EXISTS (SELECT FROM webhook_deliveries d WHERE d.subscription_id = s.id)
			AND NOT EXISTS (SELECT FROM webhook_outbox o WHERE o.game_id = s.subject_game_id) THEN 'ended'
		WHEN s.disabled_at IS NOT NULL THEN 'disabled'
		WHEN NOT a.current THEN 'suspended'
		ELSE 'active' END AS standing, a.seat
	FROM (SELECT
		(SELECT x.seat FROM seats x WHERE s.seat IS NOT NULL AND x.game_id = s.subject_game_id
			AND (x.token_hash = s.token_hash OR x.student_id = s.owner_student_id) LIMIT 1) AS seat,
		CASE s.owner_kind
			WHEN 'admin' THEN true
			WHEN 'teacher' THEN EXISTS (SELECT FROM classrooms c WHERE c.id = s.owner_classroom_id)
			WHEN 'student' THEN EXISTS (SELECT FROM students u WHERE u.id = s.owner_student_id AND u.removed_at IS NULL)
			ELSE s.seat IS NOT NULL OR EXISTS (SELECT FROM games g WHERE g.id = s.subject_game_id AND g.creator_token_hash = s.token_hash)
		END AS present,
		CASE s.owner_kind
			WHEN 'teacher' THEN EXISTS (SELECT FROM classrooms c WHERE c.id = s.owner_classroom_id AND c.teacher_token_hash = s.token_hash)
			WHEN 'student' THEN EXISTS (SELECT FROM students u WHERE u.id = s.owner_student_id AND u.token_hash = s.token_hash)
				OR EXISTS (SELECT FROM student_sign_ins i WHERE i.student_id = s.owner_student_id AND i.token_hash = s.token_hash)
			ELSE true
		END AS current) a`

// webhookColumns are a subscription's columns as scanWebhook reads them, from webhook_subscriptions
// s joined laterally with standingSQL as st.
const webhookColumns = `s.id::text, s.owner_key, s.owner_kind, coalesce(s.owner_classroom_id::text, ''), coalesce(s.owner_student_id::text, ''),
	s.token_hash, s.scope, s.subject_game_id::text, s.classroom_id::text, coalesce(st.seat, s.seat), s.url, s.secret, s.events, s.created_at,
	s.failures, s.last_attempt_at, s.last_success_at, s.last_error, s.disabled_at, s.disabled_reason, s.dropped, s.last_dropped_at, st.standing`

// fromWebhooks is the FROM clause webhookColumns read.
const fromWebhooks = ` FROM webhook_subscriptions s CROSS JOIN LATERAL (` + standingSQL + `) st`

func scanWebhook(row pgx.Row, extra ...any) (play.Webhook, error) {
	var w play.Webhook
	var seat *int32
	err := row.Scan(append([]any{&w.ID, &w.Owner.Key, &w.Owner.Kind, &w.Owner.ClassroomID, &w.Owner.StudentID, &w.Owner.TokenHash,
		&w.Scope, &w.GameID, &w.ClassroomID, &seat, &w.URL, &w.Secret, &w.Events, &w.CreatedAt,
		&w.Failures, &w.LastAttemptAt, &w.LastSuccessAt, &w.LastError, &w.DisabledAt, &w.DisabledReason, &w.Dropped, &w.LastDroppedAt, &w.Status}, extra...)...)
	if seat != nil {
		n := int(*seat)
		w.Seat = &n
	}
	return w, err
}

func collectWebhooks(rows pgx.Rows, err error) ([]play.Webhook, error) {
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (play.Webhook, error) { return scanWebhook(r) })
}

// gameLockSQL takes the fan-out lock of a game ($1): a game is fanned out by one worker at a time,
// and a queue's head deleted (migration 00032) waits for the fan-out that may add to its queue.
const gameLockSQL = `SELECT pg_advisory_xact_lock(hashtextextended('webhook_outbox:' || $1::text, 0))`

// subscriptionGamesLockSQL takes the fan-out locks of the games where a subscription ($1) has
// deliveries, in ascending game id, before its deliveries in several games are deleted: two such
// deletions, or one and a fan-out, cannot then wait on each other.
const subscriptionGamesLockSQL = `SELECT count(pg_advisory_xact_lock(hashtextextended('webhook_outbox:' || g.game_id::text, 0)))
	FROM (SELECT DISTINCT game_id FROM webhook_deliveries WHERE subscription_id = $1 ORDER BY game_id) g`

// webhookLock takes a transaction's lock on a quota's name, so that the creations it counts wait
// for each other.
const webhookLock = `SELECT pg_advisory_xact_lock(hashtextextended('webhooks:' || $1::text, 0))`

func (s *Games) InsertWebhook(ctx context.Context, w *play.Webhook, quotas play.WebhookQuotas) error {
	return s.db.inTx(ctx, func(tx pgx.Tx) error {
		// The owner's lock first, then the address's: two creations cannot wait on each other.
		if _, err := tx.Exec(ctx, webhookLock, "owner:"+w.Owner.Key); err != nil {
			return err
		}
		var held int
		if err := tx.QueryRow(ctx, `SELECT count(*)`+fromWebhooks+` WHERE s.owner_key = $1 AND st.standing <> 'ended'`, w.Owner.Key).Scan(&held); err != nil {
			return err
		}
		if quotas.Owner > 0 && held >= quotas.Owner {
			return &play.WebhookQuotaError{Scope: "owner", Limit: quotas.Owner, Count: held}
		}
		if w.Address != "" && quotas.Address > 0 {
			if _, err := tx.Exec(ctx, webhookLock, "address:"+w.Address); err != nil {
				return err
			}
			if err := tx.QueryRow(ctx, `SELECT count(*)`+fromWebhooks+` WHERE s.address_key = `+keyed("$1")+` AND st.standing <> 'ended'`,
				w.Address).Scan(&held); err != nil {
				return err
			}
			if held >= quotas.Address {
				return &play.WebhookQuotaError{Scope: "address", Limit: quotas.Address, Count: held}
			}
		}
		o := w.Owner
		_, err := tx.Exec(ctx, `INSERT INTO webhook_subscriptions (id, owner_key, owner_kind, owner_classroom_id, owner_student_id, token_hash,
				address_key, scope, subject_game_id, classroom_id, seat, url, secret, events, created_at)
			VALUES ($1, $2, $3, $4, $5, $6, CASE WHEN $7::text <> '' THEN `+keyed("$7")+` END, $8, $9, $10, $11, $12, $13, $14, $15)`,
			w.ID, o.Key, o.Kind, nullIfEmpty(o.ClassroomID), nullIfEmpty(o.StudentID), o.TokenHash,
			w.Address, w.Scope, w.GameID, w.ClassroomID, w.Seat, w.URL, w.Secret, w.Events, w.CreatedAt)
		return err
	})
}

// deleteEndedSQL deletes the owner's ended subscriptions (their holder's authority is gone for
// good), with their deliveries, locking them in ascending id.
const deleteEndedSQL = `DELETE FROM webhook_subscriptions WHERE id IN (
	SELECT s.id` + fromWebhooks + ` WHERE s.owner_key = $1 AND st.standing = 'ended' ORDER BY s.id FOR UPDATE OF s)`

func (s *Games) Webhooks(ctx context.Context, ownerKey string) ([]play.Webhook, error) {
	if err := s.db.inTx(ctx, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, deleteEndedSQL, ownerKey)
		return err
	}); err != nil {
		return nil, err
	}
	return collectWebhooks(s.db.Pool.Query(ctx, `SELECT `+webhookColumns+fromWebhooks+` WHERE s.owner_key = $1 AND st.standing <> 'ended'
		ORDER BY s.created_at, s.id`, ownerKey))
}

// DeleteWebhook deletes the subscription with its deliveries (the foreign key's cascade), in a
// transaction of its own so that inTx runs it again should Postgres end it to break a deadlock.
func (s *Games) DeleteWebhook(ctx context.Context, ownerKey string, id string) error {
	return s.db.inTx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `DELETE FROM webhook_subscriptions WHERE id::text = $2 AND owner_key = $1`, ownerKey, id)
		if err == nil && tag.RowsAffected() == 0 {
			return play.ErrNotFound
		}
		return err
	})
}

// ownedWebhookSQL reads one of the owner's subscriptions that has not ended ($1 owner, $2 id),
// locking it for an update of its columns (which leaves a fan-out free to queue for it).
const ownedWebhookSQL = `SELECT ` + webhookColumns + fromWebhooks + ` WHERE s.id::text = $2 AND s.owner_key = $1 AND st.standing <> 'ended' FOR NO KEY UPDATE OF s`

func (s *Games) ReviveWebhook(ctx context.Context, ownerKey string, id string, how play.WebhookRevival) (*play.Webhook, error) {
	var w play.Webhook
	err := s.db.inTx(ctx, func(tx pgx.Tx) error {
		var err error
		if w, err = scanWebhook(tx.QueryRow(ctx, ownedWebhookSQL, ownerKey, id)); err != nil {
			return notFound(err)
		}
		b := &pgx.Batch{}
		if how.Resume && w.Status == play.WebhookSuspended {
			b.Queue(`UPDATE webhook_subscriptions SET token_hash = $2 WHERE id = $1`, w.ID, how.TokenHash)
		}
		if how.Enable && w.DisabledAt != nil {
			b.Queue(`UPDATE webhook_subscriptions SET disabled_at = NULL, disabled_reason = NULL, failures = 0 WHERE id = $1`, w.ID)
		}
		if how.DueNow {
			// Only the heads of the subscription's queues: those behind them wait at 'infinity'
			// until their head goes (migration 00032). The senders of every instance are woken.
			b.Queue(`UPDATE webhook_deliveries SET next_attempt_at = $2
				WHERE subscription_id = $1 AND next_attempt_at > $2 AND next_attempt_at < 'infinity'
					AND (leased_until IS NULL OR leased_until <= $2)`, w.ID, how.Now)
			b.Queue(`SELECT pg_notify('webhook_outbox', '')`)
		}
		if b.Len() == 0 {
			return nil
		}
		if err := tx.SendBatch(ctx, b).Close(); err != nil {
			return err
		}
		w, err = scanWebhook(tx.QueryRow(ctx, ownedWebhookSQL, ownerKey, id))
		return err
	})
	if err != nil {
		return nil, err
	}
	return &w, nil
}

func (s *Games) RotateWebhookSecret(ctx context.Context, ownerKey string, id string, reseal func(sealed []byte) ([]byte, error)) (*play.Webhook, error) {
	var w play.Webhook
	err := s.db.inTx(ctx, func(tx pgx.Tx) error {
		var err error
		if w, err = scanWebhook(tx.QueryRow(ctx, ownedWebhookSQL, ownerKey, id)); err != nil {
			return notFound(err)
		}
		if w.Secret, err = reseal(w.Secret); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `UPDATE webhook_subscriptions SET secret = $2 WHERE id = $1`, w.ID, w.Secret)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &w, nil
}

func (s *Games) FollowableWebhooks(ctx context.Context, gameID string) ([]play.Webhook, error) {
	return collectWebhooks(s.db.Pool.Query(ctx, `SELECT `+webhookColumns+fromWebhooks+`
		WHERE s.subject_game_id = $1 AND s.followed_at IS NULL AND st.standing = 'active' ORDER BY s.created_at, s.id`, gameID))
}

// FollowWebhooks stores the copies of a game's subscriptions for its rematch and marks the ones
// copied (FollowedFrom) followed, in the rematch's transaction: those in ascending id (the lock
// order at the top of this file).
func (t *gameTx) FollowWebhooks(ctx context.Context, copies []play.Webhook) error {
	for _, w := range copies {
		if err := t.queue(ctx, `INSERT INTO webhook_subscriptions (id, owner_key, owner_kind, owner_classroom_id, owner_student_id, token_hash,
				address_key, scope, subject_game_id, seat, url, secret, events, created_at)
			SELECT $1, owner_key, owner_kind, owner_classroom_id, owner_student_id, token_hash, address_key, scope, $3, seat, url, $4, events, $5
			FROM webhook_subscriptions WHERE id = $2`, w.ID, w.FollowedFrom, w.GameID, w.Secret, w.CreatedAt); err != nil {
			return err
		}
	}
	followed := slices.Clone(copies)
	slices.SortFunc(followed, func(a, b play.Webhook) int { return compareUUIDs(a.FollowedFrom, b.FollowedFrom) })
	for _, w := range followed {
		if err := t.queue(ctx, `UPDATE webhook_subscriptions SET followed_at = $2 WHERE id = $1`, w.FollowedFrom, w.CreatedAt); err != nil {
			return err
		}
	}
	return nil
}

// WebhookStanding reads the subscription's standing; an ended one goes, with its deliveries, and
// a suspended or disabled one's deliveries go, each again in the standing read in its transaction.
func (s *Games) WebhookStanding(ctx context.Context, id string) (play.WebhookStatus, error) {
	var standing play.WebhookStatus
	err := s.db.Pool.QueryRow(ctx, `SELECT st.standing`+fromWebhooks+` WHERE s.id = $1::uuid`, id).Scan(&standing)
	if errors.Is(err, pgx.ErrNoRows) {
		return play.WebhookEnded, nil
	}
	if err != nil {
		return "", err
	}
	switch standing {
	case play.WebhookEnded:
		err = s.db.inTx(ctx, func(tx pgx.Tx) error {
			_, err := tx.Exec(ctx, `DELETE FROM webhook_subscriptions WHERE id IN (
				SELECT s.id`+fromWebhooks+` WHERE s.id = $1::uuid AND st.standing = 'ended' FOR UPDATE OF s)`, id)
			return err
		})
	case play.WebhookSuspended, play.WebhookDisabled:
		err = s.db.inTx(ctx, func(tx pgx.Tx) error {
			b := &pgx.Batch{}
			b.Queue(subscriptionGamesLockSQL, id)
			b.Queue(`DELETE FROM webhook_deliveries WHERE subscription_id = $1::uuid AND EXISTS (
				SELECT`+fromWebhooks+` WHERE s.id = $1::uuid AND st.standing IN ('suspended', 'disabled'))`, id)
			return tx.SendBatch(ctx, b).Close()
		})
	}
	return standing, err
}

func (s *Games) RawWebhookSecrets(ctx context.Context, limit int) (map[string][]byte, error) {
	rows, err := s.db.Pool.Query(ctx, `SELECT id::text, secret FROM webhook_subscriptions WHERE octet_length(secret) = 32 LIMIT $1`, limit)
	if err != nil {
		return nil, err
	}
	raw := map[string][]byte{}
	var id string
	var secret []byte
	_, err = pgx.ForEachRow(rows, []any{&id, &secret}, func() error {
		raw[id] = append([]byte(nil), secret...)
		return nil
	})
	return raw, err
}

func (s *Games) SealWebhookSecret(ctx context.Context, id string, raw, sealed []byte) error {
	_, err := s.db.Pool.Exec(ctx, `UPDATE webhook_subscriptions SET secret = $3 WHERE id = $1::uuid AND secret = $2`, id, raw, sealed)
	return err
}

// pendingCountBound bounds the pending deliveries a fan-out counts for a subscription or an owner:
// more than any quota of them may be (10,000).
const pendingCountBound = 10_001

func (s *Games) FanOut(ctx context.Context, now time.Time, fn func(play.OutboxBatch) (play.FanOutResult, error)) (bool, error) {
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
		// The subscriptions that may want the game's events, with their standing now and their
		// pending deliveries counted: only the active ones are handed to fn; the ended ones go.
		rows, err = tx.Query(ctx, `SELECT `+webhookColumns+`,
				(SELECT count(*) FROM (SELECT FROM webhook_deliveries d WHERE d.subscription_id = s.id LIMIT $2) p),
				(SELECT count(*) FROM (SELECT FROM webhook_deliveries d JOIN webhook_subscriptions o ON o.id = d.subscription_id
					WHERE o.owner_key = s.owner_key LIMIT $2) p)`+fromWebhooks+`
			WHERE s.disabled_at IS NULL
				AND (s.subject_game_id = $1 OR s.scope = 'service' OR s.classroom_id = coalesce((SELECT classroom_id FROM games WHERE id = $1),
					(SELECT classroom_id FROM assignments WHERE id = $1))) -- an assignment's due-soon row (assignments.go)
			ORDER BY s.created_at, s.id`, b.GameID, pendingCountBound)
		if err != nil {
			return err
		}
		var ended []string
		for rows.Next() {
			var pending, ownerPending int
			w, err := scanWebhook(rows, &pending, &ownerPending)
			if err != nil {
				rows.Close()
				return err
			}
			w.Pending, w.OwnerPending = pending, ownerPending
			switch w.Status {
			case play.WebhookActive:
				b.Subscriptions = append(b.Subscriptions, w)
			case play.WebhookEnded:
				ended = append(ended, w.ID)
			}
		}
		if err := rows.Err(); err != nil {
			return err
		}
		result, err := fn(b)
		if err != nil {
			return err
		}
		batch := &pgx.Batch{}
		// Each subscription's deliveries in the order fn gave them, the subscriptions in ascending id.
		deliveries := slices.Clone(result.Deliveries)
		slices.SortStableFunc(deliveries, func(a, b play.NewDelivery) int { return compareUUIDs(a.SubscriptionID, b.SubscriptionID) })
		for _, d := range deliveries {
			batch.Queue(insertDeliverySQL, d.WebhookID, d.SubscriptionID, d.GameID, d.Type, d.Payload, now)
		}
		dropped := make([]string, 0, len(result.Dropped))
		for id := range result.Dropped {
			dropped = append(dropped, id)
		}
		slices.SortFunc(dropped, compareUUIDs)
		for _, id := range dropped {
			batch.Queue(`UPDATE webhook_subscriptions SET dropped = dropped + $2, last_dropped_at = $3 WHERE id = $1`, id, result.Dropped[id], now)
		}
		if len(ended) > 0 {
			batch.Queue(`DELETE FROM webhook_subscriptions WHERE id IN (
				SELECT id FROM webhook_subscriptions WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE)`, ended)
		}
		batch.Queue(`DELETE FROM webhook_outbox WHERE game_id = $1 AND id = ANY($2)`, b.GameID, ids)
		return tx.SendBatch(ctx, batch).Close()
	})
	return found, err
}

// insertDeliverySQL queues a delivery: due at once ($6) when it heads its queue, else behind the
// head ('infinity') until the one before it goes (the trigger of migration 00032). The game's
// fan-out lock, which the caller holds, keeps the head from going unseen meanwhile. The
// subscription's row is locked first (KEY SHARE, as the foreign key's check would): one deleted
// meanwhile gets nothing, rather than failing the fan-out.
const insertDeliverySQL = `INSERT INTO webhook_deliveries (webhook_id, subscription_id, game_id, type, payload, next_attempt_at, created_at)
	SELECT $1, s.id, $3, $4, $5, CASE WHEN EXISTS (SELECT FROM webhook_deliveries q WHERE q.subscription_id = $2 AND q.game_id = $3)
		THEN 'infinity'::timestamptz ELSE $6 END, $6
	FROM webhook_subscriptions s WHERE s.id = $2 FOR KEY SHARE OF s`

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

// DeliveryDone records the outcome, taking its locks in the order at the top of this file.
func (s *Games) DeliveryDone(ctx context.Context, d *play.Delivery, now time.Time, o play.DeliveryOutcome) error {
	return s.db.inTx(ctx, func(tx pgx.Tx) error {
		b := &pgx.Batch{}
		switch {
		case o.Delivered:
			// The next delivery of the queue becomes its head (a trigger, migration 00032), under
			// the game's lock taken first.
			b.Queue(gameLockSQL, d.GameID)
			b.Queue(`UPDATE webhook_subscriptions SET failures = 0, last_attempt_at = $2, last_success_at = $2 WHERE id = $1`, d.SubscriptionID, now)
			b.Queue(`DELETE FROM webhook_deliveries WHERE game_id = $1 AND id = $2`, d.GameID, d.ID)
		case o.DisableReason != "":
			b.Queue(subscriptionGamesLockSQL, d.SubscriptionID)
			b.Queue(`UPDATE webhook_subscriptions SET failures = failures + 1, last_attempt_at = $2, last_error = $3,
				disabled_at = coalesce(disabled_at, $2), disabled_reason = coalesce(disabled_reason, $4) WHERE id = $1`,
				d.SubscriptionID, now, o.Error, o.DisableReason)
			b.Queue(`DELETE FROM webhook_deliveries WHERE subscription_id = $1`, d.SubscriptionID)
		default:
			if o.Backlog > 0 {
				// Over the backlog bound, the subscription's deliveries go: its games' locks first.
				b.Queue(subscriptionGamesLockSQL+` WHERE `+backlogOverSQL, d.SubscriptionID, o.Backlog)
			}
			b.Queue(`UPDATE webhook_subscriptions SET failures = failures + 1, last_attempt_at = $2, last_error = $3 WHERE id = $1`,
				d.SubscriptionID, now, o.Error)
			b.Queue(`UPDATE webhook_deliveries SET leased_until = NULL, next_attempt_at = $3 WHERE game_id = $1 AND id = $2`, d.GameID, d.ID, o.RetryAt)
			if o.Backlog > 0 {
				b.Queue(backlogSQL, d.SubscriptionID, now, o.Backlog, o.BacklogReason)
			}
		}
		return tx.SendBatch(ctx, b).Close()
	})
}

// backlogOverSQL holds when a live subscription ($1) has more than $2 deliveries pending; it
// counts at most $2+1 of them.
const backlogOverSQL = `EXISTS (SELECT FROM webhook_subscriptions WHERE id = $1 AND disabled_at IS NULL)
	AND (SELECT count(*) FROM (SELECT FROM webhook_deliveries WHERE subscription_id = $1 LIMIT $2 + 1) pending) > $2`

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

// compareUUIDs orders subscription ids as Postgres orders them as uuids: their canonical
// lower-case spellings, compared as text, sort alike.
func compareUUIDs(a, b string) int {
	return strings.Compare(strings.ToLower(a), strings.ToLower(b))
}
