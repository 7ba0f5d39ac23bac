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
	creator_token_hash, created_at, updated_at, finished_at, classroom_id::text, bot_delay_ms, hints, bot_due_at, rematch_id::text,
	coalesce(turn_seconds, 0), turn_deadline, coalesce(end_reason, ''), private, coalesce(invite_code, ''), ` + currentTally

// currentTally is a game's kept tally when it is current: counted up to the game's version.
const currentTally = `CASE WHEN tally_version = version THEN tally END`

func scanGame(row pgx.Row) (*play.GameRecord, error) {
	var g gameRow
	if err := row.Scan(g.destinations()...); err != nil {
		return nil, err
	}
	return g.record(), nil
}

// gameRow receives gameColumns, in their order.
type gameRow struct {
	g           play.GameRecord
	winners     []int32
	botDelayMS  int64
	turnSeconds int64
}

// JSON columns are scanned as bytes: into a json.RawMessage, pgx would run json.Unmarshal, which
// checks and copies the whole snapshot on every read.
func (r *gameRow) destinations() []any {
	g := &r.g
	return []any{&g.ID, &g.Kind, (*[]byte)(&g.Options), &g.Status, &g.SeatCount, &g.Seed, &g.Version, (*[]byte)(&g.Snapshot),
		&r.winners, &g.CreatorHash, &g.CreatedAt, &g.UpdatedAt, &g.FinishedAt, &g.ClassroomID, &r.botDelayMS, &g.Settings.Hints, &g.BotDueAt, &g.RematchID,
		&r.turnSeconds, &g.TurnDeadline, &g.EndReason, &g.Private, &g.InviteCode, (*[]byte)(&g.Tally)}
}

func (r *gameRow) record() *play.GameRecord {
	g := r.g
	g.Settings.BotDelay = time.Duration(r.botDelayMS) * time.Millisecond
	g.Settings.TurnTime = time.Duration(r.turnSeconds) * time.Second
	for _, w := range r.winners {
		g.Winners = append(g.Winners, int(w))
	}
	return &g
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
	b.Queue(`SELECT seat, name, student_id::text, joined_at, token_hash, coalesce(bot, ''), timeouts FROM seats WHERE game_id = $1 ORDER BY seat`, id).
		Query(func(rows pgx.Rows) error {
			seats, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (play.Seat, error) {
				var s play.Seat
				err := r.Scan(&s.Seat, &s.Name, &s.StudentID, &s.JoinedAt, &s.TokenHash, &s.Bot, &s.Timeouts)
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

// gameWithSeatsSQL reads a game and its seats in one statement, the seats' columns as arrays in
// seat order: one statement instead of two is less work for Postgres and for pgx on the hottest
// read. A game without seats (a lobby nobody joined) has NULL arrays.
var gameWithSeatsSQL = `SELECT ` + gameColumns + `, s.seat_numbers, s.seat_names, s.seat_students, s.seat_joined, s.seat_hashes, s.seat_bots, s.seat_timeouts
	FROM games LEFT JOIN LATERAL (
		SELECT array_agg(seat ORDER BY seat) AS seat_numbers, array_agg(name ORDER BY seat) AS seat_names,
			array_agg(student_id::text ORDER BY seat) AS seat_students, array_agg(joined_at ORDER BY seat) AS seat_joined,
			array_agg(token_hash ORDER BY seat) AS seat_hashes, array_agg(coalesce(bot, '') ORDER BY seat) AS seat_bots,
			array_agg(timeouts ORDER BY seat) AS seat_timeouts
		FROM seats WHERE game_id = games.id) s ON true
	WHERE id = $1`

// game reads a game and its seats in one statement.
func (s *Games) game(ctx context.Context, id string) (*play.GameRecord, error) {
	var row gameRow
	var seatNumbers, timeouts []int32
	var names, bots []string
	var students []*string
	var joined []time.Time
	var hashes [][]byte
	err := s.db.Pool.QueryRow(ctx, gameWithSeatsSQL, id).Scan(append(row.destinations(),
		&seatNumbers, &names, &students, &joined, &hashes, &bots, &timeouts)...)
	if err != nil {
		return nil, notFound(err)
	}
	g := row.record()
	g.Seats = make([]play.Seat, len(seatNumbers))
	for i, n := range seatNumbers {
		g.Seats[i] = play.Seat{Seat: int(n), Name: names[i], StudentID: students[i], JoinedAt: joined[i], TokenHash: hashes[i], Timeouts: int(timeouts[i])}
		setText(&g.Seats[i].Bot, bots[i])
	}
	return g, nil
}

// setText stores a text column in a field of a named string type (such as a seat's level) without
// repo naming the type, which belongs to the rules.
func setText[T ~string](field *T, text string) { *field = T(text) }

// ClassroomMember resolves a teacher or student token hash; a removed student's is not found.
func (s *Games) classroomMember(ctx context.Context, kind play.TokenKind, hash []byte) (classroomID, studentID string, err error) {
	if kind == play.TokenTeacher {
		err = s.db.Pool.QueryRow(ctx, `SELECT id::text FROM classrooms WHERE teacher_token_hash = $1`, hash).Scan(&classroomID)
	} else {
		err = s.db.Pool.QueryRow(ctx, `SELECT classroom_id::text, id::text FROM students WHERE token_hash = $1 AND removed_at IS NULL`,
			hash).Scan(&classroomID, &studentID)
	}
	return classroomID, studentID, notFound(err)
}

// NextDue is the earliest due time of any game's bot or turn deadline.
func (s *Games) NextDue(ctx context.Context) (*time.Time, error) {
	var next *time.Time
	err := s.db.Pool.QueryRow(ctx, `SELECT least((SELECT min(bot_due_at) FROM games WHERE bot_due_at IS NOT NULL),
		(SELECT min(turn_deadline) FROM games WHERE turn_deadline IS NOT NULL))`).Scan(&next)
	return next, err
}

// Update runs fn in a transaction whose time is now, committing when fn succeeds.
func (s *Games) Update(ctx context.Context, now time.Time, fn func(play.Tx) error) error {
	return s.db.inGameTx(ctx, now, func(tx *gameTx) error { return fn(tx) })
}
