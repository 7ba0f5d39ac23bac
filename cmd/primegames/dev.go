package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/oauth2-proxy/mockoidc"

	"primegames/api"
	"primegames/localpg"
)

// devDatabase is the database `primegames dev` serves from, on its own cluster.
const devDatabase = "primegames"

// dev runs the API on a Postgres cluster of its own, started from the server binaries installed on
// the machine and kept in a directory, so a developer without Docker or a database needs one
// command. The first start seeds a demo classroom with games and saves what it printed (tokens
// included) in the directory, which later starts print again.
// devSecretKey is `primegames dev`'s SECRET_KEY: it seals what its local database keeps only.
const devSecretKey = "primegames dev: a local database's key, no secret"

func dev(ctx context.Context, cfg config, args []string, getenv func(string) string, out io.Writer) error {
	flags := flag.NewFlagSet("dev", flag.ContinueOnError)
	flags.SetOutput(io.Discard)
	dir := flags.String("dir", ".primegames-dev", "directory of the local Postgres cluster and the demo data")
	if err := flags.Parse(args); err != nil || flags.NArg() != 0 {
		return errUsage
	}
	if getenv("LISTEN_ADDR") == "" {
		cfg.ListenAddr = "127.0.0.1:8080"
	}
	cluster, err := localpg.Start(ctx, localpg.Options{Dir: *dir})
	if err != nil {
		return fmt.Errorf("dev: starting Postgres in %s: %w (dev needs PostgreSQL's server binaries: apt install postgresql, or brew install postgresql)", *dir, err)
	}
	defer cluster.Stop()
	if err := createDatabase(ctx, cluster.URL("postgres"), devDatabase); err != nil {
		return err
	}
	cfg.DatabaseURL = cluster.URL(devDatabase)
	cfg.MigrateOnStart = true
	if cfg.SecretKey == "" {
		// A development cluster's data is no secret: a fixed key keeps its webhooks and picture
		// links working across restarts. A real deployment sets its own (docs/operations.md).
		cfg.SecretKey = devSecretKey
	}
	out = &lockedWriter{w: out}
	fmt.Fprintf(out, "Postgres: %s (data in %s, log %s)\n", cfg.DatabaseURL, *dir, cluster.LogFile())
	devSignIn := false
	if cfg.OIDC.Issuer == "" && len(cfg.OIDC.Providers) == 0 {
		stop, err := useDevProvider(&cfg)
		if err != nil {
			return err
		}
		defer stop()
		devSignIn = true
	}
	demoFile := filepath.Join(*dir, "demo.txt")
	return serve(ctx, cfg, func(addr string) {
		base := "http://" + localAddress(addr)
		fmt.Fprintf(out, "API: %s (docs at %s/docs; Ctrl-C stops the API and Postgres)\n", base, base)
		fmt.Fprintf(out, "export API=%s\n", base)
		if devSignIn {
			fmt.Fprintf(out, "Teacher sign-in (development provider, signs anyone in as %q): curl -sL %s/v1/auth/oidc/login  # answers an account token; in a browser add ?return_to=/v1/me for a session\n", devTeacher, base)
		}
		if saved, err := os.ReadFile(demoFile); err == nil {
			fmt.Fprintf(out, "# demo data, seeded on the first start (saved in %s):\n%s", demoFile, saved)
			return
		}
		demo, err := seedDemo(ctx, base, cfg.AdminToken)
		if err != nil {
			fmt.Fprintf(out, "dev: seeding the demo classroom: %v\n", err)
			return
		}
		if err := os.WriteFile(demoFile, []byte(demo), 0o600); err != nil {
			fmt.Fprintf(out, "dev: saving %s: %v\n", demoFile, err)
		}
		fmt.Fprintf(out, "# demo data (saved in %s):\n%s", demoFile, demo)
	})
}

// createDatabase creates the database unless it exists.
func createDatabase(ctx context.Context, serverURL, name string) error {
	conn, err := pgx.Connect(ctx, serverURL)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	var exists bool
	if err := conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&exists); err != nil {
		return err
	}
	if exists {
		return nil
	}
	_, err = conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize())
	return err
}

// lockedWriter serialises writes from the serving goroutine and the seeding one.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.w == nil {
		return 0, errors.New("no output")
	}
	return l.w.Write(p)
}

// devTeacher is whom `primegames dev`'s provider signs in, every time.
const devTeacher = "Dev Teacher"

// useDevProvider runs an OpenID provider in the process (mockoidc: discovery, keys, PKCE, signed
// ID tokens; it signs in devTeacher without asking) and configures teacher sign-in to use it. It
// listens next to the API (its port + 1, when free), so that its issuer, which accounts are keyed
// by, stays the same from one start to the next. The API's address is fixed here when it was
// :0, since the redirect URI names it.
func useDevProvider(cfg *config) (stop func(), err error) {
	listen, err := net.Listen("tcp", cfg.ListenAddr)
	if err != nil {
		return nil, fmt.Errorf("dev: listen on %s: %w", cfg.ListenAddr, err)
	}
	cfg.ListenAddr = listen.Addr().String()
	_ = listen.Close()
	provider, err := mockoidc.NewServer(nil)
	if err != nil {
		return nil, err
	}
	provider.ClientID, provider.ClientSecret = "primegames-dev", "primegames-dev" // no secret: a local provider's
	host, port, _ := net.SplitHostPort(localAddress(cfg.ListenAddr))
	n, _ := strconv.Atoi(port)
	ln, err := net.Listen("tcp", net.JoinHostPort(host, strconv.Itoa(n+1)))
	if err != nil {
		ln, err = net.Listen("tcp", net.JoinHostPort(host, "0"))
	}
	if err != nil {
		return nil, err
	}
	// Each authorization signs devTeacher in (mockoidc's default user would be someone else).
	_ = provider.AddMiddleware(func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == mockoidc.AuthorizationEndpoint {
				provider.UserQueue.Push(&mockoidc.MockUser{Subject: "dev-teacher", PreferredUsername: devTeacher})
			}
			next.ServeHTTP(w, r)
		})
	})
	if err := provider.Start(ln, nil); err != nil {
		return nil, err
	}
	publicURL := cfg.OIDC.PublicURL
	if publicURL == "" {
		publicURL = "http://" + localAddress(cfg.ListenAddr)
	}
	cfg.OIDC = api.OIDCConfig{Issuer: provider.Issuer(), ClientID: provider.ClientID, ClientSecret: provider.ClientSecret, PublicURL: publicURL}
	return func() { _ = provider.Shutdown() }, nil
}
