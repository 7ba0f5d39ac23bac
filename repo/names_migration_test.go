package repo_test

import (
	"context"
	"testing"
)

// Students kept before name keys existed get lower(name) as their key, and the index keeps
// comparing them.
func TestNameKeyMigrationBackfillsStudents(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, m := migratedWithMigrator(t)
	hasNameKey := func() (has bool) {
		t.Helper()
		if err := db.Pool.QueryRow(ctx, `SELECT EXISTS (SELECT FROM information_schema.columns
			WHERE table_name = 'students' AND column_name = 'name_key')`).Scan(&has); err != nil {
			t.Fatal(err)
		}
		return has
	}
	for hasNameKey() {
		if err := m.Down(ctx); err != nil {
			t.Fatal(err)
		}
	}
	_, err := db.Pool.Exec(ctx, `WITH c AS (INSERT INTO classrooms (name, join_code, teacher_token_hash) VALUES ('4C', 'ABCDEF', '\x01') RETURNING id)
		INSERT INTO students (classroom_id, name, token_hash) SELECT id, n, convert_to(n, 'UTF8') FROM c, unnest(ARRAY['Ada', 'BEN Li']) n`)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Up(ctx); err != nil {
		t.Fatal(err)
	}
	var keys []string
	if err := db.Pool.QueryRow(ctx, `SELECT array_agg(name_key ORDER BY name_key) FROM students`).Scan(&keys); err != nil {
		t.Fatal(err)
	}
	if len(keys) != 2 || keys[0] != "ada" || keys[1] != "ben li" {
		t.Errorf("keys = %q, want [ada ben li]", keys)
	}
	_, err = db.Pool.Exec(ctx, `INSERT INTO students (classroom_id, name, name_key, token_hash) SELECT classroom_id, 'ADA', 'ada', '\x02' FROM students LIMIT 1`)
	if err == nil {
		t.Error("a second Ada was stored beside the backfilled one")
	}
}
