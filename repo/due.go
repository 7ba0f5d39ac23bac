package repo

import (
	"context"
	"errors"
	"strconv"

	"github.com/jackc/pgx/v5"

	"primegames/play"
)

// The worker finds due games in two steps, so that no query both locks and spans games (on a
// database sharded by game, such as Citus, a locking query must stay within one shard): a plain
// read of a few due games, one per owner in turn, then a claim of one of them by its id.

// dueCondition is the SQL condition under which a game is due for the work at due.Now (the
// service's clock, not the database's), with its arguments as $1, $2, …, and the column whose
// time it is due at ("" for abandoned games). Each condition implies the predicate of the partial
// index that serves it (migrations 00011, 00018, 00019).
func dueCondition(due play.Due) (where, column string, args []any) {
	switch due.Work {
	case play.DueBot:
		return `bot_due_at IS NOT NULL AND bot_due_at <= $1 AND NOT computer_only`, `bot_due_at`, []any{due.Now}
	case play.DueComputerGame:
		return `bot_due_at IS NOT NULL AND bot_due_at <= $1 AND computer_only`, `bot_due_at`, []any{due.Now}
	case play.DueTurn:
		return `turn_deadline IS NOT NULL AND turn_deadline <= $1`, `turn_deadline`, []any{due.Now}
	default: // play.DueAbandoned: any order, so that the two partial indexes serve it unsorted
		// active_minute, never later than updated_at, is what the index holds (migration 00018).
		// DueGames and DueCount read them through abandonedSQL; a claim by id takes this.
		return `(status = 'lobby' AND created_at <= $1)
			OR (status = 'active' AND active_minute <= $2 AND updated_at <= $2)`, ``,
			[]any{due.Now.Add(-due.LobbyTTL), due.Now.Add(-due.IdleTTL)}
	}
}

// abandonedSQL reads up to $3 abandoned games: lobbies older than $1, active games idle since $2.
// Each condition is its own query with its own LIMIT, so that each keeps to its partial index
// (games_lobby_created, games_active_minute): written as one OR, Postgres took games_open_owner at
// 9×10⁵ games and filtered every open game on each pass (docs/performance.md, plans at 9×10⁵).
const abandonedSQL = `(SELECT id::text, owner_key FROM games WHERE status = 'lobby' AND created_at <= $1 LIMIT $3)
	UNION ALL
	(SELECT id::text, owner_key FROM games WHERE status = 'active' AND active_minute <= $2 AND updated_at <= $2 LIMIT $3)
	LIMIT $3`

// roundRobinSQL reads, for a timed job, the soonest due game of each owner with one due, owners in
// key order from the first after $n (or from the first of all without `after`), up to $n+1 of them.
// It skips from owner to owner through the index on (owner_key, due column): each step reads the
// next owner's entries only until one is due, so one owner's many due games cost one entry.
func roundRobinSQL(where, column string, nargs int, after bool) string {
	limit, from := "$"+strconv.Itoa(nargs+1), "$"+strconv.Itoa(nargs+2)
	start := `true`
	if after {
		start = `owner_key > ` + from
	}
	pick := func(cond string) string {
		return `SELECT owner_key, id FROM games WHERE ` + where + ` AND ` + cond + ` ORDER BY owner_key, ` + column + ` LIMIT 1`
	}
	return `WITH RECURSIVE o AS ((` + pick(start) + `)
		UNION ALL SELECT n.owner_key, n.id FROM o CROSS JOIN LATERAL (` + pick(`owner_key > o.owner_key`) + `) n)
		SELECT id::text, owner_key FROM o LIMIT ` + limit
}

// DueGames lists, for each of dues, the ids of up to limit games due for its work, without locking
// them (another instance's worker may claim them first), all in one round trip. For a timed job it
// takes one game per owner, the soonest due of each, owners in turn after due.After and then from
// the first (round robin); abandoned games come in any order.
func (s *Games) DueGames(ctx context.Context, dues []play.Due, limit int) ([][]play.DueGame, error) {
	b := &pgx.Batch{}
	type read struct {
		after, wrapped []play.DueGame
		anyOrder       bool // abandoned games: no owners in turn, every due game as read
	}
	reads := make([]read, len(dues))
	collect := func(into *[]play.DueGame) func(pgx.Rows) error {
		return func(rows pgx.Rows) error {
			var err error
			*into, err = pgx.CollectRows(rows, pgx.RowToStructByPos[play.DueGame])
			return err
		}
	}
	for i, due := range dues {
		where, column, args := dueCondition(due)
		switch {
		case column == "":
			reads[i].anyOrder = true
			b.Queue(abandonedSQL, append(args, limit)...).Query(collect(&reads[i].wrapped))
			continue
		case due.After != nil: // the owners after due.After, then from the first, which wraps around
			b.Queue(roundRobinSQL(where, column, len(args), true), append(args, limit, due.After)...).Query(collect(&reads[i].after))
		}
		b.Queue(roundRobinSQL(where, column, len(args), false), append(args, limit)...).Query(collect(&reads[i].wrapped))
	}
	if err := s.db.Pool.SendBatch(ctx, b).Close(); err != nil {
		return nil, err
	}
	out := make([][]play.DueGame, len(dues))
	for i, r := range reads {
		if r.anyOrder {
			out[i] = r.wrapped
			continue
		}
		after := dues[i].After
		seen := map[string]bool{}
		for _, g := range r.after {
			seen[g.ID] = true
		}
		for _, g := range r.wrapped {
			if len(r.after) >= limit {
				break
			}
			if !seen[g.ID] && (after == nil || string(g.Owner) <= string(after)) {
				r.after = append(r.after, g)
			}
		}
		out[i] = r.after
	}
	return out, nil
}

// DueCount is how many games have the work due, counting no further than atMost.
func (s *Games) DueCount(ctx context.Context, due play.Due, atMost int) (int, error) {
	where, column, args := dueCondition(due)
	query := `SELECT FROM games WHERE ` + where + ` LIMIT $` + strconv.Itoa(len(args)+1)
	if column == "" {
		query = abandonedSQL
	}
	var n int
	err := s.db.Pool.QueryRow(ctx, `SELECT count(*) FROM (`+query+`) due`, append(args, atMost)...).Scan(&n)
	return n, err
}

// ClaimDueGame locks the first of the candidates that is still due for the work, skipping those
// another transaction holds (another instance's worker, or a player's action), then reads it as
// LockGame does. Each claim names one game, and Postgres checks the condition again on the row it
// locks, so a game that another worker served after the candidates were read is not taken for due.
func (t *gameTx) ClaimDueGame(ctx context.Context, due play.Due, candidates []string) (*play.GameRecord, error) {
	where, _, args := dueCondition(due)
	claim := `SELECT true FROM games WHERE id = $` + strconv.Itoa(len(args)+1) + ` AND (` + where + `) FOR UPDATE SKIP LOCKED`
	for _, id := range candidates {
		claimed := false
		err := t.one(ctx, claim, append(args, id), func(r pgx.Row) error {
			if err := r.Scan(&claimed); !errors.Is(err, pgx.ErrNoRows) {
				return err
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		if claimed {
			return t.LockGame(ctx, id)
		}
	}
	return nil, play.ErrNotFound
}
