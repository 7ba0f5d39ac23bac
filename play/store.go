package play

import (
	"context"
	"encoding/json"
	"errors"
	"time"
)

// ErrNotFound is what the store answers when the row asked for does not exist.
var ErrNotFound = errors.New("not found")

// ErrStale is what a store answers when a change worked out on a record it kept was not applied,
// because the game is not as the record has it any more (or the change could not be sent at all).
var ErrStale = errors.New("the game changed since its record was kept")

// ErrTaken is what the store answers when a value that must be unique (a join code, a student's
// name in a classroom) is already in use.
var ErrTaken = errors.New("already taken")

// ErrNotRemoved is what the store answers when a student to erase is still in the classroom.
var ErrNotRemoved = errors.New("student not removed")

// Stores are the ports of the storage the game master needs, one per use: each part of the service
// reads through the narrowest it uses, and a test may fill in only those its part calls. Package
// repo implements them all with SQL ((*repo.Games).Stores).
type Stores struct {
	GameReader
	History
	Updater
	Dues
	ToActBackfill
	Authorities
	ClassroomStore
	StatsStore
	ReviewStore
	WebhookSubscriptions
	WebhookOutbox
	AccountStore
	// AssignmentStore keeps assignments (assignments.go).
	AssignmentStore
	// Kept, when the store keeps games' records between requests, lets an action be applied in one
	// round trip (act_kept.go); nil when it keeps none.
	Kept KeptRecords
	// Teaching tells which classrooms an account teaches (teaching.go).
	Teaching Teaching
	// SessionStore keeps accounts' browser sessions (sessions.go).
	SessionStore SessionStore
	// CoTeacherStore keeps classrooms' co-teachers and their invites (coteachers.go).
	CoTeacherStore CoTeacherStore
	// SignInCodeStore keeps the students' sign-in codes (signin_codes.go).
	SignInCodeStore
	// AccountEraser erases accounts (account_erase.go).
	AccountEraser
	// LTI 1.3: registrations, logins under way and the tool's keys; what launches made (lti.go).
	LTIPlatformStore
	LTILaunchStore
	// ProgressStore reads the classrooms' progress and review summaries (progress.go).
	ProgressStore
	// LTIGradeStore keeps the courses' grade services and the grades to send (lti_grades.go).
	LTIGradeStore LTIGradeStore
}

// GameReader reads games and lists them.
type GameReader interface {
	// Game reads a game and its seats.
	Game(ctx context.Context, id string) (*GameRecord, error)
	// Progress reads a game and up to limit entries after seq `after` from one snapshot.
	Progress(ctx context.Context, gameID string, after int64, limit int) (*ProgressRecord, error)
	// ListGames returns up to q.Limit games matching q, newest first.
	ListGames(ctx context.Context, q GameQuery) ([]GameSummary, error)
	// PlayerGames lists the games in which the student of f (StudentID in ClassroomID), or the seat
	// token whose hash is f.SeatTokenHash, holds a seat.
	PlayerGames(ctx context.Context, f GameFilter) ([]PlayerGame, error)
	// TokenGames lists the games a seat or creator token belongs to (its seats, and the games it
	// created with Seat -1), newest first, at most limit.
	TokenGames(ctx context.Context, hash []byte, limit int) ([]TokenGame, error)
	// OpenLobbiesByInviteCode lists the ids of the open lobbies whose invite code is code, two at
	// most (two lobbies that drew the same code at once).
	OpenLobbiesByInviteCode(ctx context.Context, code string) ([]string, error)
}

// History reads games' histories and refused actions.
type History interface {
	// Entries returns up to limit history entries with seq > after, in order.
	Entries(ctx context.Context, gameID string, after int64, limit int) ([]Entry, error)
	// EntriesThrough returns the entries with seq <= through, in order.
	EntriesThrough(ctx context.Context, gameID string, through int64) ([]Entry, error)
	// EachEntry calls fn for every history entry in order, reading them as it goes.
	EachEntry(ctx context.Context, gameID string, fn func(Entry) error) error
	// EntryCount is the number of entries in a game's history, the start included.
	EntryCount(ctx context.Context, gameID string) (int64, error)
	// Attempts lists a game's refused actions, oldest first.
	Attempts(ctx context.Context, gameID string) ([]Attempt, error)
}

