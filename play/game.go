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

	Seed        int64  `json:"-"`
	CreatorHash []byte `json:"-"`
}

// Seat is one player of a game.
type Seat struct {
	Seat      int
	Name      string
	StudentID *string
	JoinedAt  time.Time
	// Bot is the level of the computer player in this seat, "" for a person.
	Bot       domain.Level
	TokenHash []byte `json:"-"` // nil for a student's seat (the student's own token acts for it) and a bot's
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
		var err error
		if g.State, err = rules.Decode(rec.Snapshot); err != nil {
			return nil, fmt.Errorf("game %s snapshot: %w", rec.ID, err)
		}
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
	// Timeout marks an action the server made for Seat because its turn clock ran out.
	Timeout bool
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
