package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"primegames/repo/repotest"
)

func TestMigrateCommands(t *testing.T) {
	url := repotest.NewEmptyDatabase(t)
	env := envOf(map[string]string{"DATABASE_URL": url})
	status := func() string {
		var out bytes.Buffer
		if err := run(context.Background(), []string{"migrate", "status"}, env, &out); err != nil {
			t.Fatal(err)
		}
		return out.String()
	}
	if s := status(); !strings.Contains(s, "pending") || strings.Contains(s, "applied") {
		t.Fatalf("fresh database status:\n%s", s)
	}
	migrate := func(cmd string) string {
		var out bytes.Buffer
		if err := run(context.Background(), []string{"migrate", cmd}, env, &out); err != nil {
			t.Fatalf("migrate %s: %v", cmd, err)
		}
		return out.String()
	}
	pending := strings.Count(status(), "pending")
	if out := migrate("up"); strings.Count(out, "  applied  ") != pending {
		t.Fatalf("migrate up on a fresh database applies %d migrations and says:\n%s", pending, out)
	}
	if out := migrate("up"); !strings.HasPrefix(out, "nothing to apply") {
		t.Fatalf("migrate up with nothing pending says %q", out)
	}
	migrate("down")
	if out := migrate("up"); strings.Count(out, "  applied  ") != 1 {
		t.Fatalf("migrate up after down says:\n%s", out)
	}
	if s := status(); strings.Contains(s, "pending") {
		t.Fatalf("after up:\n%s", s)
	}
	if err := run(context.Background(), []string{"migrate", "reset"}, env, nil); err != nil {
		t.Fatal(err)
	}
	if s := status(); strings.Contains(s, "applied") {
		t.Fatalf("after reset:\n%s", s)
	}
	if err := run(context.Background(), []string{"migrate", "sideways"}, env, nil); err != errUsage {
		t.Fatalf("migrate sideways = %v, want usage", err)
	}
}
