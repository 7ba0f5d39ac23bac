package repo

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"

	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"

	"primegames/migrations"
)

// Migrator applies the embedded migrations. It holds goose's Postgres session lock while it works,
// so several instances starting together migrate one at a time.
type Migrator struct {
	provider *goose.Provider
	sqlDB    *sql.DB
}

// MigrationStatus is one migration and whether it is applied.
type MigrationStatus struct {
	Version int64
	Name    string
	Applied bool
}

// NewMigrator prepares the migrations for db.
func NewMigrator(db *DB, logger *slog.Logger) (*Migrator, error) {
	// Poll for the lock every second (goose's default is 5 s) for up to five minutes.
	locker, err := lock.NewPostgresSessionLocker(lock.WithLockTimeout(1, 300))
	if err != nil {
		return nil, err
	}
	// goose's lock is a session advisory lock, taken and released on one connection: behind a
	// transaction pooler the release could reach another server connection, so the migrations
	// connect straight to Postgres, and on connections of their own, without the pool's statement
	// timeouts (a migration may rightly run longer).
	sqlDB := stdlib.OpenDB(*db.directConfig())
	opts := []goose.ProviderOption{goose.WithSessionLocker(locker)}
	if logger != nil {
		opts = append(opts, goose.WithSlog(logger))
	}
	provider, err := goose.NewProvider(goose.DialectPostgres, sqlDB, migrations.FS, opts...)
	if err != nil {
		sqlDB.Close()
		return nil, fmt.Errorf("migrations: %w", err)
	}
	return &Migrator{provider: provider, sqlDB: sqlDB}, nil
}

// Up applies every pending migration.
func (m *Migrator) Up(ctx context.Context) error {
	_, err := m.ApplyPending(ctx)
	return err
}

// ApplyPending applies every pending migration and lists those it applied, oldest first.
func (m *Migrator) ApplyPending(ctx context.Context) ([]MigrationStatus, error) {
	results, err := m.provider.Up(ctx)
	if err != nil {
		return nil, wrapMigration("up", err)
	}
	applied := make([]MigrationStatus, len(results))
	for i, r := range results {
		applied[i] = MigrationStatus{Version: r.Source.Version, Name: r.Source.Path, Applied: true}
	}
	return applied, nil
}

// Down rolls back the newest migration.
func (m *Migrator) Down(ctx context.Context) error {
	_, err := m.provider.Down(ctx)
	return wrapMigration("down", err)
}

// Reset rolls back every migration.
func (m *Migrator) Reset(ctx context.Context) error {
	_, err := m.provider.DownTo(ctx, 0)
	return wrapMigration("reset", err)
}

// Status lists every migration and whether it is applied.
func (m *Migrator) Status(ctx context.Context) ([]MigrationStatus, error) {
	all, err := m.provider.Status(ctx)
	if err != nil {
		return nil, wrapMigration("status", err)
	}
	out := make([]MigrationStatus, len(all))
	for i, s := range all {
		out[i] = MigrationStatus{Version: s.Source.Version, Name: s.Source.Path, Applied: s.State == goose.StateApplied}
	}
	return out, nil
}

// Close releases the migrator's connection handle; the pool stays open.
func (m *Migrator) Close() error { return m.sqlDB.Close() }

func wrapMigration(what string, err error) error {
	if err != nil {
		return fmt.Errorf("migrate %s: %w", what, err)
	}
	return nil
}
