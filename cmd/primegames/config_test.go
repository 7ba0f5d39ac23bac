package main

import (
	"primegames/api"
	"primegames/play"
	"primegames/repo"

	"context"
	"io"
	"log/slog"
	"net"
	"reflect"
	"strings"
	"testing"
	"time"
)

func envOf(pairs map[string]string) func(string) string {
	return func(k string) string { return pairs[k] }
}

func TestConfigDefaults(t *testing.T) {
	cfg, err := loadConfig(envOf(nil))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.ListenAddr != ":8080" || cfg.BodyLimitBytes != 64<<10 || cfg.ShutdownGrace != 15*time.Second ||
		cfg.LogLevel != slog.LevelInfo || !cfg.MigrateOnStart || cfg.DBMaxConns != 10 || cfg.RecordCacheBytes != repo.DefaultRecordCacheBytes || cfg.DatabaseURL != "" ||
		cfg.StreamLimit != 1000 || cfg.StreamHeartbeat != 15*time.Second || cfg.StreamWriteTimeout != 10*time.Second ||
		cfg.RateLimit != 50 || cfg.RateBurst != 100 || cfg.StreamsPerClient != 20 || cfg.TrustedProxies != nil || cfg.CORSOrigins != nil || cfg.AdminAddr != "" ||
		cfg.LobbyTTL != 24*time.Hour || cfg.IdleGameTTL != 720*time.Hour || cfg.Quotas != play.DefaultQuotas ||
		cfg.WebhookAllowedHosts != nil || cfg.WebhookTimeout != 10*time.Second || cfg.WebhookQuota != 10 || cfg.WebhookConcurrency != 256 ||
		cfg.WebhookAddressQuota != 20 || cfg.WebhookPendingPerSubscription != 1000 || cfg.WebhookPendingPerOwner != 2000 ||
		cfg.SecretKey != "" || cfg.WebhookSecretOverlap != 24*time.Hour || !cfg.WebhookSend ||
		cfg.CodeGuessesPerAddress != 30 || cfg.CodeGuessesPerInstance != 300 || cfg.CodeGuessesPerClass != 100 {
		t.Errorf("defaults = %+v", cfg)
	}
}

func TestConfigParsesEveryVariable(t *testing.T) {
	cfg, err := loadConfig(envOf(map[string]string{
		"LISTEN_ADDR": "127.0.0.1:9000", "DATABASE_URL": "postgres://x", "LOG_LEVEL": "debug",
		"BODY_LIMIT": "1M", "READ_TIMEOUT": "3s", "WRITE_TIMEOUT": "4s", "IDLE_TIMEOUT": "5s",
		"SHUTDOWN_GRACE": "6s", "DB_MAX_CONNS": "7", "DB_STATEMENT_TIMEOUT": "45s", "MIGRATE_ON_START": "false",
		"RECORD_CACHE": "2M", "STREAM_LIMIT": "8", "STREAM_HEARTBEAT": "9s", "STREAM_WRITE_TIMEOUT": "10s", "ADMIN_TOKEN": "secret",
		"RENDER_LIMIT": "3", "RENDER_QUEUE": "0",
		"RATE_LIMIT": "2.5", "RATE_BURST": "11", "STREAM_LIMIT_PER_CLIENT": "12", "TRUSTED_PROXIES": "10.0.0.0/8, 192.0.2.7,2001:db8::/32",
		"CORS_ORIGINS": "https://Dash.Example.org, http://localhost:5173", "ADMIN_ADDR": "127.0.0.1:6060",
		"LOBBY_TTL": "2h", "IDLE_GAME_TTL": "168h",
		"QUOTA_OPEN_GAMES": "13", "QUOTA_COMPUTER_GAMES": "0", "QUOTA_ADDRESS_OPEN_GAMES": "14", "QUOTA_ADDRESS_COMPUTER_GAMES": "15",
		"DB_POOLER": "transaction", "DATABASE_DIRECT_URL": "postgres://y", "DATABASE_REPLICA_URL": "postgres://z",
		"WEBHOOK_ALLOWED_HOSTS": "hooks.example.com, 10.1.0.0/16", "WEBHOOK_TIMEOUT": "3s", "WEBHOOK_QUOTA": "4", "WEBHOOK_CONCURRENCY": "2",
		"WEBHOOK_ADDRESS_QUOTA": "5", "WEBHOOK_PENDING_PER_SUBSCRIPTION": "6", "WEBHOOK_PENDING_PER_OWNER": "0",
		"SECRET_KEY": "0123456789abcdef0123456789abcdef", "WEBHOOK_SECRET_OVERLAP": "1h",
		"WEBHOOK_SEND":             "false",
		"CODE_GUESSES_PER_ADDRESS": "5", "CODE_GUESSES_PER_INSTANCE": "60",
		"CODE_GUESSES_PER_CLASS": "7",
	}))
	if err != nil {
		t.Fatal(err)
	}
	want := config{ListenAddr: "127.0.0.1:9000", DatabaseURL: "postgres://x", LogLevel: slog.LevelDebug,
		BodyLimitBytes: 1 << 20, ReadTimeout: 3 * time.Second, WriteTimeout: 4 * time.Second,
		IdleTimeout: 5 * time.Second, ShutdownGrace: 6 * time.Second, DBMaxConns: 7, DBStatementTimeout: 45 * time.Second, MigrateOnStart: false,
		RecordCacheBytes: 2 << 20, StreamLimit: 8, StreamHeartbeat: 9 * time.Second, StreamWriteTimeout: 10 * time.Second, AdminToken: "secret",
		RenderLimit: 3, RenderQueue: -1,
		RateLimit: 2.5, RateBurst: 11, StreamsPerClient: 12, TrustedProxies: []*net.IPNet{
			{IP: net.IPv4(10, 0, 0, 0).To4(), Mask: net.CIDRMask(8, 32)},
			{IP: net.IPv4(192, 0, 2, 7).To4(), Mask: net.CIDRMask(32, 32)},
			{IP: net.ParseIP("2001:db8::"), Mask: net.CIDRMask(32, 128)},
		},
		CORSOrigins: []string{"https://dash.example.org", "http://localhost:5173"}, AdminAddr: "127.0.0.1:6060",
		LobbyTTL: 2 * time.Hour, IdleGameTTL: 168 * time.Hour,
		Quotas:            play.Quotas{OpenGames: 13, ComputerGames: 0, AddressOpenGames: 14, AddressComputerGames: 15},
		TransactionPooler: true, DatabaseDirectURL: "postgres://y", DatabaseReplicaURL: "postgres://z",
		WebhookAllowedHosts: []string{"hooks.example.com", "10.1.0.0/16"}, WebhookTimeout: 3 * time.Second, WebhookQuota: 4, WebhookConcurrency: 2,
		WebhookAddressQuota: 5, WebhookPendingPerSubscription: 6, WebhookPendingPerOwner: 0,
		SecretKey: "0123456789abcdef0123456789abcdef", WebhookSecretOverlap: time.Hour,
		WebhookSend:           false,
		CodeGuessesPerAddress: 5, CodeGuessesPerInstance: 60, CodeGuessesPerClass: 7}
	if !reflect.DeepEqual(cfg, want) {
		t.Errorf("config = %+v\nwant     %+v", cfg, want)
	}
}

