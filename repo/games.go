package repo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"primegames/domain"
	"primegames/domain/games"
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

// Game is one game as stored.
type Game struct {
	ID      string
	Kind    string
	Rules   domain.Rules
	Options json.RawMessage
	Status  Status
	// SeatCount is the number of seats: in a lobby the most that may join, afterwards the players.
	SeatCount  int
	Version    int64
	State      domain.State // nil in a lobby
	Seats      []Seat
	Winners    []int
	CreatedAt  time.Time
	UpdatedAt  time.Time
	FinishedAt *time.Time

	// ClassroomID is set for a game that belongs to a classroom; its seats are bound to students.
	ClassroomID *string

	seed        int64
	creatorHash []byte
}

// Seat is one player of a game.
type Seat struct {
	Seat      int
	Name      string
	StudentID *string
	JoinedAt  time.Time
}

// Caller is who presented a token for a game.
type Caller struct {
	Seat    int // -1 when the caller holds no seat
	Creator bool
	// Teacher is the teacher of the game's classroom: they see everything (PR-8).
	Teacher   bool
	StudentID string
}

// Anonymous is a caller without a token.
var Anonymous = Caller{Seat: -1}

// HasSeat reports whether the caller plays in the game.
func (c Caller) HasSeat() bool { return c.Seat >= 0 }

// Games stores games, their seats and their histories.
type Games struct{ db *DB }

// Games returns the game store.
func (db *DB) Games() *Games { return &Games{db: db} }

type querier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

const gameColumns = `id::text, kind, options, status, seat_count, seed, version, snapshot, winners,
	creator_token_hash, created_at, updated_at, finished_at, classroom_id::text`

func scanGame(row pgx.Row, kinds *games.Catalogue) (*Game, error) {
	var g Game
	var snapshot []byte
	var winners []int32
	err := row.Scan(&g.ID, &g.Kind, &g.Options, &g.Status, &g.SeatCount, &g.seed, &g.Version, &snapshot,
		&winners, &g.creatorHash, &g.CreatedAt, &g.UpdatedAt, &g.FinishedAt, &g.ClassroomID)
	if err != nil {
		return nil, err
	}
	kind, ok := kinds.Lookup(g.Kind)
	if !ok {
		return nil, fmt.Errorf("game %s has unknown kind %q", g.ID, g.Kind)
	}
	g.Rules = kind.Rules
	if snapshot != nil {
		if g.State, err = g.Rules.Decode(snapshot); err != nil {
			return nil, fmt.Errorf("game %s snapshot: %w", g.ID, err)
		}
	}
	for _, w := range winners {
		g.Winners = append(g.Winners, int(w))
	}
	return &g, nil
}

func gameNotFound(id string) error {
	return domain.Errorf(domain.KindNotFound, "game_not_found", "There is no game %s.", id)
}

// loadGame reads a game and its seats; with forUpdate it locks the game row until the transaction ends.
func loadGame(ctx context.Context, q querier, kinds *games.Catalogue, id string, forUpdate bool) (*Game, error) {
	sql := `SELECT ` + gameColumns + ` FROM games WHERE id = $1`
	if forUpdate {
		sql += ` FOR UPDATE`
	}
	g, err := scanGame(q.QueryRow(ctx, sql, id), kinds)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, gameNotFound(id)
	}
	if err != nil {
		return nil, err
	}
	rows, err := q.Query(ctx, `SELECT seat, name, student_id::text, joined_at FROM seats WHERE game_id = $1 ORDER BY seat`, id)
	if err != nil {
		return nil, err
	}
	g.Seats, err = pgx.CollectRows(rows, func(r pgx.CollectableRow) (Seat, error) {
		var s Seat
		err := r.Scan(&s.Seat, &s.Name, &s.StudentID, &s.JoinedAt)
		return s, err
	})
	return g, err
}

// identify resolves a token for a game. An empty token is the anonymous caller. A game of a
// classroom exists only for its teacher and its players: anyone else is told it is not found. For
// other games, a token that is not one of the game's is refused.
func identify(ctx context.Context, q querier, g *Game, token string) (Caller, error) {
	caller := Anonymous
	inClassroom := g.ClassroomID != nil
	switch {
	case token == "":
		if inClassroom {
			return caller, gameNotFound(g.ID)
		}
		return caller, nil
	case strings.HasPrefix(token, teacherTokenPrefix):
		var classroomID string
		err := q.QueryRow(ctx, `SELECT id::text FROM classrooms WHERE teacher_token_hash = $1`, hashToken(token)).Scan(&classroomID)
		if errors.Is(err, pgx.ErrNoRows) {
			return caller, refuseToken(g)
		}
		if err != nil {
			return caller, err
		}
		if !inClassroom || *g.ClassroomID != classroomID {
			return caller, refuseToken(g)
		}
		caller.Teacher, caller.Creator = true, true
		return caller, nil
	case strings.HasPrefix(token, studentTokenPrefix):
		var classroomID string
		err := q.QueryRow(ctx, `SELECT id::text, classroom_id::text FROM students WHERE token_hash = $1 AND removed_at IS NULL`,
			hashToken(token)).Scan(&caller.StudentID, &classroomID)
		if errors.Is(err, pgx.ErrNoRows) {
			return Anonymous, refuseToken(g)
		}
		if err != nil {
			return Anonymous, err
		}
		for _, s := range g.Seats {
			if s.StudentID != nil && *s.StudentID == caller.StudentID {
				caller.Seat = s.Seat
			}
		}
		if !inClassroom || *g.ClassroomID != classroomID || (!caller.HasSeat() && g.Status != StatusLobby) {
			return Anonymous, refuseToken(g)
		}
		return caller, nil
	}
	hash := hashToken(token)
	caller.Creator = string(hash) == string(g.creatorHash)
	err := q.QueryRow(ctx, `SELECT seat FROM seats WHERE game_id = $1 AND token_hash = $2`, g.ID, hash).Scan(&caller.Seat)
	if errors.Is(err, pgx.ErrNoRows) {
		if caller.Creator {
			return caller, nil
		}
		return Anonymous, refuseToken(g)
	}
	return caller, err
}

// refuseToken answers a token that does not open this game: a game of a classroom is not found
// (it exists only for its teacher and players), any other game says the token is wrong.
func refuseToken(g *Game) error {
	if g.ClassroomID != nil {
		return gameNotFound(g.ID)
	}
	return domain.Errorf(domain.KindUnauthorized, "unauthorized", "This token does not belong to game %s.", g.ID)
}

// Get reads a game and identifies the caller by token.
func (s *Games) Get(ctx context.Context, id, token string) (*Game, Caller, error) {
	// One connection for the three small reads, rather than one from the pool for each.
	conn, err := s.db.Pool.Acquire(ctx)
	if err != nil {
		return nil, Anonymous, err
	}
	defer conn.Release()
	g, err := loadGame(ctx, conn, s.db.Kinds, id, false)
	if err != nil {
		return nil, Anonymous, err
	}
	caller, err := identify(ctx, conn, g, token)
	return g, caller, err
}

// Load reads a game without identifying anyone.
func (s *Games) Load(ctx context.Context, id string) (*Game, error) {
	return loadGame(ctx, s.db.Pool, s.db.Kinds, id, false)
}
