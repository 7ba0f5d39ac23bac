//go:build long

package play_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"primegames/domain/games"
	"primegames/play"
	"primegames/repo"
	"primegames/repo/repotest"
	"primegames/tools/scalefill/fixture"
)

// bigTables are the tables that grow with the games played: no request may read one through. (Kept
// reviews grow too, but the fixture makes none, so their plans here would say nothing.)
var bigTables = map[string]bool{"games": true, "actions": true, "seats": true, "attempts": true, "hints": true, "students": true,
	"classrooms": true}

// Every request path's statements are planned with indexes over a database of tens of thousands of
// games (issue 28): each statement a path sends is explained with the arguments it was sent with
// (writes inside a transaction that is rolled back), and a sequential scan of a table that grows
// with the games played fails the test, naming the path, the statement and the plan. Plans are the
// custom plans of the arguments sent.
func TestLongRequestPathsUseIndexes(t *testing.T) {
	ctx := context.Background()
	statements := &statementLog{}
	db, _ := repotest.NewDBWithOptions(t, repo.PoolOptions{Tracer: statements})
	cfg := fixture.Config{Finished: 15_000, Active: 1_000, Classrooms: 300, Students: 20, ClassGames: 20, ClassActive: 2,
		BigClassStudents: 30, BigClassGames: 500, BigClassActive: 20, RegularGames: 200, LongEntries: 5_000, Pool: 150, Batch: 1_000,
		Workers: 2, Seed: 28}
	rep, err := fixture.Fill(ctx, db.Pool, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("filled %d games, %d entries, in %v", rep.Games, rep.Entries, rep.LoadTime.Round(time.Second))

	master := play.New(db.Games().Stores(), games.All())
	regular := play.IdentifyToken(rep.RegularToken, "")
	student, err := master.Resolve(ctx, play.IdentifyToken(rep.BigClass.StudentTokens[0], ""))
	if err != nil {
		t.Fatal(err)
	}
	mine, _, err := master.MyGames(ctx, regular, play.GameFilter{MyTurn: true, Limit: 1})
	if err != nil || len(mine) == 0 {
		t.Fatalf("the regular player has no game on their turn (%v)", err)
	}
	active := mine[0].ID
	finished := rep.Regular[1]
	long, err := master.Load(ctx, rep.LongGame)
	if err != nil {
		t.Fatal(err)
	}

	paths := []struct {
		name string
		run  func() error
	}{
		{"GET a game", func() error { _, _, err := master.Get(ctx, active, regular); return err }},
		{"GET legal actions", func() error {
			g, caller, err := master.Get(ctx, active, regular)
			if err == nil && g.ChoicesOf(caller.Seat).Actions == nil {
				err = fmt.Errorf("the seat to act has no legal actions")
			}
			return err
		}},
		{"POST an action", func() error {
			g, caller, err := master.Get(ctx, active, regular)
			if err != nil {
				return err
			}
			_, err = master.Act(ctx, play.Action{GameID: active, Action: legalAction(t, g.State, caller.Seat)}, regular, nil)
			return err
		}},
		{"GET /v1/me/games?turn=mine (seat token)", func() error {
			_, _, err := master.MyGames(ctx, regular, play.GameFilter{MyTurn: true, Limit: 50})
			return err
		}},
		{"GET /v1/me/games?turn=mine (student)", func() error {
			_, _, err := master.MyGames(ctx, student, play.GameFilter{MyTurn: true, Limit: 50})
			return err
		}},
		{"GET /v1/me/games (student, page 2)", func() error {
			_, next, err := master.MyGames(ctx, student, play.GameFilter{Limit: 50})
			if err == nil {
				_, _, err = master.MyGames(ctx, student, play.GameFilter{Limit: 50, Cursor: next})
			}
			return err
		}},
		{"a class's game list", func() error {
			_, _, err := master.ListGames(ctx, play.GameFilter{ClassroomID: rep.BigClass.ID, Limit: 50})
			return err
		}},
		{"a class's statistics", func() error { _, err := master.ClassroomStats(ctx, rep.BigClass.ID); return err }},
		{"the worker's search for due games", func() error {
			if _, err := master.ActForDueBot(ctx); err != nil {
				return err
			}
			if _, err := master.ActForExpiredTurn(ctx); err != nil {
				return err
			}
			if _, err := master.AbortAbandonedGame(ctx); err != nil {
				return err
			}
			_, err := master.QueueDepth(ctx)
			return err
		}},
		{"an event stream's resume", func() error { _, err := master.Progress(ctx, rep.LongGame, 4_000, 100); return err }},
		{"a history page", func() error { _, err := master.Entries(ctx, long, 2_500, 101); return err }},
		{"an NDJSON export page", func() error {
			n := 0
			return master.EachEntry(ctx, long, func(play.Entry) error {
				if n++; n > play.ExportPage {
					return errStop
				}
				return nil
			})
		}},
		{"a move review", func() error { _, err := master.Review(ctx, finished, regular); return err }},
	}
	for _, path := range paths {
		sent, err := statements.during(func() error { return path.run() })
		if err != nil && err != errStop {
			t.Fatalf("%s: %v", path.name, err)
		}
		if len(sent) == 0 {
			t.Fatalf("%s sent no statement", path.name)
		}
		for i := range sent {
			st := &sent[i]
			if scan := seqScan(ctx, t, db, st); scan != "" {
				t.Errorf("%s: %s reads %s sequentially:\n%s\n%s", path.name, strings.Join(strings.Fields(st.sql), " "), scan, st.args, st.plan)
			}
		}
	}
}

var errStop = fmt.Errorf("stop")

// statement is one statement sent, with its arguments, and its plan once explained.
type statement struct {
	sql  string
	args []any
	plan string
}

// statementLog is a pgx tracer that keeps the statements sent while it listens.
type statementLog struct {
	mu        sync.Mutex
	listening bool
	sent      []statement
}

func (l *statementLog) during(fn func() error) ([]statement, error) {
	l.mu.Lock()
	l.listening, l.sent = true, nil
	l.mu.Unlock()
	err := fn()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.listening = false
	return l.sent, err
}

func (l *statementLog) keep(sql string, args []any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.listening {
		l.sent = append(l.sent, statement{sql: sql, args: args})
	}
}

func (l *statementLog) TraceQueryStart(ctx context.Context, _ *pgx.Conn, data pgx.TraceQueryStartData) context.Context {
	l.keep(data.SQL, data.Args)
	return ctx
}
func (l *statementLog) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}
func (l *statementLog) TraceBatchStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceBatchStartData) context.Context {
	return ctx
}
func (l *statementLog) TraceBatchQuery(_ context.Context, _ *pgx.Conn, data pgx.TraceBatchQueryData) {
	l.keep(data.SQL, data.Args)
}
func (l *statementLog) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData) {}

