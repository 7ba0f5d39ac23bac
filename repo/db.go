// Package repo owns the database: the connection pool, the migrations, every query and every
// transaction.
package repo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// DB is the service's handle on Postgres.
type DB struct {
	Pool *pgxpool.Pool
	// direct is where the sessions go that must stay on one server connection from start to end:
	// the live-update listener's LISTEN and the migrations' lock. Nil means the pool's own address.
	direct *pgx.ConnConfig
	// replica, when set, takes the reads that may go to a hot standby (see reads).
	replica *replica
	// records keeps games' records between requests while the listener runs (records.go); nil
	// when turned off.
	records *records
	// pings carries the records' barrier's pings to the listener, which sends them (pingline.go).
	pings *pingLine
	// closed ends with Close, and with it the sessions the DB runs of its own (the listener).
	closed    context.Context
	closeDone context.CancelFunc
	// webhookQueued, when set, is called when a change that queued webhooks commits (OnWebhookQueued).
	webhookQueued func()
}

// PoolOptions tune the connection pool.
type PoolOptions struct {
	MaxConns int32
	// Tracer, when set, is told of every query and batch (tests count round trips with it). It
	// may also implement pgx.BatchTracer.
	Tracer pgx.QueryTracer
	// TransactionPooler says that the pool's address is a pooler that hands out a server connection
	// per transaction (PgBouncer's pool_mode = transaction), so that a query may run on another
	// server connection than the one before it. The pool then prepares no named statements (pgx
	// caches what a statement takes and returns, and sends its text with each query) and relies on
	// nothing else kept by a session.
	TransactionPooler bool
	// DirectURL, when set, is the address of Postgres itself for what needs a session of its own:
	// the live-update listener and the migrations. Empty means the pool's address, which is
	// wrong behind a transaction pooler.
	DirectURL string
	// ReplicaURL, when set, is a hot standby of the database: reads of histories, statistics and
	// reviews go there while it has caught up with the primary.
	ReplicaURL string
	// RecordCacheBytes bounds the game records kept between requests (records.go):
	// DefaultRecordCacheBytes when zero, none kept when negative.
	RecordCacheBytes int
	// VerifyKeptWrites has each record kept from a write compared with a fresh read of the game,
	// and panics when they differ (tests: a write's record must be what a read would give).
	VerifyKeptWrites bool
	// BarrierWait is the longest a read of a kept record waits for the barrier before it reads
	// Postgres instead (barrierWait when zero). Tests that count round trips set a long one: on a
	// busy machine a ping may take longer than the default, and the read then counts one more.
	BarrierWait time.Duration
	// StatementTimeout is Postgres's statement_timeout and idle_in_transaction_session_timeout for
	// the sessions (DefaultStatementTimeout when zero, none when negative; see deadconn.go).
	StatementTimeout time.Duration
}

// Open connects to the database at url. An empty url connects the way libpq does: PGHOST, PGPORT,
// PGUSER, PGDATABASE and friends, and the local socket by default.
func Open(ctx context.Context, url string, opts PoolOptions) (*DB, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("database address: %w", err)
	}
	if opts.MaxConns > 0 {
		cfg.MaxConns = opts.MaxConns
	}
	if opts.Tracer != nil {
		cfg.ConnConfig.Tracer = opts.Tracer
	}
	if opts.TransactionPooler {
		cfg.ConnConfig.DefaultQueryExecMode = pgx.QueryExecModeCacheDescribe
	}
	boundWaits(&cfg.ConnConfig.Config, opts.StatementTimeout, opts.TransactionPooler)
	var direct *pgx.ConnConfig
	if opts.DirectURL != "" {
		if direct, err = pgx.ParseConfig(opts.DirectURL); err != nil {
			return nil, fmt.Errorf("direct database address: %w", err)
		}
		boundWaits(&direct.Config, -1, false) // the migrations may take longer than any statement of a request
	}
	var replicaCfg *pgxpool.Config
	if opts.ReplicaURL != "" {
		if replicaCfg, err = pgxpool.ParseConfig(opts.ReplicaURL); err != nil {
			return nil, fmt.Errorf("replica database address: %w", err)
		}
		boundWaits(&replicaCfg.ConnConfig.Config, opts.StatementTimeout, opts.TransactionPooler)
		replicaCfg.MaxConns = cfg.MaxConns
		replicaCfg.ConnConfig.Tracer = cfg.ConnConfig.Tracer
		replicaCfg.ConnConfig.DefaultQueryExecMode = cfg.ConnConfig.DefaultQueryExecMode
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("database pool: %w", err)
	}
	db := &DB{Pool: pool, direct: direct}
	if opts.RecordCacheBytes >= 0 {
		limit := opts.RecordCacheBytes
		if limit == 0 {
			limit = DefaultRecordCacheBytes
		}
		db.pings = &pingLine{}
		sync := newBarrier(db.pings.send)
		if opts.BarrierWait > 0 {
			sync.patience = opts.BarrierWait
		}
		db.records = newRecords(limit, sync)
		if opts.VerifyKeptWrites {
			db.records.mismatch = db.verifyKeptWrite
		}
	}
	db.closed, db.closeDone = context.WithCancel(context.Background())
	if replicaCfg != nil {
		replicaPool, err := pgxpool.NewWithConfig(ctx, replicaCfg)
		if err != nil {
			pool.Close()
			return nil, fmt.Errorf("replica database pool: %w", err)
		}
		db.replica = &replica{pool: replicaPool}
	}
	return db, nil
}

