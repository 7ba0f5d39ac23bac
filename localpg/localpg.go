// Package localpg runs a private PostgreSQL cluster from the server binaries installed on the
// machine (initdb and postgres), for the tests and `primegames dev` where Docker is missing. The
// cluster listens on 127.0.0.1 at a free port and on a private socket directory, trusts local
// connections as the user postgres, and stops with the process that started it.
package localpg

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

// ErrNoBinaries means no directory holding both initdb and postgres was found.
var ErrNoBinaries = errors.New("no PostgreSQL server binaries (initdb, postgres) on PATH or under /usr/lib/postgresql/*/bin")

// Options say where the cluster lives.
type Options struct {
	// Dir holds the data directory (Dir/data) and the server log (Dir/postgres.log) and is kept,
	// so the databases outlive the process. Empty: a temporary directory, removed by Stop.
	Dir string
	// BinDir holds initdb and postgres; empty: FindBinaries.
	BinDir string
}

// Cluster is a running postgres.
type Cluster struct {
	dir, socketDir string
	temporary      bool
	port           int
	proc           *os.Process
	exited         chan struct{}
	exitErr        error
}

// User is the role the cluster is created with; it has no password and local connections are
// trusted.
const User = "postgres"

// Start creates the cluster if Dir holds none yet, starts postgres and waits until it accepts
// connections.
func Start(ctx context.Context, opts Options) (*Cluster, error) {
	bin := opts.BinDir
	if bin == "" {
		var err error
		if bin, err = FindBinaries(); err != nil {
			return nil, err
		}
	}
	owner, err := serverUser()
	if err != nil {
		return nil, err
	}
	c := &Cluster{dir: opts.Dir, exited: make(chan struct{})}
	if c.dir == "" {
		removeAbandoned()
		if c.dir, err = os.MkdirTemp("", tempPrefix); err != nil {
			return nil, err
		}
		c.temporary = true
		if err := os.WriteFile(filepath.Join(c.dir, ownerFile), []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
			c.removeFiles()
			return nil, err
		}
	} else if err := os.MkdirAll(c.dir, 0o700); err != nil {
		return nil, err
	}
	if c.dir, err = filepath.Abs(c.dir); err != nil {
		c.removeFiles()
		return nil, err
	}
	// A socket's path has a length limit (about 100 bytes) that a kept directory may exceed.
	c.socketDir = filepath.Join(c.dir, "sock")
	if len(c.socketDir) > 80 {
		c.socketDir, err = os.MkdirTemp("", "primegames-pgsock-")
	} else {
		err = os.Mkdir(c.socketDir, 0o700)
	}
	if err != nil && !errors.Is(err, os.ErrExist) {
		c.removeFiles()
		return nil, err
	}
	if err := c.start(ctx, bin, owner); err != nil {
		c.Stop()
		return nil, err
	}
	return c, nil
}

const (
	tempPrefix = "primegames-pg-"
	ownerFile  = "owner.pid"
)

func (c *Cluster) dataDir() string { return filepath.Join(c.dir, "data") }

// LogFile is the server's log.
func (c *Cluster) LogFile() string { return filepath.Join(c.dir, "postgres.log") }

