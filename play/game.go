// Package play is the game master: the lifecycle of games, who may see and do what, applying
// actions through the engines, and what an Idempotency-Key promises. It declares the storage it
// needs (store.go), which package repo implements with SQL; it knows no HTTP.
package play

import (
	"encoding/json"
	"fmt"
	"time"

	"primegames/domain"
)

// Status is where a game is in its life.
type Status string

const (
	StatusLobby    Status = "lobby"
	StatusActive   Status = "active"
	StatusFinished Status = "finished"
	StatusAborted  Status = "aborted"
)

// EndReason says why a game was aborted.
type EndReason string

const (
	EndCreator      EndReason = "creator"       // its creator aborted it
	EndLobbyExpired EndReason = "lobby_expired" // its lobby waited longer than the lobby TTL
	EndIdle         EndReason = "idle"          // nobody acted in it for longer than the idle TTL
)

// Over reports whether the game takes no more actions; everything about it is then visible (PR-8).
func (s Status) Over() bool { return s == StatusFinished || s == StatusAborted }

// GameRecord is one game as stored: the engine's state is still the snapshot's JSON.
type GameRecord struct {
	ID      string
	Kind    string
	Options json.RawMessage
	Status  Status
	// SeatCount is the number of seats: in a lobby the most that may join, afterwards the players.
	SeatCount  int
	Version    int64
	Snapshot   json.RawMessage // null in a lobby
	Seats      []Seat
	Winners    []int
	CreatedAt  time.Time
	UpdatedAt  time.Time
	FinishedAt *time.Time
	// ClassroomID is set for a game that belongs to a classroom; its seats are bound to students.
	ClassroomID *string
	// Settings are the options every kind shares (bot delay, hints).
	Settings Settings
	// RematchID is the game that a rematch of this one created; nil when there is none.
	RematchID *string
	// BotDueAt is when a computer player in a seat to act is due to act; nil when none is.
	BotDueAt *time.Time
	// TurnDeadline is when the server acts for the person to act (G-4); nil when no clock runs.
	TurnDeadline *time.Time
	// EndReason says why an aborted game ended; "" for any other game.
	EndReason EndReason
	// Tally is the game's kept GameTally, as JSON, when it is current (counted up to this version);
	// nil when the game keeps none that is.
	Tally json.RawMessage

	// Private keeps a game outside classrooms out of the public list; its lobby is joined with
	// InviteCode (or by its creator).
	Private    bool
	InviteCode string `json:"-"`

	Seed        int64  `json:"-"`
	CreatorHash []byte `json:"-"`
	// NextSeq is the seq the game's next history entry takes, as the store read or wrote it last:
	// a hint, which a change relying on it checks first (Store.UpdateUnchanged).
	NextSeq int64 `json:"-"`

	// stamp is the record's stamp as the store gave it (Stamped), shared by the record's copies.
	stamp *RecordStamp
}

// Seat is one player of a game.
type Seat struct {
	Seat      int
	Name      string
	StudentID *string
	JoinedAt  time.Time
	// Bot is the level of the computer player in this seat, "" for a person.
	Bot domain.Level
	// Timeouts counts the seat's turns in a row that the server played when time ran out (G-4).
	Timeouts  int
	TokenHash []byte `json:"-"` // nil for a student's seat (the student's own token acts for it) and a bot's
}

// ComputerOnly reports whether no person holds a seat of the game: computer players hold all of
// them. (A lobby's open seats are for persons: the store counts a game computer-only once active.)
func (g *GameRecord) ComputerOnly() bool {
	if len(g.Seats) == 0 {
		return false
	}
	for _, s := range g.Seats {
		if s.Bot == "" {
			return false
		}
	}
	return true
}

// Game is a stored game with its rules and, once started, its state.
type Game struct {
	GameRecord
	Rules domain.Rules
	State domain.State // nil in a lobby
}

// decodeGame gives a record its rules and decodes its snapshot.
func (s *Service) decodeGame(rec *GameRecord) (*Game, error) { return s.gameWith(rec, nil) }

// gameWith gives a record its rules and its state: state when it is known already, else the decoded
// snapshot.
func (s *Service) gameWith(rec *GameRecord, state domain.State) (*Game, error) {
	kind, ok := s.kinds.Lookup(rec.Kind)
	if !ok {
		return nil, fmt.Errorf("game %s has unknown kind %q", rec.ID, rec.Kind)
	}
	rules := kind.Rules
	g := &Game{GameRecord: *rec, Rules: rules, State: state}
	if state == nil && len(rec.Snapshot) > 0 && string(rec.Snapshot) != "null" {
		if g.State = s.states.find(rec); g.State != nil && rec.Status == StatusActive {
			return g, nil
		}
		var err error
		if g.State, err = rules.Decode(rec.Snapshot); err != nil {
			return nil, fmt.Errorf("game %s snapshot: %w", rec.ID, err)
		}
		s.states.keep(rec, g.State)
	}
	return g, nil
}

// Entry is one recorded step of a game's history: seq 0 is the start, then one entry per accepted
// action.
type Entry struct {
	Seq int64
	// Version is the game's version right after this entry.
	Version   int64
	Seat      *int // nil for the start
	Action    json.RawMessage
	Outcome   json.RawMessage
	Random    []int
	CreatedAt time.Time
	// Service marks an entry the service recorded itself (a resignation, G-3) rather than an
	// action the engine applied: the fold of the history skips it, whatever the kind.
	Service bool
	// Bot is the computer player that made the entry, empty when a person did or for the service's
	// own entries. It is written with the entry: a seat's player can change (G-3).
	Bot domain.Level
	// Timeout marks an action the server took for a person whose time ran out (G-4).
	Timeout bool
	// Key is the Idempotency-Key the action was sent with, kept with the entry it appended; nil
	// without one. It is never shown.
	Key *EntryKey
}

// EntryKey is an Idempotency-Key as the history keeps it: the hash that finds it (bound to the game
// and the caller's token) and the hash of the request, to tell a retry from another request.
type EntryKey struct {
	Lookup      []byte
	RequestHash []byte
}

// Attempt is a refused action, kept for review.
type Attempt struct {
	ID        int64
	Seat      int
	StudentID *string
	Version   int64
	Action    json.RawMessage
	Code      string
	Detail    string
	// Facts are the refusal's facts as JSON (domain.Error.Facts), nil when it has none.
	Facts     json.RawMessage
	CreatedAt time.Time
}

func gameNotFound(id string) error {
	return domain.Errorf(domain.KindNotFound, "game_not_found", "There is no game %s.", id)
}
