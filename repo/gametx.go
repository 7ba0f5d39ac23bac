package repo

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"primegames/play"
)

// gameTx is play.Tx over one Postgres transaction, sent in as few round trips as it can be: BEGIN
// travels with the first read, and a write whose answer nobody waits for is queued until the next
// read or the COMMIT, which carry it. An accepted action is thus one round trip to lock and read
// the game, and one to write and commit.
//
// A queued write that fails makes the next read or the commit fail, which rolls the transaction
// back as its own failure would have. The statements of a batch are prepared together before any
// runs, so none may refer to a table that one before it in the same batch creates.
type gameTx struct {
	conn  *pgx.Conn
	begun bool
	// now is the transaction's time, from the service's clock (play.Clock): every time the
	// transaction records and every expiry it checks is counted from it, passed as a parameter,
	// never from the database's now(); so a queued write can tell its caller the times it stores.
	now     time.Time
	queued  pgx.Batch
	nextSeq map[string]int64 // by game, for the games this transaction has locked
	// saved are the games whose new state the transaction saved (SaveState), as it left them.
	saved map[string]*play.GameRecord
	// mode is play.ReadingTx (Update's) or play.WriteOnlyTx (UpdateUnchanged's); in the latter,
	// expect is the record of the game the change in one round trip is worked out on: the game it
	// locks, without reading, and every other read answers errNeedsReads.
	mode   play.TxMode
	expect *play.GameRecord
	// appended is the last history entry the transaction appended, if any.
	appended *appendedEntry
}

// appendedEntry is what tells a history entry a transaction appended from any other's.
type appendedEntry struct {
	gameID string
	seq    int64
	seat   *int
	action []byte
}

// ports is the transaction as play's ports.
func (t *gameTx) ports() play.Tx {
	return play.Tx{GameTx: t, SeatTx: t, ObserverTx: t, ScheduleTx: t, ClassroomTx: t, ResultTx: t, WebhookTx: t, AssignmentTx: t, ProgressTx: t, ReviewQueueTx: t}
}

// newGameTx is a transaction on conn whose time is now, cut to whole microseconds as Postgres keeps
// times (and pgx sends them), so that the times it reports are those a later read returns.
func newGameTx(conn *pgx.Conn, now time.Time) *gameTx {
	return &gameTx{conn: conn, now: now.Truncate(time.Microsecond), nextSeq: map[string]int64{}, saved: map[string]*play.GameRecord{}}
}

// send sends, in one round trip, BEGIN if the transaction has not begun, the queued writes, and
// then the queries of b, whose callbacks run in order.
func (t *gameTx) send(ctx context.Context, b *pgx.Batch) error {
	if t.mode == play.WriteOnlyTx {
		return errNeedsReads
	}
	out := &pgx.Batch{}
	if !t.begun {
		out.Queue("begin")
		t.begun = true
	}
	out.QueuedQueries = append(out.QueuedQueries, t.queued.QueuedQueries...)
	t.queued = pgx.Batch{}
	if b != nil {
		out.QueuedQueries = append(out.QueuedQueries, b.QueuedQueries...)
	}
	return t.conn.SendBatch(ctx, out).Close()
}

// one sends a single query with the queued writes.
func (t *gameTx) one(ctx context.Context, sql string, args []any, scan func(pgx.Row) error) error {
	b := &pgx.Batch{}
	b.Queue(sql, args...).QueryRow(scan)
	return t.send(ctx, b)
}

// queue keeps a write for the next round trip, which begins the transaction if it has not begun.
// It fails only as a write sent at once would fail: never, until the round trip that carries it.
func (t *gameTx) queue(_ context.Context, sql string, args ...any) error {
	t.queued.Queue(sql, args...)
	return nil
}

// commit sends the queued writes and COMMIT together. It reports whether a failure left nothing
// committed, so that the transaction may run again: only when the batch was not sent at all. Once
// it was, a lost connection leaves the outcome in doubt.
func (t *gameTx) commit(ctx context.Context) (retry bool, err error) {
	if !t.begun && t.queued.Len() == 0 {
		return false, nil
	}
	b := &pgx.Batch{}
	b.Queue("commit")
	err = t.send(ctx, b)
	switch {
	case err == nil:
		return false, nil
	case pgconn.SafeToRetry(err):
		return true, err
	case connectionLost(err):
		return false, &inDoubt{err: err}
	}
	t.rollback(ctx)
	// A deadlock or serialization conflict rolled the whole batch back.
	return conflicted(err), err
}

