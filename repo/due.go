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
// read of a few due games, soonest first, then a claim of one of them by its id.

// dueCondition is the SQL condition under which a game is due for the work at due.Now (the
// service's clock, not the database's), with its arguments as $1, $2, …, and the order in which
// the due games are taken ("ORDER BY …", or none).
func dueCondition(due play.Due) (where, order string, args []any) {
	switch due.Work {
	case play.DueBot:
		return `bot_due_at <= $1`, `ORDER BY bot_due_at`, []any{due.Now}
	case play.DueTurn:
		return `turn_deadline <= $1`, `ORDER BY turn_deadline`, []any{due.Now}
	default: // play.DueAbandoned: any order, so that the two partial indexes serve it unsorted
		// active_minute, never later than updated_at, is what the index holds (migration 00018).
		return `(status = 'lobby' AND created_at <= $1)
			OR (status = 'active' AND active_minute <= $2 AND updated_at <= $2)`, ``,
			[]any{due.Now.Add(-due.LobbyTTL), due.Now.Add(-due.IdleTTL)}
	}
}

// DueGames lists the ids of up to limit games due for the work, soonest first, without locking
// them: another instance's worker may claim them first.
func (s *Games) DueGames(ctx context.Context, due play.Due, limit int) ([]string, error) {
	where, order, args := dueCondition(due)
	rows, err := s.db.Pool.Query(ctx, `SELECT id::text FROM games WHERE `+where+` `+order+
		` LIMIT $`+strconv.Itoa(len(args)+1), append(args, limit)...)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
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