// Updater runs the game master's transactions.
type Updater interface {
	// Update runs fn in one transaction, committing when fn returns nil. now is the transaction's
	// time, from the service's clock: the time every change in it records (a game's updated_at, an
	// entry's time, a due time or deadline counted from now) and the time its expiry checks
	// (Idempotency-Keys) compare with; the database's own clock is not read.
	Update(ctx context.Context, now time.Time, fn func(Tx) error) error
}

// Dues finds the games in which the worker has something to do.
type Dues interface {
	// NextDue is the earliest time a bot of any game is due to act or a turn's time runs out; nil
	// when neither is pending.
	NextDue(ctx context.Context) (*time.Time, error)
	// DueGames lists, for each of dues, up to limit games in which the worker's job is due, without
	// locking them, in one round trip. For a bot or a turn's deadline it takes the owners in turn:
	// the soonest due game of each owner with a game due, owners in the order of their keys,
	// starting after due.After and wrapping around; abandoned games come in any order.
	DueGames(ctx context.Context, dues []Due, limit int) ([][]DueGame, error)
	// DueCount is how many games have the work due (for a bot or a turn's deadline), counting no
	// further than atMost.
	DueCount(ctx context.Context, due Due, atMost int) (int, error)
}

// ToActBackfill fills in whose turn it is in games saved before games kept it (FillToAct).
type ToActBackfill interface {
	// GamesWithoutToAct lists, by id, up to limit active games after the id `after` that do not
	// know whose turn it is.
	GamesWithoutToAct(ctx context.Context, after string, limit int) ([]string, error)
	// SetToAct records the seats to act in a game that has none recorded, if it is still at version.
	SetToAct(ctx context.Context, gameID string, version int64, toAct []int) error
}

// Authorities resolves tokens to what they open, and tells which authorities have ended.
type Authorities interface {
	// ClassroomMember resolves a teacher or student token hash to its classroom (and student).
	ClassroomMember(ctx context.Context, kind TokenKind, hash []byte) (classroomID, studentID string, err error)
	// ObserverToken reads the observer token whose hash is hash; ErrNotFound when there is none.
	ObserverToken(ctx context.Context, hash []byte) (*ObserverRecord, error)
	// EndedAuthorities returns, of the token hashes, those that open nothing any more (no
	// classroom's teacher token, no current student's, no observer token unexpired at now), and
	// of the students, those removed.
	EndedAuthorities(ctx context.Context, hashes [][]byte, studentIDs []string, now time.Time) (tokens [][]byte, students []string, err error)
}