// rollback ends a transaction that failed, if the connection is still in one.
func (t *gameTx) rollback(ctx context.Context) {
	if !t.conn.IsClosed() && t.conn.PgConn().TxStatus() != 'I' {
		_, _ = t.conn.Exec(ctx, "rollback")
	}
}

func (t *gameTx) LockGame(ctx context.Context, id string) (*play.GameRecord, error) {
	g, _, err := t.lockGame(ctx, id, nil)
	return g, err
}

func (t *gameTx) LockGameWithResult(ctx context.Context, id string, lookup []byte) (*play.GameRecord, *play.KeptResult, error) {
	return t.lockGame(ctx, id, lookup)
}

// keptEntrySQL finds the latest history entry of a game appended with an Idempotency-Key's lookup
// that has not expired (recorded after $3, the transaction's now less the key's lifetime); the
// game's lock keeps a live key to one entry.
const keptEntrySQL = `SELECT seq, key_request_hash FROM actions
	WHERE game_id = $1 AND key_lookup = $2 AND created_at > $3
	ORDER BY seq DESC LIMIT 1`

// touched is what every change of a game sets besides its own columns: when it changed, at the
// transaction's now (the parameter named by now, such as "$3"), and the minute of that, which the
// worker's search for idle games reads through its index. The minute changes once a minute at most
// while a game is played, so an action's update of its game changes no indexed column and stays a
// heap-only update (migration 00018).
func touched(now string) string {
	return `updated_at = ` + now + `, active_minute = date_trunc('minute', ` + now + `::timestamptz)`
}

// keyAlive is how recently an Idempotency-Key's result must have been kept to be alive: kept after
// the transaction's now less the key's lifetime.
func (t *gameTx) keyAlive() time.Time { return t.now.Add(-IdempotencyKeyLifetime) }

// nextSeqSQL is the seq a game's next history entry takes.
const nextSeqSQL = `SELECT coalesce(max(seq), -1) + 1 FROM actions WHERE game_id = $1`

// afterLockSQL reads in one statement what an action needs besides its game's row, once that row
// is locked by the statement before it, so that it sees whatever the transaction that held the lock
// before committed: the game's seats, the seq its next entry takes and, for an Idempotency-Key's
// lookup ($2; NULL for none), the entry kept under it (keptEntrySQL) and a result an instance of an
// earlier release kept in its own row (until migration 00015, or during a rolling upgrade), for as
// long as it lives (storedResultSQL).
var afterLockSQL = `SELECT s.seat_numbers, s.seat_names, s.seat_students, s.seat_joined, s.seat_hashes, s.seat_bots, s.seat_timeouts,
		(` + nextSeqSQL + `),
		k.seq, k.key_request_hash, r.request_hash, r.response
	FROM (` + seatArraysSQL("$1") + `) s
	LEFT JOIN LATERAL (` + keptEntrySQL + `) k ON true
	LEFT JOIN LATERAL (SELECT request_hash, response FROM idempotency_keys WHERE lookup = $2 AND created_at > $3) r ON true`

// lockGame locks the game row, then reads its seats, the seq its next entry takes and, for a
// lookup, the result kept under it: two statements in one round trip.
func (t *gameTx) lockGame(ctx context.Context, id string, lookup []byte) (*play.GameRecord, *play.KeptResult, error) {
	if t.mode == play.WriteOnlyTx {
		if t.expect.ID != id {
			return nil, nil, errNeedsReads
		}
		// The check sent first locks the row, and fails unless the game is as expected and no
		// entry is kept under the lookup.
		t.nextSeq[id] = t.expect.NextSeq
		return copyRecord(t.expect), nil, nil
	}
	b := &pgx.Batch{}
	var g *play.GameRecord
	b.Queue(`SELECT `+gameColumns+` FROM games WHERE id = $1 FOR UPDATE`, id).QueryRow(func(row pgx.Row) error {
		var err error
		if g, err = scanGame(row); errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		return err
	})
	var seats seatArrays
	var next int64
	var keptSeq *int64
	var keptHash, storedHash, storedResult []byte
	b.Queue(afterLockSQL, id, lookup, t.keyAlive()).QueryRow(func(r pgx.Row) error {
		return r.Scan(append(seats.destinations(), &next, &keptSeq, &keptHash, &storedHash, &storedResult)...)
	})
	if err := t.send(ctx, b); err != nil {
		return nil, nil, err
	}
	if g == nil {
		return nil, nil, play.ErrNotFound
	}
	g.Seats, g.NextSeq = seats.seats(), next
	t.nextSeq[id] = next
	switch {
	case keptSeq != nil:
		return g, &play.KeptResult{EntrySeq: keptSeq, RequestHash: keptHash}, nil
	case storedHash != nil:
		return g, &play.KeptResult{RequestHash: storedHash, Sealed: storedResult}, nil
	}
	return g, nil, nil
}

