package repotest

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// A copy of the migrated template costs Postgres about 0.4 s to make and 0.1 s to drop (it writes
// the template's 8 MB to its WAL and syncs it), more than most tests take. So once a test is over,
// its database is emptied and kept for the next test of the binary that asks for one, unless the
// test changed its schema: then it is dropped. An emptied database holds what a fresh copy holds:
// the template's tables, empty, their sequences restarted, and statistics reset.

var spares struct {
	sync.Mutex
	idle []string // databases emptied and ready
	all  []string // every database made for reuse, for Main to drop
}

// schema describes what a database emptied for reuse must have: the template's relations,
// functions and migrations. The tables to empty are those of the public schema but goose's.
const schemaSQL = `SELECT
	coalesce((SELECT string_agg(relname || ':' || relkind::text, ',' ORDER BY relname) FROM pg_class WHERE relnamespace = 'public'::regnamespace), '') || '|' ||
	coalesce((SELECT string_agg(proname, ',' ORDER BY proname) FROM pg_proc WHERE pronamespace = 'public'::regnamespace), '') || '|' ||
	coalesce((SELECT string_agg(t.tgname, ',' ORDER BY t.tgname) FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid WHERE c.relnamespace = 'public'::regnamespace), '') || '|' ||
	coalesce((SELECT string_agg(version_id::text, ',' ORDER BY id) FROM goose_db_version), ''),
	coalesce((SELECT string_agg(format('%I', relname), ', ' ORDER BY relname) FROM pg_class
		WHERE relnamespace = 'public'::regnamespace AND relkind IN ('r', 'p') AND relname <> 'goose_db_version'), '')`

// templateSchema is schemaSQL's answer on the migrated template.
var templateSchema, templateTables string

// migratedDatabase returns the connection string of a migrated database that the test has to
// itself until it ends: an emptied one that an earlier test used, or a new copy of the template.
func migratedDatabase(t testing.TB) string {
	t.Helper()
	tmpl, err := migratedTemplate()
	if err != nil {
		t.Fatalf("migrated template database: %v", err)
	}
	serverURL, _ := server()
	cfg, err := pgx.ParseConfig(serverURL)
	if err != nil {
		t.Fatalf("parse %s: %v", EnvURL, err)
	}
	spares.Lock()
	name := ""
	if n := len(spares.idle); n > 0 {
		name, spares.idle = spares.idle[n-1], spares.idle[:n-1]
	}
	spares.Unlock()
	if name == "" {
		name = "test_" + randomSuffix()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := exec(ctx, serverURL, "CREATE DATABASE "+name+" TEMPLATE "+tmpl); err != nil {
			t.Fatalf("create test database: %v", err)
		}
		spares.Lock()
		spares.all = append(spares.all, name)
		spares.Unlock()
	}
	url := databaseAddress(cfg, name)
	// Registered before the test opens its pool, so it runs after the pool is closed.
	t.Cleanup(func() {
		if err := empty(url, name); err != nil {
			t.Logf("test database %s is dropped, not reused: %v", name, err)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			if err := exec(ctx, serverURL, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
				t.Logf("drop test database %s: %v", name, err)
			}
			return
		}
		spares.Lock()
		spares.idle = append(spares.idle, name)
		spares.Unlock()
	})
	return url
}

// empty ends every other session on the database, checks that its schema is still the template's
// and empties its tables; an error says why it cannot be reused.
func empty(url, name string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	// A session sends its statistics as it ends, which must come before they are reset: wait until
	// every other session has left, those the test closed as well as those terminated here.
	for others := -1; others != 0; {
		if others > 0 {
			time.Sleep(5 * time.Millisecond)
		}
		if err := conn.QueryRow(ctx, `SELECT count(*) FILTER (WHERE NOT pg_terminate_backend(pid) OR true) FROM pg_stat_activity
			WHERE datname = current_database() AND pid <> pg_backend_pid()`).Scan(&others); err != nil {
			return err
		}
	}
	var schema, tables string
	if err := conn.QueryRow(ctx, schemaSQL).Scan(&schema, &tables); err != nil {
		return err
	}
	if schema != templateSchema {
		return fmt.Errorf("the test changed its schema")
	}
	if tables != "" {
		if _, err := conn.Exec(ctx, "TRUNCATE "+tables+" RESTART IDENTITY CASCADE"); err != nil {
			return err
		}
	}
	_, err = conn.Exec(ctx, "SELECT pg_stat_reset()")
	return err
}

// readTemplateSchema keeps schemaSQL's answer on the freshly migrated template at url.
func readTemplateSchema(ctx context.Context, url string) error {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	return conn.QueryRow(ctx, schemaSQL).Scan(&templateSchema, &templateTables)
}

// dropSpares drops the databases kept for reuse.
func dropSpares() {
	spares.Lock()
	defer spares.Unlock()
	for _, name := range spares.all {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		if err := exec(ctx, serverAddr, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil && !strings.Contains(err.Error(), "does not exist") {
			fmt.Fprintf(os.Stderr, "repotest: dropping the test database %s: %v\n", name, err)
		}
		cancel()
	}
	spares.all, spares.idle = nil, nil
}