// ClassroomStore keeps classrooms and their students.
type ClassroomStore interface {
	// InsertClassroom stores a new classroom; ErrTaken when another has the join code.
	InsertClassroom(ctx context.Context, name, joinCode string, teacherHash []byte) (*Classroom, error)
	// Classroom reads a classroom with its number of current students.
	Classroom(ctx context.Context, id string) (*Classroom, error)
	// ClassroomByJoinCode reads the classroom with the join code, without its student count.
	ClassroomByJoinCode(ctx context.Context, joinCode string) (*Classroom, error)
	// SetJoinCode replaces a classroom's join code; ErrTaken when another has it.
	SetJoinCode(ctx context.Context, classroomID, joinCode string) error
	// InsertStudent adds a student whose token has hash; ErrTaken when a current student's name has
	// the same key.
	InsertStudent(ctx context.Context, classroomID, name, nameKey string, hash []byte) (*StudentRecord, error)
	// Students lists the classroom's current students by name.
	Students(ctx context.Context, classroomID string) ([]StudentRecord, error)
	// RenameStudent renames a current student, on the seats of their games too; ErrNotFound when
	// there is no such student, ErrTaken when another current student's name has the same key.
	RenameStudent(ctx context.Context, classroomID, studentID, name, nameKey string) (*StudentRecord, error)
	// RemoveStudent marks a current student removed; ErrNotFound when there is none.
	RemoveStudent(ctx context.Context, classroomID, studentID string) error
	// EraseStudent replaces a removed student's name, on the seats of their games and in the details
	// of their games' refused actions, by "Erased student <n>", n counting the classroom's erasures;
	// a student erased already stays as they are. ErrNotFound when there is no such student,
	// ErrNotRemoved when the student is current.
	EraseStudent(ctx context.Context, classroomID, studentID string) (*StudentRecord, error)
	// ClassroomPosition reads, for every game of the classroom, its last entry recorded before
	// `before` and whether it had ended by then; with before nil, as of now.
	ClassroomPosition(ctx context.Context, classroomID string, before *time.Time) (*ClassroomPosition, error)
	// EntryTime is when entry seq of a game of the classroom was recorded; ErrNotFound when there
	// is no such entry in the classroom.
	EntryTime(ctx context.Context, classroomID, gameID string, seq int64) (time.Time, error)
}

// Tx is what the game master does inside one transaction, one port per use. A write that returns
// nothing but an error may be sent later, with the next read or the commit: its failure then fails
// that read or the commit, and the transaction is rolled back all the same. A store's transaction
// fills in every port; a part of the service that takes one of them asks for no more.
type Tx struct {
	GameTx
	SeatTx
	ObserverTx
	ScheduleTx
	ClassroomTx
	ResultTx
	WebhookTx
	AssignmentTx
	ProgressTx
	ReviewQueueTx
}

// GameTx reads, locks and changes one game: its steps, its history and its state.
type GameTx interface {
	// LockGame reads a game and its seats and locks it until the transaction ends.
	LockGame(ctx context.Context, id string) (*GameRecord, error)
	// LockGameWithResult is LockGame that also reads, once the game is locked, what is kept under
	// an action's lookup and not yet expired: the history entry appended with it (AppendEntry's
	// Key) or else a result kept in the key's own row by an earlier release; nil when there is
	// none. Requests whose results are kept per game wait for each other on the game's lock, so
	// such a lookup needs no LockResult.
	LockGameWithResult(ctx context.Context, id string, lookup []byte) (*GameRecord, *KeptResult, error)
	// InsertGame stores a new game in its lobby and returns its id: g.ID, or a new random one when
	// g.ID is empty. ErrTaken when a game has that id already.
	InsertGame(ctx context.Context, g NewGameRecord) (string, error)
	// NextSeq is the seq the game's next history entry takes.
	NextSeq(ctx context.Context, gameID string) (int64, error)
	// AppendEntry appends e, with the version it produced, to the history (setting its time),
	// announces it on commit and, when a live webhook subscription may want it, writes it to the
	// webhook outbox (WebhookOutbox) in this transaction.
	AppendEntry(ctx context.Context, gameID string, e *Entry) error
	// SaveState stores a new snapshot and status and moves the version on; it updates g.
	SaveState(ctx context.Context, g *GameRecord, change StateChange) error
	// BumpVersion moves the version on after a change of seats; it updates g.
	BumpVersion(ctx context.Context, g *GameRecord) error
	// AbortGame marks the game aborted for reason, moves its version on and announces its end on
	// commit, writing the end to the webhook outbox as AppendEntry does; it updates g.
	AbortGame(ctx context.Context, g *GameRecord, reason EndReason) error
	// RecordAttempt keeps a refused action for review, unless the seat has had keep refusals kept
	// at the same version of the game already.
	RecordAttempt(ctx context.Context, gameID string, a Attempt, keep int) error
	// LinkRematch records a finished game's rematch, moves its version on and announces it on
	// commit, unless the game links to a rematch already.
	LinkRematch(ctx context.Context, gameID, rematchID string) error
}

