package repo_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"primegames/play"
	"primegames/repo"
	"primegames/repo/repotest"
)

// At a backlog of 50,000 deliveries for receivers that failed (each queue's head due in an hour,
// the rest behind it, a few being sent), claiming and finding the next due time read
// webhook_deliveries through its indexes, never from end to end, with the values of a call and
// with a generic plan alike: an idle backlog costs Postgres next to nothing.
func TestWebhookClaimAndNextDueUseIndexesAtABacklog(t *testing.T) {
	t.Parallel()
	db := repotest.NewDB(t)
	ctx := context.Background()
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	for _, sql := range []string{
		`INSERT INTO webhook_subscriptions (owner_key, owner_kind, scope, url, secret, events, created_at, failures)
			SELECT 'admin', 'admin', 'service', 'https://hooks.example.com/' || i, 'k', '{}', $1, 3 FROM generate_series(1, 500) i`,
		// 500 subscriptions × 10 games × 10 deliveries: the heads due in an hour, the others behind.
		`INSERT INTO webhook_deliveries (webhook_id, subscription_id, game_id, type, payload, next_attempt_at, created_at)
			SELECT 'msg_' || s.id || g || n, s.id, md5(g::text)::uuid, 'game.entry', '{}',
				CASE WHEN n = 1 THEN $1::timestamptz + interval '1 hour' ELSE 'infinity'::timestamptz END, $1
			FROM webhook_subscriptions s, generate_series(1, 10) g, generate_series(1, 10) n`,
		`UPDATE webhook_deliveries SET leased_until = $1::timestamptz + interval '1 minute', next_attempt_at = $1::timestamptz + interval '1 minute'
			WHERE id IN (SELECT min(id) FROM webhook_deliveries GROUP BY subscription_id LIMIT 20)`,
		`ANALYZE webhook_deliveries`,
		`ANALYZE webhook_subscriptions`,
	} {
		args := []any{now}
		if strings.HasPrefix(sql, "ANALYZE") {
			args = nil
		}
		if _, err := db.Pool.Exec(ctx, sql, args...); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	var n int
	if err := db.Pool.QueryRow(ctx, `SELECT count(*) FROM webhook_deliveries`).Scan(&n); err != nil || n != 50_000 {
		t.Fatalf("backlog: %d, %v", n, err)
	}
	checkPlans := func(at time.Time) {
		t.Helper()
		args := map[string][]any{
			"claim":    {at, at.Add(time.Minute), 256, 128, 528, 2},
			"next due": nil,
		}
		for name, sql := range repo.WebhookQueueSQL {
			for _, mode := range []string{"auto", "force_generic_plan"} {
				if scanned := seqScanned(ctx, t, db, mode, sql, args[name]); scanned != "" {
					t.Errorf("%s (plan_cache_mode %s) reads webhook_deliveries from end to end:\n%s", name, mode, scanned)
				}
			}
		}
	}
	checkPlans(now)
	claimed, err := db.Games().ClaimDeliveries(ctx, now, time.Minute, play.DeliveryClaim{Limit: 256, Failing: 128, PerSubscription: 2})
	if err != nil || len(claimed) != 0 {
		t.Fatalf("claimed %d at an idle backlog: %v", len(claimed), err)
	}
	due, err := db.Games().NextWebhookDue(ctx)
	if err != nil || due == nil || !due.Equal(now.Add(time.Minute)) {
		t.Fatalf("next due %v, %v; want the first lease's end", due, err)
	}

	// An hour later every head is due (5,000 of them, a retry wave): still through the indexes; a
	// claim takes at most 2 of a subscription, and the next claim those of other subscriptions.
	later := now.Add(time.Hour + time.Second)
	if _, err := db.Pool.Exec(ctx, `ANALYZE webhook_deliveries`); err != nil {
		t.Fatal(err)
	}
	checkPlans(later)
	claimed, err = db.Games().ClaimDeliveries(ctx, later, time.Minute, play.DeliveryClaim{Limit: 256, Failing: 128, PerSubscription: 2})
	if err != nil || len(claimed) == 0 || len(claimed) > 128 {
		t.Fatalf("claimed %d of the due heads of failing subscriptions (at most 128): %v", len(claimed), err)
	}
	perSubscription := map[string]int{}
	for _, d := range claimed {
		if perSubscription[d.SubscriptionID]++; perSubscription[d.SubscriptionID] > 2 {
			t.Fatalf("subscription %s has %d in flight", d.SubscriptionID, perSubscription[d.SubscriptionID])
		}
	}
	next, err := db.Games().ClaimDeliveries(ctx, later, time.Minute, play.DeliveryClaim{Limit: 256, Failing: 128, PerSubscription: 2})
	if err != nil || len(next) == 0 {
		t.Fatalf("the next claim: %d, %v", len(next), err)
	}
	for _, d := range next {
		if perSubscription[d.SubscriptionID] == 2 {
			t.Fatalf("subscription %s, at its cap, claimed again", d.SubscriptionID)
		}
	}
}

// seqScanned explains sql with args under plan_cache_mode mode and returns the plan when it scans
// webhook_deliveries sequentially, "" otherwise.
func seqScanned(ctx context.Context, t *testing.T, db *repo.DB, mode, sql string, args []any) string {
	t.Helper()
	return seqScannedTable(ctx, t, db, mode, sql, args, "webhook_deliveries")
}

// seqScannedTable is the plan of sql (with args, under plan_cache_mode mode) when it reads table
// from end to end, "" when it does not.
func seqScannedTable(ctx context.Context, t *testing.T, db *repo.DB, mode, sql string, args []any, table string) string {
	t.Helper()
	tx, err := db.Pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	if _, err := tx.Exec(ctx, "SET LOCAL plan_cache_mode = "+mode); err != nil {
		t.Fatal(err)
	}
	var raw []byte
	if err := tx.QueryRow(ctx, "EXPLAIN (FORMAT JSON) "+sql, args...).Scan(&raw); err != nil {
		t.Fatalf("explain: %v", err)
	}
	var plans []struct{ Plan planNode }
	if err := json.Unmarshal(raw, &plans); err != nil {
		t.Fatal(err)
	}
	for _, p := range plans {
		if p.Plan.scans(table) {
			return string(raw)
		}
	}
	return ""
}

type planNode struct {
	NodeType string     `json:"Node Type"`
	Relation string     `json:"Relation Name"`
	Plans    []planNode `json:"Plans"`
}

func (n planNode) scans(table string) bool {
	if n.NodeType == "Seq Scan" && n.Relation == table {
		return true
	}
	for _, c := range n.Plans {
		if c.scans(table) {
			return true
		}
	}
	return false
}