func TestZeroDisablesPerClientLimits(t *testing.T) {
	cfg, err := loadConfig(envOf(map[string]string{"RATE_LIMIT": "0", "STREAM_LIMIT_PER_CLIENT": "0", "RECORD_CACHE": "0"}))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.RateLimit != 0 || cfg.StreamsPerClient != 0 {
		t.Errorf("RATE_LIMIT=0, STREAM_LIMIT_PER_CLIENT=0 gave %v and %d", cfg.RateLimit, cfg.StreamsPerClient)
	}
	if cfg.RecordCacheBytes != -1 {
		t.Errorf("RECORD_CACHE=0 gave %d, want -1 (none kept)", cfg.RecordCacheBytes)
	}
}

func TestBadConfigFailsInOneClearLine(t *testing.T) {
	for name, value := range map[string]string{
		"SHUTDOWN_GRACE": "soon", "BODY_LIMIT": "huge", "LOG_LEVEL": "loud",
		"DB_MAX_CONNS": "-1", "MIGRATE_ON_START": "maybe", "READ_TIMEOUT": "-3s",
		"RATE_LIMIT": "-1", "RATE_BURST": "0", "STREAM_LIMIT_PER_CLIENT": "lots", "TRUSTED_PROXIES": "10.0.0.0/8,proxy.local",
		"DB_POOLER": "session", "RECORD_CACHE": "lots",
	} {
		err := run(context.Background(), []string{"serve"}, envOf(map[string]string{name: value}), io.Discard)
		if err == nil {
			t.Errorf("%s=%s was accepted", name, value)
			continue
		}
		if msg := err.Error(); strings.Contains(msg, "\n") || !strings.Contains(msg, name) || !strings.Contains(msg, value) {
			t.Errorf("%s=%s: error %q should be one line naming the variable and value", name, value, msg)
		}
	}
}

// Behind a pooler in transaction mode, LISTEN and the migrations' session lock would land on
// whichever server connection the pooler picks: the binary refuses to start without a direct address.
func TestTransactionPoolerNeedsADirectAddress(t *testing.T) {
	_, err := loadConfig(envOf(map[string]string{"DB_POOLER": "transaction", "DATABASE_URL": "postgres://pgbouncer:6432/x"}))
	if err == nil || !strings.Contains(err.Error(), "DATABASE_DIRECT_URL") || strings.Contains(err.Error(), "\n") {
		t.Errorf("DB_POOLER=transaction without DATABASE_DIRECT_URL: error %v, want one line naming DATABASE_DIRECT_URL", err)
	}
}

