// Command primegames runs the Prime games API and manages its database schema.
//
//	primegames serve                          run the HTTP API (migrates first unless MIGRATE_ON_START=false)
//	primegames dev [-dir DIR]                 run it on a local Postgres cluster kept in DIR, with demo data
//	primegames migrate up|down|status|reset   manage the schema
//	primegames health [live]                  ask the server on LISTEN_ADDR whether it is ready (or alive)
//	primegames version                        print the version
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"primegames/api"
	"primegames/domain/games"
	"primegames/outbound"
	"primegames/play"
	"primegames/repo"
)

const usage = `usage:
  primegames serve                          run the HTTP API
  primegames dev [-dir DIR]                 run the API on a local Postgres cluster kept in DIR
                                            (default .primegames-dev), seeded with a demo classroom
  primegames migrate up|down|status|reset   manage the database schema
  primegames health [live]                  exit 0 if the server on LISTEN_ADDR is ready
                                            (live: answers at all), 1 otherwise
  primegames version                        print the version
  primegames help                           print this
configuration comes from the environment; see docs/operations.md`

// errUsage marks a mistake on the command line.
var errUsage = errors.New(usage)

func main() {
	setGCDefault(os.Getenv)
	setMemoryLimitDefault(os.Getenv)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Getenv, os.Stdout)
	stop()
	switch {
	case errors.Is(err, errUsage):
		fmt.Fprintln(os.Stderr, usage)
		os.Exit(2)
	case err != nil:
		fmt.Fprintf(os.Stderr, "primegames: %s\n", oneLine(err.Error()))
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, getenv func(string) string, out io.Writer) error {
	if len(args) == 0 {
		return errUsage
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		_, err := fmt.Fprintln(out, usage)
		return err
	case "version", "-version", "--version":
		_, err := fmt.Fprintln(out, "primegames", versionString())
		return err
	}
	cfg, err := loadConfig(getenv)
	if err != nil {
		return err
	}
	switch args[0] {
	case "serve":
		if len(args) != 1 {
			return errUsage
		}
		return serve(ctx, cfg, nil)
	case "dev":
		return dev(ctx, cfg, args[1:], getenv, out)
	case "migrate":
		if len(args) != 2 {
			return errUsage
		}
		return migrate(ctx, cfg, args[1], out)
	case "health":
		return health(ctx, cfg, args[1:], out)
	default:
		return errUsage
	}
}

