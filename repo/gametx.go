package repo

import (
	"context"
	"errors"
	"strconv"

	"github.com/jackc/pgx/v5"

	"primegames/play"
)

// gameTx is play.Tx over one Postgres transaction.
type gameTx struct{ tx pgx.Tx }

func (t gameTx) LockGame(ctx context.Context, id string) (*play.GameRecord, error) {
	return loadGame(ctx, t.tx, id, true)
}

func (t gameTx) InsertGame(ctx context.Context, g play.NewGameRecord) (string, error) {
	var id string
	err := t.tx.QueryRow(ctx, `INSERT INTO games (kind, options, status, seat_count, seed, creator_token_hash, classroom_id)
		VALUES ($1, $2, 'lobby', $3, $4, $5, $6) RETURNING id::text`,
		g.Kind, g.Options, g.SeatCount, g.Seed, g.CreatorHash, g.ClassroomID).Scan(&id)
	return id, err
}

func (t gameTx) InsertSeat(ctx context.Context, gameID string, seat int, name string, hash []byte) error {
	_, err := t.tx.Exec(ctx, `INSERT INTO seats (game_id, seat, name, token_hash) VALUES ($1, $2, $3, $4)`, gameID, seat, name, hash)
	return err
}

func (t gameTx) InsertStudentSeat(ctx context.Context, gameID, classroomID string, seat int, studentID string) error {
	tag, err := t.tx.Exec(ctx, `INSERT INTO seats (game_id, seat, name, student_id)
		SELECT $1, $2, name, id FROM students WHERE id = $3::uuid AND classroom_id = $4 AND removed_at IS NULL`,
		gameID, seat, studentID, classroomID)
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return play.ErrNotFound
	}
	return nil
}

func (t gameTx) NextSeq(ctx context.Context, gameID string) (int64, error) {
	var seq int64
	err := t.tx.QueryRow(ctx, `SELECT coalesce(max(seq), -1) + 1 FROM actions WHERE game_id = $1`, gameID).Scan(&seq)
	return seq, err
}

func (t gameTx) AppendEntry(ctx context.Context, gameID string, e *play.Entry) error {
	if e.Random == nil {
		e.Random = []int{}
	}
	err := t.tx.QueryRow(ctx, `INSERT INTO actions (game_id, seq, version, seat, action, outcome, random) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING created_at`,
		gameID, e.Seq, e.Version, e.Seat, e.Action, e.Outcome, e.Random).Scan(&e.CreatedAt)
	if err != nil {
		return err
	}
	return notify(ctx, t.tx, gameID, strconv.FormatInt(e.Seq, 10))
}

func (t gameTx) SaveState(ctx context.Context, g *play.GameRecord, c play.StateChange) error {
	winners := make([]int32, len(c.Winners))
	for i, w := range c.Winners {
		winners[i] = int32(w)
	}
	err := t.tx.QueryRow(ctx, `UPDATE games SET status = $2, seat_count = $3, snapshot = $4, winners = $5,
			version = version + 1, updated_at = now(),
			finished_at = CASE WHEN $2 = 'finished' THEN now() END
		WHERE id = $1 RETURNING version, updated_at, finished_at`,
		g.ID, c.Status, c.SeatCount, c.Snapshot, winners).Scan(&g.Version, &g.UpdatedAt, &g.FinishedAt)
	if err != nil {
		return err
	}
	g.Status, g.SeatCount, g.Snapshot, g.Winners = c.Status, c.SeatCount, c.Snapshot, c.Winners
	if len(g.Winners) == 0 {
		g.Winners = nil
	}
	return nil
}

func (t gameTx) BumpVersion(ctx context.Context, g *play.GameRecord) error {
	return t.tx.QueryRow(ctx, `UPDATE games SET version = version + 1, updated_at = now() WHERE id = $1 RETURNING version, updated_at`, g.ID).
		Scan(&g.Version, &g.UpdatedAt)
}

func (t gameTx) AbortGame(ctx context.Context, gameID string) error {
	if _, err := t.tx.Exec(ctx, `UPDATE games SET status = 'aborted', version = version + 1, updated_at = now(), finished_at = now() WHERE id = $1`, gameID); err != nil {
		return err
	}
	return notify(ctx, t.tx, gameID, "end")
}

func (t gameTx) RecordAttempt(ctx context.Context, gameID string, a play.Attempt) error {
	_, err := t.tx.Exec(ctx, `INSERT INTO attempts (game_id, seat, version, action, code, detail, facts) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
		gameID, a.Seat, a.Version, a.Action, a.Code, a.Detail, a.Facts)
	return err
}

func (t gameTx) LockResult(ctx context.Context, lookup []byte) error {
	return lockResult(ctx, t.tx, lookup)
}

func (t gameTx) StoredResult(ctx context.Context, lookup []byte) (requestHash, sealed []byte, err error) {
	err = t.tx.QueryRow(ctx, `SELECT request_hash, response FROM idempotency_keys
		WHERE lookup = $1 AND created_at > now() - make_interval(secs => $2)`,
		lookup, IdempotencyKeyLifetime.Seconds()).Scan(&requestHash, &sealed)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil, play.ErrNotFound
	}
	return requestHash, sealed, err
}

func (t gameTx) StoreResult(ctx context.Context, lookup, requestHash, sealed []byte) error {
	// A row that is still there has expired: the key starts afresh.
	_, err := t.tx.Exec(ctx, `INSERT INTO idempotency_keys (lookup, request_hash, response) VALUES ($1, $2, $3)
		ON CONFLICT (lookup) DO UPDATE SET request_hash = excluded.request_hash, response = excluded.response, created_at = now()`,
		lookup, requestHash, sealed)
	return err
}