// SeatTx seats and unseats players in a game, within what a client may hold.
type SeatTx interface {
	// InsertSeat seats a named player whose token has hash (a rematch's seat keeps its player's
	// hash from the game before).
	InsertSeat(ctx context.Context, gameID string, seat int, name string, hash []byte) error
	// InsertBotSeat seats a computer player of a level (a domain.Level), which has no token.
	InsertBotSeat(ctx context.Context, gameID string, seat int, name, level string) error
	// HandSeatToBot makes a computer player of level (a domain.Level) play a seat from now on; the
	// seat's token, if it had one, stops working.
	HandSeatToBot(ctx context.Context, gameID string, seat int, level string) error
	// RemoveSeat frees a lobby seat, moving the later seats down by one; its token stops working.
	RemoveSeat(ctx context.Context, gameID string, seat int) error
	// OpenSeatAt moves a lobby's seats from seat on up by one, for a new player to take seat.
	OpenSeatAt(ctx context.Context, gameID string, seat int) error
	// InsertStudentSeat seats a current student of the classroom; ErrNotFound when there is none.
	InsertStudentSeat(ctx context.Context, gameID, classroomID string, seat int, studentID string) error
	// InviteCodeInUse reports whether an open lobby has the invite code.
	InviteCodeInUse(ctx context.Context, code string) (bool, error)
	// Holdings counts the games not over that the owner's client and address hold.
	Holdings(ctx context.Context, o Owner) (Holdings, error)
}

// ObserverTx keeps the observer tokens of a game or classroom.
type ObserverTx interface {
	// LiveObserverTokens deletes the target's expired observer tokens and counts the others.
	LiveObserverTokens(ctx context.Context, target ObserverTarget) (int, error)
	// InsertObserverToken stores an observer token whose hash is hash and returns it with its id.
	InsertObserverToken(ctx context.Context, rec ObserverRecord, hash []byte) (ObserverRecord, error)
	// DeleteObserverToken deletes the target's observer token of that id; false when it has none.
	DeleteObserverToken(ctx context.Context, target ObserverTarget, id string) (bool, error)
}

// ScheduleTx is the worker's: it claims a due game and sets when it is next due.
type ScheduleTx interface {
	// ClaimDueGame locks the first of the candidates (from DueGames) that is still due for the
	// work, skipping games other transactions hold, and reads it as LockGame does; ErrNotFound when
	// there is none.
	ClaimDueGame(ctx context.Context, due Due, candidates []string) (*GameRecord, error)
	// ScheduleDeadline sets a game's turn deadline to after from the transaction's now, or clears it
	// when after is nil.
	ScheduleDeadline(ctx context.Context, gameID string, after *time.Duration) error
	// SetTimeouts records how many turns in a row the server has played for a seat (G-4).
	SetTimeouts(ctx context.Context, gameID string, seat, timeouts int) error
	// ScheduleBot sets a game's bot due time to after from the transaction's now, or clears it when
	// after is nil.
	ScheduleBot(ctx context.Context, gameID string, after *time.Duration) error
}

// ClassroomTx replaces a classroom's tokens.
type ClassroomTx interface {
	// SetStudentToken replaces a current student's token hash and returns the student;
	// ErrNotFound when the classroom has no such current student.
	SetStudentToken(ctx context.Context, classroomID, studentID string, hash []byte) (*StudentRecord, error)
	// SetTeacherToken replaces the classroom's teacher token hash, if it is still oldHash;
	// ErrNotFound when it is not.
	SetTeacherToken(ctx context.Context, classroomID string, oldHash, hash []byte) error
}