// InviteCodeInUse reports whether an open lobby has the invite code.
func (t *gameTx) InviteCodeInUse(ctx context.Context, code string) (bool, error) {
	inUse := false
	err := t.one(ctx, `SELECT EXISTS (SELECT FROM games WHERE invite_code = $1 AND status = 'lobby')`, []any{code},
		func(r pgx.Row) error { return r.Scan(&inUse) })
	return inUse, err
}

// InsertGame stores a new game under g.ID, or a random id when it is empty; play.ErrTaken when a
// game has the id already (once the transaction that inserted it has committed).
func (t *gameTx) InsertGame(ctx context.Context, g play.NewGameRecord) (string, error) {
	var id string
	err := t.one(ctx, `INSERT INTO games (id, kind, options, status, seat_count, seed, creator_token_hash, classroom_id, bot_delay_ms, hints, turn_seconds,
			created_at, updated_at, active_minute, owner_key, address_key, private, invite_code)
		VALUES (coalesce($10::uuid, gen_random_uuid()), $1, $2, 'lobby', $3, $4, $5, $6, $7, $8, nullif($9, 0),
			$11, $11, date_trunc('minute', $11::timestamptz),
			coalesce((SELECT owner_key FROM games WHERE id = $14::uuid), `+keyed("$12")+`, '\x'), `+keyed("$13")+`, $15, $16)
		ON CONFLICT (id) DO NOTHING RETURNING id::text`,
		[]any{g.Kind, g.Options, g.SeatCount, g.Seed, g.CreatorHash, g.ClassroomID, g.Settings.BotDelay.Milliseconds(), g.Settings.Hints,
			int64(g.Settings.TurnTime.Seconds()), nullIfEmpty(g.ID), t.now, nullIfEmpty(g.Owner.Client), nullIfEmpty(g.Owner.Address),
			nullIfEmpty(g.OwnerOf), g.Private, nullIfEmpty(g.InviteCode)},
		func(r pgx.Row) error { return r.Scan(&id) })
	if errors.Is(err, pgx.ErrNoRows) {
		return "", play.ErrTaken
	}
	return id, err
}

// keyed is the SQL of the keyed hash of the text parameter param (NULL for NULL): what the games
// table keeps of an owner or an address (migration 00019). A database whose secret was emptied
// (the tests' reused databases) hashes without one rather than give every owner the same key.
func keyed(param string) string {
	return `sha256(coalesce((SELECT secret FROM owner_secret), '\x') || convert_to(` + param + `::text, 'UTF8'))`
}

// Holdings counts the games not over that the owner's client and address hold, and of them the
// active ones with no person in a seat, through the partial indexes of migration 00019. It first
// takes the owner's quota locks, held until the transaction ends, so that creates by one client or
// from one address count one after another: two at once cannot both see room for one more game.
// The client's lock is always taken before the address's, so two creates cannot wait on each other.
func (t *gameTx) Holdings(ctx context.Context, o play.Owner) (play.Holdings, error) {
	var h play.Holdings
	b := &pgx.Batch{}
	b.Queue(lockResultSQL, quotaLockKey("client", o.Client))
	if o.Address != "" {
		b.Queue(lockResultSQL, quotaLockKey("address", o.Address))
	}
	b.Queue(`SELECT
			(SELECT count(*) FROM games WHERE owner_key = `+keyed("$1")+` AND status IN ('lobby', 'active')),
			(SELECT count(*) FROM games WHERE owner_key = `+keyed("$1")+` AND status IN ('lobby', 'active') AND computer_only),
			(SELECT count(*) FROM games WHERE address_key = `+keyed("$2")+` AND status IN ('lobby', 'active')),
			(SELECT count(*) FROM games WHERE address_key = `+keyed("$2")+` AND status IN ('lobby', 'active') AND computer_only)`,
		o.Client, nullIfEmpty(o.Address)).
		QueryRow(func(r pgx.Row) error {
			return r.Scan(&h.ClientOpen, &h.ClientComputer, &h.AddressOpen, &h.AddressComputer)
		})
	return h, t.send(ctx, b)
}

