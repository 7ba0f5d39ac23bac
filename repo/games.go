package repo

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"primegames/play"
)

// Games is play.Store over Postgres: games, their seats and histories, classrooms and their students.
type Games struct{ db *DB }

// Games returns the game store.
func (db *DB) Games() *Games { return &Games{db: db} }

var _ play.Store = (*Games)(nil)

type querier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

const gameColumns = `id::text, kind, options, status, seat_count, seed, version, snapshot, winners,
	creator_token_hash, created_at, updated_at, finished_at, classroom_id::text`

func scanGame(row pgx.Row) (*play.GameRecord, error) {
	var g play.GameRecord
	var winners []int32
	err := row.Scan(&g.ID, &g.Kind, &g.Options, &g.Status, &g.SeatCount, &g.Seed, &g.Version, &g.Snapshot,
		&winners, &g.CreatorHash, &g.CreatedAt, &g.UpdatedAt, &g.FinishedAt, &g.ClassroomID)
	if err != nil {
		return nil, err
	}
	for _, w := range winners {
		g.Winners = append(g.Winners, int(w))
	}
	return &g, nil
}

// loadGame reads a game and its seats; with forUpdate it locks the game row until the transaction ends.
func loadGame(ctx context.Context, q querier, id string, forUpdate bool) (*play.GameRecord, error) {
	sql := `SELECT ` + gameColumns + ` FROM games WHERE id = $1`
	if forUpdate {
		sql += ` FOR UPDATE`
	}
	g, err := scanGame(q.QueryRow(ctx, sql, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, play.ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	rows, err := q.Query(ctx, `SELECT seat, name, student_id::text, joined_at, token_hash FROM seats WHERE game_id = $1 ORDER BY seat`, id)
	if err != nil {
		return nil, err
	}
	g.Seats, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (play.Seat, error) {
		var s play.Seat
		err := r.Scan(&s.Seat, &s.Name, &s.StudentID, &s.JoinedAt, &s.TokenHash)
		return s, err
	})
	return g, err
}

// Game reads a game and its seats.
func (s *Games) Game(ctx context.Context, id string) (*play.GameRecord, error) {
	// One connection for the two small reads, rather than one from the pool for each.
	conn, err := s.db.Pool.Acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Release()
	return loadGame(ctx, conn, id, false)
}

// ClassroomMember resolves a teacher or student token hash; a removed student's is not found.
func (s *Games) ClassroomMember(ctx context.Context, kind play.TokenKind, hash []byte) (classroomID, studentID string, err error) {
	if kind == play.TokenTeacher {
		err = s.db.Pool.QueryRow(ctx, `SELECT id::text FROM classrooms WHERE teacher_token_hash = $1`, hash).Scan(&classroomID)
	} else {
		err = s.db.Pool.QueryRow(ctx, `SELECT classroom_id::text, id::text FROM students WHERE token_hash = $1 AND removed_at IS NULL`,
			hash).Scan(&classroomID, &studentID)
	}
	return classroomID, studentID, notFound(err)
}

// Update runs fn in a transaction, committing when fn succeeds.
func (s *Games) Update(ctx context.Context, fn func(play.Tx) error) error {
	return s.db.inTx(ctx, func(tx pgx.Tx) error { return fn(gameTx{tx}) })
}