// serve runs the API until ctx ends. listening, when set, is called with the server's address
// once it listens, while it serves.
func serve(ctx context.Context, cfg config, listening func(addr string)) error {
	logger := newLogger(cfg.LogLevel)
	db, err := openDB(ctx, cfg)
	if err != nil {
		return err
	}
	defer db.Close()
	if cfg.MigrateOnStart {
		if err := withMigrator(db, func(m *repo.Migrator) error { return m.Up(ctx) }); err != nil {
			return err
		}
	}
	if cfg.SecretKey == "" {
		logger.Warn("SECRET_KEY is not set: webhooks and students' sign-in codes are off, and picture links made by this instance open only on it")
	}
	sender, err := outbound.New(outbound.Config{AllowedHosts: cfg.WebhookAllowedHosts, Timeout: cfg.WebhookTimeout})
	if err != nil {
		return fmt.Errorf("configuration: WEBHOOK_ALLOWED_HOSTS: %w", err)
	}
	webhooks := play.DefaultWebhookConfig
	webhooks.Quota, webhooks.Concurrency = cfg.WebhookQuota, cfg.WebhookConcurrency
	webhooks.Lease = max(webhooks.Lease, 3*cfg.WebhookTimeout) // a send ends well before its lease
	webhooks.AddressQuota, webhooks.PendingPerSubscription, webhooks.PendingPerOwner =
		cfg.WebhookAddressQuota, cfg.WebhookPendingPerSubscription, cfg.WebhookPendingPerOwner
	webhooks.SealingKey, webhooks.SecretOverlap = []byte(cfg.SecretKey), cfg.WebhookSecretOverlap
	options := []play.Option{
		// The system clock: deadlines and due times are written from each instance's clock (keep the
		// instances' clocks in sync).
		play.WithClock(play.SystemClock()),
		play.WithAbandonTTLs(play.AbandonTTLs{Lobby: cfg.LobbyTTL, Idle: cfg.IdleGameTTL}),
		play.WithQuotas(cfg.Quotas),
		play.WithWebhooks(webhooks, sender),
	}
	if cfg.SecretKey != "" {
		options = append(options, play.WithLinkSecret([]byte(cfg.SecretKey)))
		options = append(options, play.WithSignInCodeSecret([]byte(cfg.SecretKey)))                // students' sign-in codes (issue 41)
		options = append(options, play.WithLTI(play.LTIConfig{SealingKey: []byte(cfg.SecretKey)})) // LTI 1.3 (play/lti.go)
	}
	service := play.New(db.Games().Stores(), games.All(), options...)
	db.OnWebhookQueued(service.WakeWebhooks) // the listener wakes the sender when a change queued webhooks
	srv, err := api.New(api.Config{
		BodyLimitBytes: cfg.BodyLimitBytes,
		ReadTimeout:    cfg.ReadTimeout,
		WriteTimeout:   cfg.WriteTimeout,
		IdleTimeout:    cfg.IdleTimeout,
		ShutdownGrace:  cfg.ShutdownGrace,

		StreamLimit:        cfg.StreamLimit,
		StreamHeartbeat:    cfg.StreamHeartbeat,
		StreamWriteTimeout: cfg.StreamWriteTimeout,
		AdminToken:         cfg.AdminToken,
		RenderLimit:        cfg.RenderLimit,
		RenderQueue:        cfg.RenderQueue,

		RateLimit:        cfg.RateLimit,
		RateBurst:        cfg.RateBurst,
		StreamsPerClient: cfg.StreamsPerClient,
		TrustedProxies:   cfg.TrustedProxies,
		CORSOrigins:      cfg.CORSOrigins,
		OIDC:             cfg.OIDC,
		LTI:              api.LTIConfig{PublicURL: cfg.OIDC.PublicURL, Fetcher: sender},
		Guesses: api.GuessLimits{
			PerAddress: cfg.CodeGuessesPerAddress, PerAddressWindow: time.Hour,
			PerInstance: cfg.CodeGuessesPerInstance, PerInstanceWindow: time.Minute,
			PerClass: cfg.CodeGuessesPerClass, PerClassWindow: time.Hour,
		},
	}, api.Deps{Play: service, Database: db, Feed: db}, logger)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cfg.ListenAddr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", cfg.ListenAddr, err)
	}
	if cfg.AdminAddr != "" {
		if err := serveAdmin(ctx, cfg.AdminAddr, logger); err != nil {
			ln.Close()
			return err
		}
	}
	logger.Info("serving", "addr", ln.Addr().String())
	go purgeIdempotencyKeys(ctx, db, service.Clock(), logger, time.Hour)
	go fillToAct(ctx, service, logger)
	if err := service.EnsureLTIToolKey(ctx); err != nil { // the tool's first key pair (play/lti_keys.go)
		logger.Warn("lti: making the tool's key pair failed; the first request for it tries again", "error", err.Error())
	}
	// The workers (the computer players', the webhooks') stop before the database closes (deferred
	// calls run last first). A webhook being sent when its worker stops goes out again, with the
	// same webhook-id, once its lease runs out.
	defer runWorker(ctx, func(ctx context.Context) { service.RunBots(ctx, logger) })()
	if cfg.WebhookSend {
		defer runWorker(ctx, func(ctx context.Context) { service.RunWebhooks(ctx, logger) })()
	}
	// Grades to the LMSs (play/lti_grades.go), through the same outbound client as LTI's requests.
	defer runWorker(ctx, func(ctx context.Context) { service.RunLTIGrades(ctx, logger, api.LTIGradeTransport(sender)) })()
	if listening != nil {
		go listening(ln.Addr().String())
	}
	return srv.Serve(ctx, ln)
}

