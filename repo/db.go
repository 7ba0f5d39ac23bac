// Package repo owns the database: the connection pool, the migrations, every query and every
// transaction.
package repo

import (
	"context"
	"errors"
	"fmt"
	"net"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"primegames/domain/games"
)

// DB is the service's handle on Postgres.
type DB struct {
	Pool *pgxpool.Pool
	// Kinds are the kinds of game whose rows it reads: Open sets the service's catalogue; a test
	// hosting a kind of its own replaces it before use.
	Kinds *games.Catalogue
}

// PoolOptions tune the connection pool.
type PoolOptions struct {
	MaxConns int32
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
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("database pool: %w", err)
	}
	return &DB{Pool: pool, Kinds: games.All()}, nil
}

// Ping checks that the database answers.
func (db *DB) Ping(ctx context.Context) error { return db.Pool.Ping(ctx) }

// Close waits for borrowed connections to return and closes the pool.
func (db *DB) Close() { db.Pool.Close() }

// IsUnavailable reports whether err means the database could not be reached (as opposed to a
// query that failed), so that callers can answer "try again later" rather than "internal error".
func IsUnavailable(err error) bool {
	var connectErr *pgconn.ConnectError
	var netErr net.Error
	return errors.As(err, &connectErr) || errors.As(err, &netErr) || pgconn.Timeout(err)
}
