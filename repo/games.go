package repo

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5"

	"primegames/play"
)

// Games is every port of play.Stores over Postgres: games, their seats and histories, classrooms
// and their students, statistics, reviews, webhooks.
type Games struct{ db *DB }

// Games returns the game store.
func (db *DB) Games() *Games { return &Games{db: db} }

// Stores are the game store's ports, for play.New.
func (s *Games) Stores() play.Stores {
	return play.Stores{GameReader: s, History: s, Updater: s, Dues: s, ToActBackfill: s, Authorities: s,
		ClassroomStore: s, StatsStore: s, ReviewStore: s, WebhookSubscriptions: s, WebhookOutbox: s, AccountStore: s, AssignmentStore: s, Kept: s,
		Teaching: s, SessionStore: s, CoTeacherStore: s, SignInCodeStore: s, AccountEraser: s, LTIPlatformStore: s, LTILaunchStore: s, ProgressStore: s, LTIGradeStore: s}
}

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

// seatArraysSQL aggregates a game's seats (the game's id is the SQL expression of gameID) into
// one row, the seats' columns as arrays in seat order (NULL arrays for a game without seats), as
// seatArrays receives them.
func seatArraysSQL(gameID string) string {
	return `SELECT array_agg(seat ORDER BY seat) AS seat_numbers, array_agg(name ORDER BY seat) AS seat_names,
			array_agg(student_id::text ORDER BY seat) AS seat_students, array_agg(joined_at ORDER BY seat) AS seat_joined,
			array_agg(token_hash ORDER BY seat) AS seat_hashes, array_agg(coalesce(bot, '') ORDER BY seat) AS seat_bots,
			array_agg(timeouts ORDER BY seat) AS seat_timeouts
		FROM seats WHERE game_id = ` + gameID
}

// seatArrays receives the columns of seatArraysSQL, in their order.
type seatArrays struct {
	numbers, timeouts []int32
	names, bots       []string
	students          []*string
	joined            []time.Time
	hashes            [][]byte
}

func (a *seatArrays) destinations() []any {
	return []any{&a.numbers, &a.names, &a.students, &a.joined, &a.hashes, &a.bots, &a.timeouts}
}

func (a *seatArrays) seats() []play.Seat {
	seats := make([]play.Seat, len(a.numbers))
	for i, n := range a.numbers {
		seats[i] = play.Seat{Seat: int(n), Name: a.names[i], StudentID: a.students[i], JoinedAt: a.joined[i], TokenHash: a.hashes[i], Timeouts: int(a.timeouts[i])}
		setText(&seats[i].Bot, a.bots[i])
	}
	return seats
}

// gameWithSeatsSQL reads a game, its seats and the seq its next entry takes in one statement: one
// statement instead of two is less work for Postgres and for pgx on the hottest read.
var gameWithSeatsSQL = `SELECT ` + gameColumns + `, s.seat_numbers, s.seat_names, s.seat_students, s.seat_joined, s.seat_hashes, s.seat_bots, s.seat_timeouts,
		(SELECT coalesce(max(seq), -1) + 1 FROM actions WHERE game_id = games.id)
	FROM games LEFT JOIN LATERAL (` + seatArraysSQL("games.id") + `) s ON true
	WHERE id = $1`

// game reads a game and its seats in one statement.
func (s *Games) game(ctx context.Context, id string) (*play.GameRecord, error) {
	return readGame(ctx, s.db.Pool, id)
}

// readGame reads a game and its seats in one statement, through the pool or in a transaction.
func readGame(ctx context.Context, q interface {
	QueryRow(context.Context, string, ...any) pgx.Row
}, id string) (*play.GameRecord, error) {
	var row gameRow
	var seats seatArrays
	var next int64
	if err := q.QueryRow(ctx, gameWithSeatsSQL, id).Scan(append(append(row.destinations(), seats.destinations()...), &next)...); err != nil {
		return nil, notFound(err)
	}
	g := row.record()
	g.Seats, g.NextSeq = seats.seats(), next
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
		// A student's own token, or one a sign-in with their code issued (signin_codes.go).
		err = s.db.Pool.QueryRow(ctx, `SELECT classroom_id::text, id::text FROM students WHERE token_hash = $1 AND removed_at IS NULL
			UNION ALL SELECT u.classroom_id::text, u.id::text FROM student_sign_ins i JOIN students u ON u.id = i.student_id
				WHERE i.token_hash = $1 AND u.removed_at IS NULL LIMIT 1`,
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
	return s.db.inGameTx(ctx, now, func(tx *gameTx) error { return fn(tx.ports()) })
}
