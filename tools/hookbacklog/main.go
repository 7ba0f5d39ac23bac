// Command hookbacklog fills a database with an idle backlog of webhook deliveries (issue 39): -n
// (50,000) pending deliveries of -subs service-wide subscriptions whose receiver refuses
// connections, 10 games each, each queue's head to be tried again in an hour and the rest waiting
// behind it, as a backlog stands once games that queued it have stopped. With -time it then times
// the sender's claim and next-due search at that backlog (their median of 50 calls), through the
// store's own code. scripts/webhooks.sh backlog runs it, then measures what the idle backlog costs
// Postgres.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"slices"
	"time"

	"primegames/play"
	"primegames/repo"
)

func main() {
	url := flag.String("db", "", "the database (DATABASE_URL)")
	n := flag.Int("n", 50_000, "pending deliveries")
	subs := flag.Int("subs", 500, "subscriptions")
	timed := flag.Bool("time", false, "time the claim and the next-due search at the backlog")
	heads := flag.Bool("heads", true, "deliveries behind their queue's head wait at 'infinity' (migration 00032); false for a server before it")
	flag.Parse()
	ctx := context.Background()
	db, err := repo.Open(ctx, *url, repo.PoolOptions{MaxConns: 2})
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	behind := "'infinity'::timestamptz"
	if !*heads {
		behind = "now()"
	}
	perQueue := max(*n / *subs / 10, 1)
	for _, sql := range []string{
		fmt.Sprintf(`INSERT INTO webhook_subscriptions (owner_key, owner_kind, scope, url, secret, events, created_at, failures, last_error)
			SELECT 'backlog', 'admin', 'service', 'http://127.0.0.1:9/hook' || i, 'k', '{}', now(), 3, 'the receiver refused the connection'
			FROM generate_series(1, %d) i`, *subs),
		fmt.Sprintf(`INSERT INTO webhook_deliveries (webhook_id, subscription_id, game_id, type, payload, attempts, next_attempt_at, created_at)
			SELECT 'msg_' || s.id || '_' || g || '_' || k, s.id, md5(g::text)::uuid, 'entry', '{"type":"entry"}', CASE WHEN k = 1 THEN 3 ELSE 0 END,
				CASE WHEN k = 1 THEN now() + interval '1 hour' ELSE %s END, now()
			FROM webhook_subscriptions s, generate_series(1, 10) g, generate_series(1, %d) k WHERE s.owner_key = 'backlog'`, behind, perQueue),
		`ANALYZE webhook_deliveries`,
	} {
		if _, err := db.Pool.Exec(ctx, sql); err != nil {
			log.Fatalf("%s: %v", sql, err)
		}
	}
	var pending int
	if err := db.Pool.QueryRow(ctx, `SELECT count(*) FROM webhook_deliveries`).Scan(&pending); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("backlog: %d pending deliveries of %d subscriptions, none due for an hour\n", pending, *subs)
	if !*timed {
		return
	}
	store := db.Games()
	claim := median(func() error {
		_, err := store.ClaimDeliveries(ctx, time.Now(), time.Minute, play.DeliveryClaim{Limit: 256, Failing: 128, PerSubscription: play.DeliveriesPerSubscription})
		return err
	})
	next := median(func() error { _, err := store.NextWebhookDue(ctx); return err })
	fmt.Printf("at the backlog: claim %s, next-due search %s (median of 50 calls)\n", claim, next)
}

func median(call func() error) time.Duration {
	var times []time.Duration
	for range 50 {
		start := time.Now()
		if err := call(); err != nil {
			log.Fatal(err)
		}
		times = append(times, time.Since(start))
	}
	slices.Sort(times)
	return times[len(times)/2].Round(10 * time.Microsecond)
}
