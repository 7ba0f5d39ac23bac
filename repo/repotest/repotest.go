// Package repotest gives tests a fresh, migrated Postgres database of their own.
//
// Each database is a copy of one migrated template database per test binary, on one server per
// test binary; once its test ends it is emptied for the binary's next test (spares.go). The
// server is, in this order: the one TEST_DATABASE_URL names (as CI does); a throwaway cluster
// started from the PostgreSQL server binaries installed on the machine (see package localpg),
// removed when the tests end; a Postgres container started with testcontainers-go, which needs
// Docker. A package whose tests use this one runs them through Main, so the throwaway cluster stops
// with them.
package repotest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/testcontainers/testcontainers-go/modules/postgres"

	"primegames/localpg"
	"primegames/repo"
)

// EnvURL names the variable that points the tests at an existing server.
const EnvURL = "TEST_DATABASE_URL"

// NewDB returns a pool on a fresh database with every migration applied.
func NewDB(t testing.TB) *repo.DB {
	t.Helper()
	db, _ := NewDBWithURL(t)
	return db
}

// NewDBWithURL is NewDB that also returns the database's connection string, for tests that need
// a second pool or a separate process.
func NewDBWithURL(t testing.TB) (*repo.DB, string) {
	t.Helper()
	return NewDBWithOptions(t, repo.PoolOptions{})
}

// NewDBWithOptions is NewDBWithURL with a pool tuned by opts (20 connections unless they say).
func NewDBWithOptions(t testing.TB, opts repo.PoolOptions) (*repo.DB, string) {
	t.Helper()
	url := migratedDatabase(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if opts.MaxConns == 0 {
		opts.MaxConns = 20
	}
	// Every record kept from a write must be what a read gives; the check reads, so not where the
	// test counts what is sent (a tracer).
	opts.VerifyKeptWrites = opts.Tracer == nil
	db, err := repo.Open(ctx, url, opts)
	if err != nil {
		t.Fatalf("open test database: %v", err)
	}
	t.Cleanup(db.Close)
	return db, url
}

var (
	templateOnce sync.Once
	templateName string
	templateErr  error
)

// migratedTemplate returns the name of a database with every migration applied, made once per test
// binary, which NewDB copies (CREATE DATABASE … TEMPLATE takes tens of milliseconds where running
// the migrations takes hundreds). Main drops it.
func migratedTemplate() (string, error) {
	templateOnce.Do(func() {
		serverURL, err := server()
		if err != nil {
			templateErr = err
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		name := "test_template_" + randomSuffix()
		if err := exec(ctx, serverURL, "CREATE DATABASE "+name); err != nil {
			templateErr = err
			return
		}
		templateName = name
		if templateErr = migrate(ctx, serverURL, name); templateErr != nil {
			return
		}
		cfg, err := pgx.ParseConfig(serverURL)
		if err != nil {
			templateErr = err
			return
		}
		templateErr = readTemplateSchema(ctx, databaseAddress(cfg, name))
	})
	return templateName, templateErr
}

// migrate applies every migration to the database name and closes its connections, so that it can
// be copied: Postgres copies no database that someone is connected to.
func migrate(ctx context.Context, serverURL, name string) error {
	cfg, err := pgx.ParseConfig(serverURL)
	if err != nil {
		return err
	}
	db, err := repo.Open(ctx, databaseAddress(cfg, name), repo.PoolOptions{MaxConns: 2})
	if err != nil {
		return err
	}
	defer db.Close()
	m, err := repo.NewMigrator(db, nil)
	if err != nil {
		return err
	}
	defer m.Close()
	return m.Up(ctx)
}

// dropTemplate drops the migrated template, if this binary made one.
func dropTemplate() {
	if templateName == "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := exec(ctx, serverAddr, "DROP DATABASE IF EXISTS "+templateName+" WITH (FORCE)"); err != nil {
		fmt.Fprintf(os.Stderr, "repotest: dropping the template database %s: %v\n", templateName, err)
	}
}

// exec runs one statement on the server's own database, on a connection of its own.
func exec(ctx context.Context, serverURL, sql string) error {
	conn, err := pgx.Connect(ctx, serverURL)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, sql)
	return err
}