func TestCORSOriginsAreOriginsOrAStar(t *testing.T) {
	cfg, err := loadConfig(envOf(map[string]string{"CORS_ORIGINS": " * "}))
	if err != nil || !reflect.DeepEqual(cfg.CORSOrigins, []string{"*"}) {
		t.Errorf("CORS_ORIGINS=* gave %q, %v", cfg.CORSOrigins, err)
	}
	for _, value := range []string{
		"dash.example.org", "https://dash.example.org/", "https://dash.example.org/app", "ftp://dash.example.org",
		"https://dash.example.org?x=1", "https://user@dash.example.org", "*,https://dash.example.org", "https://*.example.org",
	} {
		_, err := loadConfig(envOf(map[string]string{"CORS_ORIGINS": value}))
		if err == nil || !strings.Contains(err.Error(), "CORS_ORIGINS") {
			t.Errorf("CORS_ORIGINS=%s: err = %v, want a refusal", value, err)
		}
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{nil, {"dance"}, {"migrate"}, {"serve", "extra"}} {
		if err := run(context.Background(), args, envOf(nil), io.Discard); err != errUsage {
			t.Errorf("run(%q) = %v, want the usage error", args, err)
		}
	}
}

func TestUnreachableDatabaseFailsInOneLine(t *testing.T) {
	err := run(context.Background(), []string{"migrate", "status"},
		envOf(map[string]string{"DATABASE_URL": "postgres://nobody@127.0.0.1:1/none?connect_timeout=1"}), io.Discard)
	if err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "cannot reach the database") {
		t.Fatalf("err = %v", err)
	}
}

func TestSignInNeedsItsClientAndPublicURL(t *testing.T) {
	_, err := loadConfig(envOf(map[string]string{"OIDC_ISSUER": "https://accounts.google.com"}))
	if err == nil || !strings.Contains(err.Error(), "OIDC_CLIENT_ID") || !strings.Contains(err.Error(), "PUBLIC_URL") {
		t.Fatalf("err = %v, want it to name OIDC_CLIENT_ID and PUBLIC_URL", err)
	}
	cfg, err := loadConfig(envOf(map[string]string{"OIDC_ISSUER": "https://accounts.google.com", "OIDC_CLIENT_ID": "c",
		"OIDC_CLIENT_SECRET": "s", "PUBLIC_URL": "https://games.example"}))
	if err != nil || cfg.OIDC.Issuer != "https://accounts.google.com" || cfg.OIDC.ClientID != "c" || cfg.OIDC.ClientSecret != "s" || cfg.OIDC.PublicURL != "https://games.example" {
		t.Fatalf("cfg.OIDC = %+v, %v", cfg.OIDC, err)
	}
}

// Named providers besides OIDC_ISSUER's: each needs its issuer and client id, and a good name.
func TestNamedSignInProviders(t *testing.T) {
	cfg, err := loadConfig(envOf(map[string]string{"OIDC_PROVIDERS": "google, ms-school", "PUBLIC_URL": "https://games.example",
		"OIDC_GOOGLE_ISSUER": "https://accounts.google.com", "OIDC_GOOGLE_CLIENT_ID": "g", "OIDC_GOOGLE_CLIENT_SECRET": "gs",
		"OIDC_MS_SCHOOL_ISSUER": "https://login.microsoftonline.com/t/v2.0", "OIDC_MS_SCHOOL_CLIENT_ID": "m"}))
	if err != nil || len(cfg.OIDC.Providers) != 2 || cfg.OIDC.Providers[0] != (api.OIDCProvider{Name: "google", Issuer: "https://accounts.google.com", ClientID: "g", ClientSecret: "gs"}) ||
		cfg.OIDC.Providers[1].Name != "ms-school" || cfg.OIDC.Providers[1].ClientID != "m" {
		t.Fatalf("providers = %+v, %v", cfg.OIDC.Providers, err)
	}
	for _, env := range []map[string]string{
		{"OIDC_PROVIDERS": "google", "PUBLIC_URL": "https://games.example", "OIDC_GOOGLE_ISSUER": "https://accounts.google.com"},
		{"OIDC_PROVIDERS": "Google", "PUBLIC_URL": "https://games.example"},
		{"OIDC_PROVIDERS": "default", "PUBLIC_URL": "https://games.example"},
		{"OIDC_PROVIDERS": "google", "OIDC_GOOGLE_ISSUER": "https://accounts.google.com", "OIDC_GOOGLE_CLIENT_ID": "g"},
	} {
		if _, err := loadConfig(envOf(env)); err == nil || !strings.Contains(err.Error(), "OIDC_") {
			t.Errorf("%v: err = %v, want a configuration error naming the setting", env, err)
		}
	}
}