// runWorker runs work in the background until ctx ends or the returned stop is called; stop
// returns once work has.
func runWorker(ctx context.Context, work func(context.Context)) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		work(ctx)
	}()
	return func() {
		cancel()
		<-done
	}
}

// fillToAct records whose turn it is in the games saved before games kept it, once, in the
// background: until it has, GET /v1/me/games?turn=mine leaves those games out.
func fillToAct(ctx context.Context, service *play.Service, logger *slog.Logger) {
	filled, err := service.FillToAct(ctx)
	if err != nil && ctx.Err() == nil {
		logger.Warn("recording whose turn it is in older games", "filled", filled, "err", err)
		return
	}
	if filled > 0 {
		logger.Info("recorded whose turn it is in older games", "filled", filled)
	}
}

// purgeIdempotencyKeys drops Idempotency-Key responses expired by the clock every period (of real
// time) until ctx ends. Every instance may run it; the deletes do not conflict.
func purgeIdempotencyKeys(ctx context.Context, db *repo.DB, clock play.Clock, logger *slog.Logger, period time.Duration) {
	tick := time.NewTicker(period)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			if n, err := db.PurgeIdempotencyKeys(ctx, clock.Now()); err != nil {
				logger.Warn("purging idempotency keys", "error", err)
			} else if n > 0 {
				logger.Info("purged idempotency keys", "count", n)
			}
		}
	}
}

func migrate(ctx context.Context, cfg config, command string, out io.Writer) error {
	db, err := openDB(ctx, cfg)
	if err != nil {
		return err
	}
	defer db.Close()
	return withMigrator(db, func(m *repo.Migrator) error {
		switch command {
		case "up":
			applied, err := m.ApplyPending(ctx)
			if err != nil {
				return err
			}
			if len(applied) == 0 {
				_, err = fmt.Fprintln(out, "nothing to apply: the schema is up to date")
				return err
			}
			for _, a := range applied {
				fmt.Fprintf(out, "%05d  applied  %s\n", a.Version, a.Name)
			}
			return nil
		case "down":
			return m.Down(ctx)
		case "reset":
			return m.Reset(ctx)
		case "status":
			all, err := m.Status(ctx)
			if err != nil {
				return err
			}
			for _, s := range all {
				state := "pending"
				if s.Applied {
					state = "applied"
				}
				fmt.Fprintf(out, "%05d  %-8s %s\n", s.Version, state, s.Name)
			}
			return nil
		default:
			return errUsage
		}
	})
}

// openDB connects and checks the connection, so a wrong address fails at start in one line.
func openDB(ctx context.Context, cfg config) (*repo.DB, error) {
	db, err := repo.Open(ctx, cfg.DatabaseURL, repo.PoolOptions{
		MaxConns: cfg.DBMaxConns, TransactionPooler: cfg.TransactionPooler, DirectURL: cfg.DatabaseDirectURL,
		ReplicaURL: cfg.DatabaseReplicaURL, StatementTimeout: cfg.DBStatementTimeout, RecordCacheBytes: cfg.RecordCacheBytes,
	})
	if err != nil {
		return nil, err
	}
	if err := db.Ping(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("cannot reach the database (set DATABASE_URL or the PG* variables): %s", oneLine(err.Error()))
	}
	return db, nil
}

func withMigrator(db *repo.DB, do func(*repo.Migrator) error) error {
	m, err := repo.NewMigrator(db, nil)
	if err != nil {
		return err
	}
	defer m.Close()
	return do(m)
}

// oneLine folds a multi-line message (pgx lists every address it tried) into one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
