package repo_test

import (
	"context"
	"slices"
	"testing"

	"github.com/jackc/pgx/v5"

	"primegames/repo"
)

// The tables are ready to be distributed by game (README "Scaling"). Each table of the schema is
// classified; in every table kept per game (games by its id, the others by game_id) each primary
// key and unique index includes the game; a foreign key between two such tables joins on the game;
// and no table outside them refers to one of them. A new table or constraint that breaks a rule
// fails here, with what to do about it.
func TestSchemaCanBeShardedByGame(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openEmpty(t)
	if err := newMigrator(t, db).Up(ctx); err != nil {
		t.Fatal(err)
	}
	// Tables replicated to every node (small, rarely written, joined with any game) and tables
	// distributed by a key of their own, never joined with a game's rows.
	reference := []string{"classrooms", "students", "owner_secret", "webhook_subscriptions", "accounts", "account_tokens", "account_sessions", "classroom_co_teachers", "co_teacher_invites",
		"student_sign_ins", "assignments", "assignment_progress"}
	ownKey := map[string]string{"idempotency_keys": "lookup", "observer_tokens": "token_hash", "oidc_logins": "state_hash",
		"progress_days": "classroom_id"}
	local := []string{"goose_db_version"}
	// LTI 1.3 (00045): registrations, courses' and learners' links and the tool's keys are
	// reference tables; a login under way and a hand-over code are found by their own hash.
	reference = append(reference, "lti_platforms", "lti_contexts", "lti_students", "lti_tool_keys")
	ownKey["lti_logins"], ownKey["lti_handovers"] = "state_hash", "code_hash"
	// Grades to the LMS (00070): the sends waiting are a reference table like the assignments
	// they hang on (a row per assignment and student, never joined with a game's rows).
	reference = append(reference, "lti_grade_jobs")
	// The statistics' per-student sums (00075–00077): by classroom, as progress_days.
	for _, table := range []string{"student_sums", "attempt_codes", "attempt_facts", "class_totals", "class_stale"} {
		ownKey[table] = "classroom_id"
	}

	byGame := map[string]string{} // table → its distribution column
	for _, table := range publicTables(t, db) {
		switch {
		case table == "games":
			byGame[table] = "id"
		case slices.Contains(columnsOf(t, db, table), "game_id"):
			byGame[table] = "game_id"
		case slices.Contains(reference, table), ownKey[table] != "", slices.Contains(local, table):
		default:
			t.Errorf("table %s is new: give it a game_id if it is kept per game, or classify it here and in README \"Scaling\"", table)
		}
	}
	if len(byGame) < 6 {
		t.Fatalf("only %d tables kept per game (%v): the check reads the wrong schema", len(byGame), byGame)
	}

	for _, idx := range uniqueIndexes(t, db) {
		if column := byGame[idx.table]; column != "" && !slices.Contains(idx.columns, column) {
			t.Errorf("unique index %s on %s%v leaves out %s: a shard could not enforce it; add the game to it", idx.name, idx.table, idx.columns, column)
		}
		if column := ownKey[idx.table]; column != "" && !slices.Contains(idx.columns, column) {
			t.Errorf("unique index %s on %s%v leaves out its distribution column %s", idx.name, idx.table, idx.columns, column)
		}
	}
	for _, fk := range foreignKeys(t, db) {
		from, to := byGame[fk.table], byGame[fk.refTable]
		switch {
		case to == "":
			// to a reference table: every node has it
		case from == "":
			t.Errorf("foreign key %s from %s, which is not kept per game, to %s, which is", fk.name, fk.table, fk.refTable)
		default:
			at := slices.Index(fk.refColumns, to)
			if at < 0 || fk.columns[at] != from {
				t.Errorf("foreign key %s from %s%v to %s%v does not join on the game (%s = %s): it would reach into another shard",
					fk.name, fk.table, fk.columns, fk.refTable, fk.refColumns, from, to)
			}
		}
	}
}

func publicTables(t *testing.T, db *repo.DB) []string {
	return queryStrings(t, db, `SELECT relname FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind IN ('r', 'p') ORDER BY 1`)
}

func columnsOf(t *testing.T, db *repo.DB, table string) []string {
	return queryStrings(t, db, `SELECT attname FROM pg_attribute WHERE attrelid = ('public.' || $1)::regclass AND attnum > 0 AND NOT attisdropped`, table)
}

func queryStrings(t *testing.T, db *repo.DB, sql string, args ...any) []string {
	t.Helper()
	rows, err := db.Pool.Query(context.Background(), sql, args...)
	if err != nil {
		t.Fatal(err)
	}
	values, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	return values
}

type uniqueIndex struct {
	name, table string
	columns     []string // expressions are left out
}

func uniqueIndexes(t *testing.T, db *repo.DB) []uniqueIndex {
	t.Helper()
	rows, err := db.Pool.Query(context.Background(), `SELECT i.indexrelid::regclass::text, c.relname,
			array(SELECT a.attname FROM unnest(i.indkey) k JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k)
		FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid
		WHERE c.relnamespace = 'public'::regnamespace AND i.indisunique`)
	if err != nil {
		t.Fatal(err)
	}
	indexes, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (uniqueIndex, error) {
		var idx uniqueIndex
		return idx, r.Scan(&idx.name, &idx.table, &idx.columns)
	})
	if err != nil {
		t.Fatal(err)
	}
	return indexes
}

type foreignKey struct {
	name, table, refTable string
	columns, refColumns   []string
}

func foreignKeys(t *testing.T, db *repo.DB) []foreignKey {
	t.Helper()
	rows, err := db.Pool.Query(context.Background(), `SELECT k.conname, c.relname, r.relname,
			array(SELECT a.attname FROM unnest(k.conkey) WITH ORDINALITY u(n, i) JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = u.n ORDER BY u.i),
			array(SELECT a.attname FROM unnest(k.confkey) WITH ORDINALITY u(n, i) JOIN pg_attribute a ON a.attrelid = k.confrelid AND a.attnum = u.n ORDER BY u.i)
		FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class r ON r.oid = k.confrelid
		WHERE k.contype = 'f' AND k.connamespace = 'public'::regnamespace`)
	if err != nil {
		t.Fatal(err)
	}
	keys, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (foreignKey, error) {
		var fk foreignKey
		return fk, r.Scan(&fk.name, &fk.table, &fk.refTable, &fk.columns, &fk.refColumns)
	})
	if err != nil {
		t.Fatal(err)
	}
	return keys
}