// ResultTx keeps the results of Idempotency-Keys.
type ResultTx interface {
	// LockResult waits for any other request holding the same idempotency lookup.
	LockResult(ctx context.Context, lookup []byte) error
	// StoredResult reads a result kept for lookup and not yet expired; ErrNotFound when none.
	StoredResult(ctx context.Context, lookup []byte) (requestHash, sealed []byte, err error)
	// StoreResult keeps a sealed result under lookup, replacing an expired one.
	StoreResult(ctx context.Context, lookup, requestHash, sealed []byte) error
}

// WebhookTx copies subscriptions within a change's transaction.
type WebhookTx interface {
	// FollowWebhooks stores subscriptions copied to a rematch (Webhook.FollowedFrom the one
	// copied, which it marks followed), in the rematch's transaction.
	FollowWebhooks(ctx context.Context, copies []Webhook) error
}

// Due names one of the worker's jobs, and so the games in which it is due at Now.
type Due struct {
	Work DueWork
	// Now is the time at which the games are due, the service's clock's.
	Now time.Time
	// LobbyTTL and IdleTTL say, for DueAbandoned, when a lobby and an active game are abandoned.
	LobbyTTL, IdleTTL time.Duration
	// After is the owner (a DueGame's Owner) whose game was served last for this work: the round
	// robin goes on with the owners after it. nil starts from the first.
	After []byte
}

// DueGame is a game in which a job is due, and its owner's key.
type DueGame struct {
	ID    string
	Owner []byte
}

// DueWork is one of the worker's jobs, in the order the worker serves them.
type DueWork int

const (
	DueTurn         DueWork = iota // a turn whose deadline has passed (G-4)
	DueBot                         // a computer player whose move is due, in a game with a person
	DueComputerGame                // a computer player whose move is due, in a game with no person
	DueAbandoned                   // a lobby or active game left alone too long
	dueWorks
)

// String names the work as the metrics do.
func (w DueWork) String() string {
	switch w {
	case DueTurn:
		return "turn"
	case DueBot:
		return "bot"
	case DueComputerGame:
		return "computer_game"
	default:
		return "abandoned"
	}
}

// KeptResult is what an Idempotency-Key holds: the hash of the request it answered and either the
// sealed result (a key's own row) or, for an action's key kept with its history entry, that
// entry's seq.
type KeptResult struct {
	RequestHash []byte
	Sealed      []byte
	EntrySeq    *int64
}

// NewGameRecord is a game to insert.
type NewGameRecord struct {
	ID          string // empty for a new random id
	Kind        string
	Options     json.RawMessage
	SeatCount   int
	Seed        int64
	CreatorHash []byte
	ClassroomID *string
	Settings    Settings
	// Owner is the client the game counts against; OwnerOf, when set, is a game whose owner the new
	// game takes instead (a rematch's).
	Owner   Owner
	OwnerOf string
	// Private keeps a game outside classrooms out of the public list; InviteCode, when set, is
	// what joining its lobby takes.
	Private    bool
	InviteCode string
}

// StateChange is what an accepted step changes in a game.
type StateChange struct {
	Status    Status
	SeatCount int
	Snapshot  json.RawMessage
	Winners   []int
	ToAct     []int // the seats that may act now; empty once the game is over
	// BotDue, when set, is how long from now a computer player in a seat to act is due to act; nil
	// clears the due time.
	BotDue *time.Duration
	// TurnDue, when set, is how long from now the person to act has before the server acts for
	// them (G-4); nil clears the deadline, unless KeepDeadline keeps it as it is.
	TurnDue      *time.Duration
	KeepDeadline bool
	// Tally is the game's GameTally once the change's entry is counted, as JSON; nil keeps none.
	Tally json.RawMessage
}

// ProgressRecord is a game and the next entries of its history, read from one snapshot so they
// agree.
type ProgressRecord struct {
	Game    *GameRecord
	Entries []Entry // up to the limit asked for, after the seq asked for, in order
	// LastSeq is the seq of the game's last entry (-1 before the start), which may lie beyond Entries.
	LastSeq int64
}