// quotaLockKey names an owner's quota lock by a hash, so not even the lock's parameters carry the
// client or the address.
func quotaLockKey(scope, owner string) int64 {
	sum := sha256.Sum256([]byte("quota\x00" + scope + "\x00" + owner))
	return int64(binary.BigEndian.Uint64(sum[:8]))
}

func nullIfEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func (t *gameTx) InsertSeat(ctx context.Context, gameID string, seat int, name string, hash []byte) error {
	return t.queue(ctx, `INSERT INTO seats (game_id, seat, name, token_hash, joined_at) VALUES ($1, $2, $3, $4, $5)`, gameID, seat, name, hash, t.now)
}

// OpenSeatAt moves the seats from seat on up by one, so that a new player can take seat; in two
// steps, out of the way and back, as RemoveSeat does.
func (t *gameTx) OpenSeatAt(ctx context.Context, gameID string, seat int) error {
	if err := t.queue(ctx, `UPDATE seats SET seat = seat + 1000000 WHERE game_id = $1 AND seat >= $2`, gameID, seat); err != nil {
		return err
	}
	return t.queue(ctx, `UPDATE seats SET seat = seat - 999999 WHERE game_id = $1 AND seat >= 1000000`, gameID)
}

func (t *gameTx) InsertBotSeat(ctx context.Context, gameID string, seat int, name, level string) error {
	return t.queue(ctx, `INSERT INTO seats (game_id, seat, name, bot, joined_at) VALUES ($1, $2, $3, $4, $5)`, gameID, seat, name, level, t.now)
}

// HandSeatToBot makes a computer player of level play a seat from now on; the seat's token, if it
// had one, stops working (a bot's seat has none).
func (t *gameTx) HandSeatToBot(ctx context.Context, gameID string, seat int, level string) error {
	return t.queue(ctx, `UPDATE seats SET bot = $3, token_hash = NULL WHERE game_id = $1 AND seat = $2`, gameID, seat, level)
}

func (t *gameTx) InsertStudentSeat(ctx context.Context, gameID, classroomID string, seat int, studentID string) error {
	var inserted bool
	err := t.one(ctx, `WITH seat AS (INSERT INTO seats (game_id, seat, name, student_id, joined_at)
			SELECT $1, $2, name, id, $5 FROM students WHERE id = $3::uuid AND classroom_id = $4 AND removed_at IS NULL
			RETURNING 1)
		SELECT EXISTS (SELECT FROM seat)`,
		[]any{gameID, seat, studentID, classroomID, t.now}, func(r pgx.Row) error { return r.Scan(&inserted) })
	if err == nil && !inserted {
		return play.ErrNotFound
	}
	return err
}

func (t *gameTx) NextSeq(ctx context.Context, gameID string) (int64, error) {
	if seq, ok := t.nextSeq[gameID]; ok {
		return seq, nil
	}
	var seq int64
	err := t.one(ctx, nextSeqSQL, []any{gameID},
		func(r pgx.Row) error { return r.Scan(&seq) })
	return seq, err
}

func (t *gameTx) AppendEntry(ctx context.Context, gameID string, e *play.Entry) error {
	if e.Random == nil {
		e.Random = []int{}
	}
	var keyLookup, keyRequestHash []byte
	if e.Key != nil {
		keyLookup, keyRequestHash = e.Key.Lookup, e.Key.RequestHash
	}
	// The entry and its outbox row in one statement.
	if err := t.queue(ctx, `WITH entry AS (INSERT INTO actions (game_id, seq, version, seat, action, outcome, random, service, bot, timeout,
			key_lookup, key_request_hash, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, NULLIF($9, ''), $10, $11, $12, $13))
		`+outboxSQL("$13"),
		gameID, e.Seq, e.Version, e.Seat, e.Action, e.Outcome, e.Random, e.Service, string(e.Bot), e.Timeout, keyLookup, keyRequestHash,
		t.now); err != nil {
		return err
	}
	e.CreatedAt = t.now
	if _, ok := t.nextSeq[gameID]; ok {
		t.nextSeq[gameID] = e.Seq + 1
	}
	if g, ok := t.saved[gameID]; ok {
		g.NextSeq = e.Seq + 1
	}
	t.appended = &appendedEntry{gameID: gameID, seq: e.Seq, seat: e.Seat, action: e.Action}
	return nil
}

