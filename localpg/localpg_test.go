package localpg

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

func startOrSkip(t *testing.T, opts Options) *Cluster {
	t.Helper()
	if _, err := FindBinaries(); errors.Is(err, ErrNoBinaries) {
		t.Skip("no PostgreSQL server binaries on this machine")
	}
	c, err := Start(context.Background(), opts)
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	return c
}

// postmasterPID reads the running server's pid from its data directory.
func postmasterPID(t *testing.T, dataDir string) int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dataDir, "postmaster.pid"))
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(firstLine(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

// waitGone waits up to a minute for the process to end.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); alive(strconv.Itoa(pid)); {
		if time.Now().After(deadline) {
			t.Fatalf("postgres (pid %d) still runs", pid)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestTemporaryClusterServesAndIsRemoved(t *testing.T) {
	c := startOrSkip(t, Options{})
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, c.URL("postgres"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, "CREATE DATABASE scratch"); err != nil {
		t.Fatal(err)
	}
	var user string
	if err := conn.QueryRow(ctx, "SELECT current_user").Scan(&user); err != nil || user != User {
		t.Fatalf("current_user = %q, %v", user, err)
	}
	conn.Close(ctx)
	pid, dir := postmasterPID(t, c.dataDir()), c.dir
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	waitGone(t, pid)
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the cluster's directory %s is still there (%v)", dir, err)
	}
}

func TestKeptClusterKeepsItsDatabases(t *testing.T) {
	// Not t.TempDir: as root, postgres runs as another user, who cannot enter it.
	parent, err := os.MkdirTemp("", "localpg-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(parent) })
	if err := os.Chmod(parent, 0o755); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(parent, "kept")
	ctx := context.Background()
	c := startOrSkip(t, Options{Dir: dir})
	conn, err := pgx.Connect(ctx, c.URL("postgres"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = conn.Exec(ctx, "CREATE DATABASE kept")
	conn.Close(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	c = startOrSkip(t, Options{Dir: dir})
	defer c.Stop()
	conn, err = pgx.Connect(ctx, c.URL("kept"))
	if err != nil {
		t.Fatalf("the database made before the restart: %v", err)
	}
	conn.Close(ctx)
}