// NewEmptyDatabase creates a database with no tables and returns its connection string. It is
// dropped when the test ends.
func NewEmptyDatabase(t testing.TB) string {
	t.Helper()
	serverURL, err := server()
	if err != nil {
		t.Fatalf("no test database: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	name := "test_" + randomSuffix()
	if err := exec(ctx, serverURL, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("create test database: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := exec(ctx, serverURL, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Logf("drop test database %s: %v", name, err)
		}
	})
	cfg, err := pgx.ParseConfig(serverURL)
	if err != nil {
		t.Fatalf("parse %s: %v", EnvURL, err)
	}
	return databaseAddress(cfg, name)
}

// databaseAddress renders the server's address in libpq keyword form, naming another database.
func databaseAddress(cfg *pgx.ConnConfig, name string) string {
	quote := func(v string) string {
		return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(v) + "'"
	}
	s := fmt.Sprintf("host=%s port=%d user=%s dbname=%s", quote(cfg.Host), cfg.Port, quote(cfg.User), quote(name))
	if cfg.Password != "" {
		s += " password=" + quote(cfg.Password)
	}
	if cfg.TLSConfig == nil {
		s += " sslmode=disable"
	}
	return s
}

var (
	serverOnce sync.Once
	serverAddr string
	serverErr  error
)

// server returns the connection string of the server that test databases are created on.
func server() (string, error) {
	serverOnce.Do(func() {
		if url := os.Getenv(EnvURL); url != "" {
			serverAddr = url
			return
		}
		url, localErr := startLocalCluster()
		if localErr == nil {
			serverAddr = url
			return
		}
		if !errors.Is(localErr, localpg.ErrNoBinaries) {
			fmt.Fprintf(os.Stderr, "repotest: %s is not set and no local Postgres cluster could start (%v); trying a container\n", EnvURL, localErr)
		}
		serverAddr, serverErr = startContainer()
		if serverErr != nil {
			serverErr = fmt.Errorf("%w; and no local cluster: %v", serverErr, localErr)
		}
	})
	return serverAddr, serverErr
}

// local is the throwaway cluster of this test binary, if it started one.
var local *localpg.Cluster

func startLocalCluster() (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c, err := localpg.Start(ctx, localpg.Options{})
	if err != nil {
		return "", err
	}
	local = c
	return c.URL("postgres"), nil
}

// Main runs the package's tests, then stops the throwaway cluster if they started one. Call it from
// the package's TestMain:
//
//	func TestMain(m *testing.M) { os.Exit(repotest.Main(m)) }
//
// Without it the cluster still stops when the test binary exits (by the parent-death signal on
// Linux), and its files are removed by the next test binary that starts one.
func Main(m *testing.M) int {
	code := m.Run()
	dropSpares()
	dropTemplate()
	if local != nil {
		if err := local.Stop(); err != nil {
			fmt.Fprintf(os.Stderr, "repotest: stopping the local Postgres cluster: %v\n", err)
		}
	}
	return code
}

func startContainer() (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	c, err := postgres.Run(ctx, "postgres:16-alpine",
		postgres.WithDatabase("postgres"),
		postgres.WithUsername("postgres"),
		postgres.WithPassword("postgres"),
		postgres.BasicWaitStrategies(),
	)
	if err != nil {
		return "", fmt.Errorf("%s is not set and a Postgres container could not start (is Docker running?): %w", EnvURL, err)
	}
	// The container lives as long as the test binary; testcontainers' reaper removes it afterwards.
	return c.ConnectionString(ctx, "sslmode=disable")
}

func randomSuffix() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// LockWaiter waits until a backend of db's database other than except (0 for none) waits for a lock,
// and returns its pid. It fails the test if ended delivers first (a nil channel never does): the work
// expected to wait finished instead.
func LockWaiter(t testing.TB, db *repo.DB, except int, ended <-chan error) int {
	t.Helper()
	for {
		var pid int
		// Read from the pool, not inside a transaction: pg_stat_activity is one snapshot per transaction.
		err := db.Pool.QueryRow(context.Background(), `SELECT pid FROM pg_stat_activity
			WHERE datname = current_database() AND pid NOT IN (pg_backend_pid(), $1) AND wait_event_type = 'Lock'`, except).Scan(&pid)
		switch {
		case err == nil:
			return pid
		case !errors.Is(err, pgx.ErrNoRows):
			t.Fatal(err)
		}
		select {
		case err := <-ended:
			t.Fatalf("the work ended (%v) where it should wait for a lock", err)
		case <-time.After(10 * time.Millisecond):
		}
	}
}