func (t *gameTx) SaveState(ctx context.Context, g *play.GameRecord, c play.StateChange) error {
	err := t.queue(ctx, `UPDATE games SET status = $2, seat_count = $3, snapshot = $4, winners = $5, to_act = $7,
			version = version + 1, `+touched("$10")+`,
			finished_at = CASE WHEN $2 = 'finished' THEN $10 END,
			bot_due_at = $6,
			turn_deadline = CASE WHEN $9 THEN turn_deadline ELSE $8 END,
			computer_only = $11,
			tally = $12, tally_version = CASE WHEN $12::json IS NULL THEN NULL ELSE version + 1 END
		WHERE id = $1`,
		g.ID, c.Status, c.SeatCount, c.Snapshot, int32s(c.Winners), t.dueAt(c.BotDue), int32s(c.ToAct), t.dueAt(c.TurnDue), c.KeepDeadline, t.now,
		g.ComputerOnly(), []byte(c.Tally))
	if err != nil {
		return err
	}
	g.BotDueAt = t.dueAt(c.BotDue)
	if !c.KeepDeadline {
		g.TurnDeadline = t.dueAt(c.TurnDue)
	}
	// The row is locked, so version + 1 is the version this game had plus one.
	g.Version++
	g.UpdatedAt, g.FinishedAt = t.now, nil
	if c.Status == play.StatusFinished {
		now := t.now
		g.FinishedAt = &now
	}
	g.Status, g.SeatCount, g.Snapshot, g.Winners, g.Tally = c.Status, c.SeatCount, c.Snapshot, c.Winners, c.Tally
	if len(g.Winners) == 0 {
		g.Winners = nil
	}
	t.saved[g.ID] = g
	return nil
}

// RemoveSeat frees a lobby seat and moves the later seats down by one, so that the seats stay
// numbered 0, 1, …; the freed seat's token stops working. The seats move in two steps, out of the
// way and back, because the primary key is checked row by row.
func (t *gameTx) RemoveSeat(ctx context.Context, gameID string, seat int) error {
	if err := t.queue(ctx, `DELETE FROM seats WHERE game_id = $1 AND seat = $2`, gameID, seat); err != nil {
		return err
	}
	if err := t.queue(ctx, `UPDATE seats SET seat = seat + 1000000 WHERE game_id = $1 AND seat > $2`, gameID, seat); err != nil {
		return err
	}
	return t.queue(ctx, `UPDATE seats SET seat = seat - 1000001 WHERE game_id = $1 AND seat > 1000000`, gameID)
}

// LinkRematch records the game's rematch, moves its version on and announces it, unless the game
// links to one already: the first link stands, and is announced once.
func (t *gameTx) LinkRematch(ctx context.Context, gameID, rematchID string) error {
	linked := false
	err := t.one(ctx, `WITH linked AS (UPDATE games SET rematch_id = $2, version = version + 1, `+keepTally+`, `+touched("$3")+`
			WHERE id = $1 AND rematch_id IS NULL RETURNING 1)
		SELECT EXISTS (SELECT FROM linked)`, []any{gameID, rematchID, t.now}, func(r pgx.Row) error { return r.Scan(&linked) })
	return err
}

func (t *gameTx) BumpVersion(ctx context.Context, g *play.GameRecord) error {
	if err := t.queue(ctx, `UPDATE games SET version = version + 1, `+keepTally+`, `+touched("$2")+` WHERE id = $1`, g.ID, t.now); err != nil {
		return err
	}
	g.Version++
	g.UpdatedAt = t.now
	return nil
}

// keepTally keeps a current tally current through a change of version that appends no entry a
// tally counts.
const keepTally = `tally_version = CASE WHEN tally_version = version THEN version + 1 END`

// int32s is seats as the database's int[] takes them, never NULL.
func int32s(seats []int) []int32 {
	out := make([]int32, len(seats))
	for i, s := range seats {
		out[i] = int32(s)
	}
	return out
}

// dueAt is the time after from the transaction's now, nil (NULL: nothing due) for nil.
func (t *gameTx) dueAt(after *time.Duration) *time.Time {
	if after == nil {
		return nil
	}
	at := t.now.Add(*after)
	return &at
}

func (t *gameTx) ScheduleBot(ctx context.Context, gameID string, after *time.Duration) error {
	return t.queue(ctx, `UPDATE games SET bot_due_at = $2 WHERE id = $1`, gameID, t.dueAt(after))
}