func (c *Cluster) start(ctx context.Context, bin string, owner *account) error {
	for _, dir := range []string{c.dir, c.socketDir} {
		if err := owner.own(dir); err != nil {
			return err
		}
	}
	if _, err := os.Stat(filepath.Join(c.dataDir(), "PG_VERSION")); errors.Is(err, os.ErrNotExist) {
		initdb := exec.CommandContext(ctx, filepath.Join(bin, "initdb"), "-D", c.dataDir(), "-U", User,
			"--auth=trust", "--encoding=UTF8", "--no-locale", "--no-sync")
		initdb.Dir = c.dir
		initdb.SysProcAttr = owner.procAttr(false)
		if out, err := initdb.CombinedOutput(); err != nil {
			return fmt.Errorf("initdb in %s: %w: %s", c.dataDir(), err, lastLines(string(out), 5))
		}
	}
	port, err := freePort()
	if err != nil {
		return err
	}
	c.port = port
	log, err := os.OpenFile(c.LogFile(), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	defer log.Close()
	cmd := exec.Command(filepath.Join(bin, "postgres"), "-D", c.dataDir(),
		"-p", strconv.Itoa(port), "-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="+c.socketDir,
		"-c", "max_connections=200", "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off")
	cmd.Dir = c.dir
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = owner.procAttr(true)
	started := make(chan error, 1)
	go func() {
		// The parent-death signal follows the thread that started postgres: keep that thread
		// alive as long as postgres runs.
		runtime.LockOSThread()
		if err := cmd.Start(); err != nil {
			started <- err
			return
		}
		c.proc = cmd.Process
		started <- nil
		c.exitErr = cmd.Wait()
		close(c.exited)
	}()
	if err := <-started; err != nil {
		close(c.exited)
		return fmt.Errorf("start postgres: %w", err)
	}
	return c.waitReady(ctx)
}

func (c *Cluster) waitReady(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	for {
		conn, err := pgx.Connect(ctx, c.URL("postgres"))
		if err == nil {
			return conn.Close(ctx)
		}
		select {
		case <-c.exited:
			log, _ := os.ReadFile(c.LogFile())
			return fmt.Errorf("postgres exited (%v): %s", c.exitErr, lastLines(string(log), 5))
		case <-ctx.Done():
			return fmt.Errorf("postgres did not accept connections: %w", err)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// URL is the connection string of database name.
func (c *Cluster) URL(name string) string {
	return fmt.Sprintf("postgres://%s@127.0.0.1:%d/%s?sslmode=disable", User, c.port, name)
}

// Stop shuts postgres down (fast: it disconnects clients) and, for a temporary cluster, removes its
// files.
func (c *Cluster) Stop() error {
	var err error
	if c.proc != nil {
		_ = c.proc.Signal(syscall.SIGINT)
		select {
		case <-c.exited:
		case <-time.After(30 * time.Second):
			_ = c.proc.Kill()
			<-c.exited
			err = errors.New("postgres did not stop within 30s and was killed")
		}
	}
	c.removeFiles()
	return err
}

func (c *Cluster) removeFiles() {
	if c.socketDir != "" {
		os.RemoveAll(c.socketDir)
	}
	if c.temporary {
		os.RemoveAll(c.dir)
	}
}

// removeAbandoned deletes the temporary clusters of processes that died without stopping them
// (a test binary killed by its timeout). Their postgres stopped with them, by the parent-death
// signal where the system has one.
func removeAbandoned() {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), tempPrefix+"*"))
	for _, dir := range dirs {
		owner, err := os.ReadFile(filepath.Join(dir, ownerFile))
		if err != nil {
			continue
		}
		if alive(string(owner)) {
			continue
		}
		if pid, err := os.ReadFile(filepath.Join(dir, "data", "postmaster.pid")); err == nil && alive(firstLine(string(pid))) {
			continue
		}
		os.RemoveAll(dir)
	}
}

func alive(pidText string) bool {
	pid, err := strconv.Atoi(strings.TrimSpace(pidText))
	if err != nil || pid <= 0 {
		return false
	}
	err = syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// FindBinaries returns a directory holding initdb and postgres: on PATH (Homebrew, or a package
// that links them there) or the newest under /usr/lib/postgresql/<version>/bin (Debian, Ubuntu).
func FindBinaries() (string, error) {
	var candidates []string
	if initdb, err := exec.LookPath("initdb"); err == nil {
		candidates = append(candidates, filepath.Dir(initdb))
	}
	versions, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	versions = append(versions, globAll("/usr/pgsql-*/bin", "/opt/homebrew/opt/postgresql*/bin", "/usr/local/opt/postgresql*/bin")...)
	sortByVersionDesc(versions)
	candidates = append(candidates, versions...)
	for _, dir := range candidates {
		if isExecutable(filepath.Join(dir, "initdb")) && isExecutable(filepath.Join(dir, "postgres")) {
			return dir, nil
		}
	}
	return "", ErrNoBinaries
}

func globAll(patterns ...string) []string {
	var all []string
	for _, p := range patterns {
		m, _ := filepath.Glob(p)
		all = append(all, m...)
	}
	return all
}

// sortByVersionDesc orders paths by the first number in them, highest first: 16 before 9.
func sortByVersionDesc(paths []string) {
	number := func(p string) int {
		start := strings.IndexAny(p, "0123456789")
		if start < 0 {
			return 0
		}
		end := start
		for end < len(p) && p[end] >= '0' && p[end] <= '9' {
			end++
		}
		n, _ := strconv.Atoi(p[start:end])
		return n
	}
	slices.SortStableFunc(paths, func(a, b string) int { return number(b) - number(a) })
}

func isExecutable(path string) bool {
	info, err := os.Stat(path)
	return err == nil && !info.IsDir() && info.Mode()&0o111 != 0
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}

func firstLine(s string) string { line, _, _ := strings.Cut(s, "\n"); return line }