// seqScan explains st with its arguments, in a transaction rolled back, and names the big table it
// reads sequentially, "" when none. Statements that cannot be explained (transaction control,
// settings) are passed.
func seqScan(ctx context.Context, t *testing.T, db *repo.DB, st *statement) string {
	t.Helper()
	verb := strings.ToLower(strings.Fields(st.sql)[0])
	switch verb {
	case "begin", "commit", "rollback", "set", "reset", "listen", "unlisten", "notify":
		return ""
	}
	tx, err := db.Pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	var raw []byte
	if err := tx.QueryRow(ctx, "EXPLAIN (FORMAT JSON) "+st.sql, st.args...).Scan(&raw); err != nil {
		t.Fatalf("explain %s: %v", st.sql, err)
	}
	var text []string
	rows, err := tx.Query(ctx, "EXPLAIN "+st.sql, st.args...)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			t.Fatal(err)
		}
		text = append(text, line)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	st.plan = strings.Join(text, "\n")
	var plans []struct {
		Plan planNode `json:"Plan"`
	}
	if err := json.Unmarshal(raw, &plans); err != nil {
		t.Fatal(err)
	}
	for _, p := range plans {
		if table := p.Plan.seqScanned(); table != "" {
			return table
		}
	}
	return ""
}

type planNode struct {
	NodeType string     `json:"Node Type"`
	Relation string     `json:"Relation Name"`
	Plans    []planNode `json:"Plans"`
}

func (n planNode) seqScanned() string {
	if n.NodeType == "Seq Scan" && bigTables[n.Relation] {
		return n.Relation
	}
	for _, c := range n.Plans {
		if table := c.seqScanned(); table != "" {
			return table
		}
	}
	return ""
}
