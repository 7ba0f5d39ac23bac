package main

import (
	"context"
	"io"
	"log/slog"
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
		cfg.LogLevel != slog.LevelInfo || !cfg.MigrateOnStart || cfg.DBMaxConns != 10 || cfg.DatabaseURL != "" ||
		cfg.StreamLimit != 1000 || cfg.StreamHeartbeat != 15*time.Second || cfg.StreamWriteTimeout != 10*time.Second {
		t.Errorf("defaults = %+v", cfg)
	}
}

func TestConfigParsesEveryVariable(t *testing.T) {
	cfg, err := loadConfig(envOf(map[string]string{
		"LISTEN_ADDR": "127.0.0.1:9000", "DATABASE_URL": "postgres://x", "LOG_LEVEL": "debug",
		"BODY_LIMIT": "1M", "READ_TIMEOUT": "3s", "WRITE_TIMEOUT": "4s", "IDLE_TIMEOUT": "5s",
		"SHUTDOWN_GRACE": "6s", "DB_MAX_CONNS": "7", "MIGRATE_ON_START": "false",
		"STREAM_LIMIT": "8", "STREAM_HEARTBEAT": "9s", "STREAM_WRITE_TIMEOUT": "10s", "ADMIN_TOKEN": "secret",
	}))
	if err != nil {
		t.Fatal(err)
	}
	want := config{ListenAddr: "127.0.0.1:9000", DatabaseURL: "postgres://x", LogLevel: slog.LevelDebug,
		BodyLimitBytes: 1 << 20, ReadTimeout: 3 * time.Second, WriteTimeout: 4 * time.Second,
		IdleTimeout: 5 * time.Second, ShutdownGrace: 6 * time.Second, DBMaxConns: 7, MigrateOnStart: false,
		StreamLimit: 8, StreamHeartbeat: 9 * time.Second, StreamWriteTimeout: 10 * time.Second, AdminToken: "secret"}
	if cfg != want {
		t.Errorf("config = %+v\nwant     %+v", cfg, want)
	}
}

func TestBadConfigFailsInOneClearLine(t *testing.T) {
	for name, value := range map[string]string{
		"SHUTDOWN_GRACE": "soon", "BODY_LIMIT": "huge", "LOG_LEVEL": "loud",
		"DB_MAX_CONNS": "-1", "MIGRATE_ON_START": "maybe", "READ_TIMEOUT": "-3s",
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