func (t *gameTx) ScheduleDeadline(ctx context.Context, gameID string, after *time.Duration) error {
	return t.queue(ctx, `UPDATE games SET turn_deadline = $2 WHERE id = $1`, gameID, t.dueAt(after))
}

func (t *gameTx) SetTimeouts(ctx context.Context, gameID string, seat, timeouts int) error {
	return t.queue(ctx, `UPDATE seats SET timeouts = $3 WHERE game_id = $1 AND seat = $2`, gameID, seat, timeouts)
}

func (t *gameTx) AbortGame(ctx context.Context, g *play.GameRecord, reason play.EndReason) error {
	if err := t.queue(ctx, `UPDATE games SET status = 'aborted', end_reason = $2, version = version + 1, `+keepTally+`, `+touched("$3")+`, finished_at = $3,
			bot_due_at = NULL, turn_deadline = NULL, to_act = '{}' WHERE id = $1`, g.ID, string(reason), t.now); err != nil {
		return err
	}
	now := t.now
	g.Status, g.EndReason, g.FinishedAt, g.UpdatedAt = play.StatusAborted, reason, &now, now
	g.BotDueAt, g.TurnDeadline = nil, nil
	g.Version++
	return t.queueOutbox(ctx, g.ID, -1)
}

func (t *gameTx) SetStudentToken(ctx context.Context, classroomID, studentID string, hash []byte) (*play.StudentRecord, error) {
	st := play.StudentRecord{ID: studentID, ClassroomID: classroomID}
	err := t.one(ctx, `UPDATE students SET token_hash = $3 WHERE id = $2::uuid AND classroom_id = $1 AND removed_at IS NULL
		RETURNING name, created_at`, []any{classroomID, studentID, hash}, func(r pgx.Row) error { return r.Scan(&st.Name, &st.CreatedAt) })
	if err != nil {
		return nil, notFound(err)
	}
	return &st, nil
}

func (t *gameTx) SetTeacherToken(ctx context.Context, classroomID string, oldHash, hash []byte) error {
	return notFound(t.one(ctx, `UPDATE classrooms SET teacher_token_hash = $3 WHERE id = $1 AND teacher_token_hash = $2 RETURNING true`,
		[]any{classroomID, oldHash, hash}, func(r pgx.Row) error { return r.Scan(nil) }))
}

// RecordAttempt counts the seat's attempts at the version through the index of migration 00021 (attempts_position).
func (t *gameTx) RecordAttempt(ctx context.Context, gameID string, a play.Attempt, keep int) error {
	return t.queue(ctx, `INSERT INTO attempts (game_id, seat, version, action, code, detail, facts, created_at)
		SELECT $1, $2, $3, $4, $5, $6, $7, $8
		WHERE (SELECT count(*) FROM attempts WHERE game_id = $1 AND version = $3 AND seat = $2) < $9`,
		gameID, a.Seat, a.Version, a.Action, a.Code, a.Detail, a.Facts, t.now, keep)
}

func (t *gameTx) LockResult(ctx context.Context, lookup []byte) error {
	return t.one(ctx, lockResultSQL, []any{lockResultKey(lookup)}, func(r pgx.Row) error { return r.Scan(nil) })
}

// storedResultSQL reads a result kept under a lookup that has not expired: kept after $2, the
// transaction's now less the key's lifetime.
const storedResultSQL = `SELECT request_hash, response FROM idempotency_keys
	WHERE lookup = $1 AND created_at > $2`

func (t *gameTx) StoredResult(ctx context.Context, lookup []byte) (requestHash, sealed []byte, err error) {
	found := false
	err = t.one(ctx, storedResultSQL, []any{lookup, t.keyAlive()}, func(r pgx.Row) error {
		found = true
		err := r.Scan(&requestHash, &sealed)
		if errors.Is(err, pgx.ErrNoRows) {
			found = false
			return nil
		}
		return err
	})
	if err == nil && !found {
		return nil, nil, play.ErrNotFound
	}
	return requestHash, sealed, err
}

func (t *gameTx) StoreResult(ctx context.Context, lookup, requestHash, sealed []byte) error {
	// A row that is still there has expired: the key starts afresh.
	return t.queue(ctx, `INSERT INTO idempotency_keys (lookup, request_hash, response, created_at) VALUES ($1, $2, $3, $4)
		ON CONFLICT (lookup) DO UPDATE SET request_hash = excluded.request_hash, response = excluded.response, created_at = excluded.created_at`,
		lookup, requestHash, sealed, t.now)
}