// directConfig is a fresh copy of the configuration of a session straight to Postgres: the
// listener's, which waits, and the migrations', whose statements may run longer than any of a
// request, so neither has the pool's statement timeouts.
func (db *DB) directConfig() *pgx.ConnConfig {
	if db.direct != nil {
		return db.direct.Copy()
	}
	cfg := db.Pool.Config().ConnConfig.Copy()
	for _, param := range statementTimeoutParams {
		delete(cfg.RuntimeParams, param)
	}
	return cfg
}

// RecordCacheStats are the figures of the game record cache (zero when it is off).
func (db *DB) RecordCacheStats() RecordCacheStats {
	if db.records == nil {
		return RecordCacheStats{}
	}
	return db.records.stats()
}

// CatchUp returns once this instance listens and has heard of every change of a game committed
// before it was called (the record cache's barrier), or with an error when it cannot know (no
// record cache, or ctx ended before the listener connected).
func (db *DB) CatchUp(ctx context.Context) error {
	if db.records == nil {
		return errNotListening
	}
	if err := db.records.waitListening(ctx); err != nil {
		return err
	}
	return db.records.sync.wait(ctx)
}

// Ping checks that the database answers.
func (db *DB) Ping(ctx context.Context) error { return db.Pool.Ping(ctx) }

// Close waits for borrowed connections to return and closes the pools.
func (db *DB) Close() {
	db.closeDone()
	db.Pool.Close()
	if db.replica != nil {
		db.replica.pool.Close()
	}
}

// IsUnavailable is IsUnavailable, for whoever holds the DB rather than the package.
func (db *DB) IsUnavailable(err error) bool { return IsUnavailable(err) }

// InDoubt is InDoubt, for whoever holds the DB rather than the package.
func (db *DB) InDoubt(err error) bool { return InDoubt(err) }

// IsUnavailable reports whether err means the database could not be reached or dropped the
// connection (as opposed to a query that failed), so that callers can answer "try again later" rather
// than "internal error".
func IsUnavailable(err error) bool {
	var connectErr *pgconn.ConnectError
	return errors.As(err, &connectErr) || connectionLost(err) || pgconn.Timeout(err) || statementTimedOut(err)
}

// statementTimedOut reports whether Postgres ended the statement for running past statement_timeout
// (query_canceled): the database is too slow now, not the request wrong.
func statementTimedOut(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "57014"
}

// connectionLost reports whether err means the connection went away under a query: the server
// ended the session (SQLSTATE class 08, or 57P01-57P03 when an administrator, a crash or a restart
// ends it), or the socket closed or broke.
func connectionLost(err error) bool {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch pgErr.Code {
		case "57P01", "57P02", "57P03": // admin_shutdown, crash_shutdown, cannot_connect_now
			return true
		}
		return strings.HasPrefix(pgErr.Code, "08") // connection exception
	}
	var netErr net.Error
	return errors.As(err, &netErr) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, pgconn.ErrConnClosed) || errors.Is(err, net.ErrClosed)
}

// readRetry runs a read that needs no transaction, and runs it once more when its connection was
// lost before it answered (its backend terminated, the server restarted, the socket broke): the
// pool drops a lost connection, so the second attempt runs on another one. A read changes nothing,
// so running it twice is harmless, whatever the request it serves.
func readRetry[T any](ctx context.Context, read func() (T, error)) (T, error) {
	v, err := read()
	if err != nil && connectionLost(err) && ctx.Err() == nil {
		return read()
	}
	return v, err
}
