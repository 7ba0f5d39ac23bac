package repo

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"primegames/play"
)

// Games is play.Store over Postgres: games, their seats and histories, classrooms and their students.
type Games struct{ db *DB }

// Games returns the game store.
func (db *DB) Games() *Games { return &Games{db: db} }

var _ play.Store = (*Games)(nil)

const gameColumns = `id::text, kind, options, status, seat_count, seed, version, snapshot, winners,
	creator_token_hash, created_at, updated_at, finished_at, classroom_id::text, bot_delay_ms, hints, bot_due_at`

func scanGame(row pgx.Row) (*play.GameRecord, error) {
	var g play.GameRecord
	var winners []int32
	var botDelayMS int64
	err := row.Scan(&g.ID, &g.Kind, &g.Options, &g.Status, &g.SeatCount, &g.Seed, &g.Version, &g.Snapshot,
		&winners, &g.CreatorHash, &g.CreatedAt, &g.UpdatedAt, &g.FinishedAt, &g.ClassroomID, &botDelayMS, &g.Settings.Hints, &g.BotDueAt)
	if err != nil {
		return nil, err
	}
	g.Settings.BotDelay = time.Duration(botDelayMS) * time.Millisecond
	for _, w := range winners {
		g.Winners = append(g.Winners, int(w))
	}
	return &g, nil
}

// gameLoad is a game and its seats asked for in a batch, filled in when the batch's results are read.
type gameLoad struct {
	game *play.GameRecord
}

// queueGame queues the reads of a game and its seats on b; with forUpdate it locks the game row
// until the transaction ends, and the seats are read after the lock is held.
func queueGame(b *pgx.Batch, id string, forUpdate bool) *gameLoad {
	load := &gameLoad{}
	sql := `SELECT ` + gameColumns + ` FROM games WHERE id = $1`
	if forUpdate {
		sql += ` FOR UPDATE`
	}
	b.Queue(sql, id).QueryRow(func(row pgx.Row) error {
		g, err := scanGame(row)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		load.game = g
		return err
	})
	b.Queue(`SELECT seat, name, student_id::text, joined_at, token_hash, coalesce(bot, '') FROM seats WHERE game_id = $1 ORDER BY seat`, id).
		Query(func(rows pgx.Rows) error {
			seats, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (play.Seat, error) {
				var s play.Seat
				err := r.Scan(&s.Seat, &s.Name, &s.StudentID, &s.JoinedAt, &s.TokenHash, &s.Bot)
				return s, err
			})
			if load.game != nil {
				load.game.Seats = seats
			}
			return err
		})
	return load
}

// result is the game read, or play.ErrNotFound.
func (l *gameLoad) result() (*play.GameRecord, error) {
	if l.game == nil {
		return nil, play.ErrNotFound
	}
	return l.game, nil
}

// loadGame reads a game and its seats in one round trip.
func loadGame(ctx context.Context, q interface {
	SendBatch(context.Context, *pgx.Batch) pgx.BatchResults
}, id string) (*play.GameRecord, error) {
	b := &pgx.Batch{}
	load := queueGame(b, id, false)
	if err := q.SendBatch(ctx, b).Close(); err != nil {
		return nil, err
	}
	return load.result()
}

// Game reads a game and its seats.
func (s *Games) Game(ctx context.Context, id string) (*play.GameRecord, error) {
	return loadGame(ctx, s.db.Pool, id)
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

// NextBotDue is the earliest due time of any game's bot.
func (s *Games) NextBotDue(ctx context.Context) (*time.Time, error) {
	var next *time.Time
	err := s.db.Pool.QueryRow(ctx, `SELECT min(bot_due_at) FROM games WHERE bot_due_at IS NOT NULL`).Scan(&next)
	return next, err
}

// Update runs fn in a transaction, committing when fn succeeds.
func (s *Games) Update(ctx context.Context, fn func(play.Tx) error) error {
	return s.db.inGameTx(ctx, func(tx *gameTx) error { return fn(tx) })
}
