package repo

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"primegames/domain"
)

// NewGame is what a client asks for when it creates a game: either the players, and the game starts
// at once, or a number of open seats, and the game waits in a lobby.
type NewGame struct {
	Rules     domain.Rules
	Options   json.RawMessage
	Players   []string
	OpenSeats int
}

// SeatToken is a seat's token, returned once when the seat is taken.
type SeatToken struct {
	Seat  int
	Name  string
	Token string
}

// Created is a new game with the tokens that act for it.
type Created struct {
	Game         *Game
	CreatorToken string
	SeatTokens   []SeatToken
}

// Joined is a seat taken in a lobby.
type Joined struct {
	Game *Game
	Seat SeatToken
}

// Create stores a new game and, when its players are named, starts it.
func (s *Games) Create(ctx context.Context, in NewGame, idem *Idempotency, render func(*Created) (Response, error)) (Response, error) {
	options, seats, err := in.Rules.Options(in.Options)
	if err != nil {
		return Response{}, err
	}
	if err := checkSeatCount(in, seats); err != nil {
		return Response{}, err
	}
	if err := checkNames(in.Players); err != nil {
		return Response{}, err
	}
	var resp Response
	err = s.db.inTx(ctx, func(tx pgx.Tx) error {
		resp, err = idempotent(ctx, tx, idem, func() (Response, error) {
			created, err := createGame(ctx, tx, in, options)
			if err != nil {
				return Response{}, err
			}
			return render(created)
		})
		return err
	})
	return resp, err
}

func checkSeatCount(in NewGame, seats domain.SeatRange) error {
	name := in.Rules.Name()
	switch {
	case len(in.Players) > 0 && in.OpenSeats > 0:
		return domain.Invalid("invalid", "Give either players (to start now) or seats (to open a lobby), not both.")
	case len(in.Players) == 0 && in.OpenSeats == 0:
		return domain.Invalid("invalid", "Give the players (to start now) or the number of seats (to open a lobby).")
	case len(in.Players) > 0 && (len(in.Players) < seats.Min || len(in.Players) > seats.Max):
		return domain.Invalid("invalid_seat_count", "%s with these options takes %s; %d were named.", name, playerRange(seats), len(in.Players))
	case in.OpenSeats > 0 && (in.OpenSeats < seats.Min || in.OpenSeats > seats.Max):
		return domain.Invalid("invalid_seat_count", "%s with these options takes %s; a lobby of %d seats was asked for.", name, playerRange(seats), in.OpenSeats)
	}
	return nil
}

func playerRange(r domain.SeatRange) string {
	if r.Min == r.Max {
		return fmt.Sprintf("%d players", r.Min)
	}
	return fmt.Sprintf("%d to %d players", r.Min, r.Max)
}

const maxNameLength = 40

func checkName(name string) error {
	if strings.TrimSpace(name) == "" || name != strings.TrimSpace(name) || len([]rune(name)) > maxNameLength {
		return domain.Invalid("invalid_name", "A player's name must be 1 to %d characters without leading or trailing spaces; %q is not.", maxNameLength, name)
	}
	return nil
}

func checkNames(names []string) error {
	seen := map[string]bool{}
	for _, n := range names {
		if err := checkName(n); err != nil {
			return err
		}
		if seen[strings.ToLower(n)] {
			return domain.Invalid("name_taken", "Two players are called %q; give each player a different name.", n)
		}
		seen[strings.ToLower(n)] = true
	}
	return nil
}

func createGame(ctx context.Context, tx pgx.Tx, in NewGame, options json.RawMessage) (*Created, error) {
	creatorToken, creatorHash := newToken(creatorTokenPrefix)
	seatCount := in.OpenSeats
	if seatCount == 0 {
		seatCount = len(in.Players)
	}
	var id string
	err := tx.QueryRow(ctx, `INSERT INTO games (kind, options, status, seat_count, seed, creator_token_hash)
		VALUES ($1, $2, 'lobby', $3, $4, $5) RETURNING id::text`,
		in.Rules.Name(), options, seatCount, newSeed(), creatorHash).Scan(&id)
	if err != nil {
		return nil, err
	}
	created := &Created{CreatorToken: creatorToken}
	for i, name := range in.Players {
		token, err := insertSeat(ctx, tx, id, i, name)
		if err != nil {
			return nil, err
		}
		created.SeatTokens = append(created.SeatTokens, SeatToken{Seat: i, Name: name, Token: token})
	}
	g, err := loadGame(ctx, tx, id, true)
	if err != nil {
		return nil, err
	}
	if len(in.Players) > 0 {
		if err := startGame(ctx, tx, g, len(in.Players)); err != nil {
			return nil, err
		}
	}
	created.Game = g
	return created, nil
}

func insertSeat(ctx context.Context, tx pgx.Tx, gameID string, seat int, name string) (string, error) {
	token, hash := newToken(seatTokenPrefix)
	_, err := tx.Exec(ctx, `INSERT INTO seats (game_id, seat, name, token_hash) VALUES ($1, $2, $3, $4)`, gameID, seat, name, hash)
	return token, err
}

// startGame deals, shuffles or rolls off (recorded as action 0) and makes the game active.
func startGame(ctx context.Context, tx pgx.Tx, g *Game, seats int) error {
	state, outcome, random, err := domain.StartRecorded(g.Rules, g.Options, seats, domain.SeededRand(uint64(g.seed), 0))
	if err != nil {
		return err
	}
	if _, err := appendEntry(ctx, tx, g.ID, 0, nil, json.RawMessage(`{"type":"start"}`), outcome, random); err != nil {
		return err
	}
	return saveState(ctx, tx, g, state, seats)
}

// Join gives a lobby seat to a new player.
func (s *Games) Join(ctx context.Context, gameID, name string, idem *Idempotency, render func(*Joined) (Response, error)) (Response, error) {
	if err := checkName(name); err != nil {
		return Response{}, err
	}
	var resp Response
	err := s.db.inTx(ctx, func(tx pgx.Tx) error {
		g, err := loadGame(ctx, tx, gameID, true)
		if err != nil {
			return err
		}
		resp, err = idempotent(ctx, tx, idem, func() (Response, error) {
			joined, err := joinGame(ctx, tx, g, name)
			if err != nil {
				return Response{}, err
			}
			return render(joined)
		})
		return err
	})
	return resp, err
}

func joinGame(ctx context.Context, tx pgx.Tx, g *Game, name string) (*Joined, error) {
	if g.Status != StatusLobby {
		return nil, domain.Errorf(domain.KindConflict, "not_in_lobby", "Game %s has already started; only a game waiting in its lobby takes new players.", g.ID)
	}
	if len(g.Seats) >= g.SeatCount {
		return nil, domain.Errorf(domain.KindConflict, "game_full", "All %d seats of game %s are taken.", g.SeatCount, g.ID)
	}
	for _, s := range g.Seats {
		if strings.EqualFold(s.Name, name) {
			return nil, domain.Errorf(domain.KindConflict, "name_taken", "A player called %q already sits in this game; choose another name.", s.Name)
		}
	}
	seat := len(g.Seats)
	token, err := insertSeat(ctx, tx, g.ID, seat, name)
	if err != nil {
		return nil, err
	}
	if err := bumpVersion(ctx, tx, g); err != nil {
		return nil, err
	}
	g, err = loadGame(ctx, tx, g.ID, false)
	if err != nil {
		return nil, err
	}
	return &Joined{Game: g, Seat: SeatToken{Seat: seat, Name: name, Token: token}}, nil
}

// Start begins a lobby game with the players who have joined.
func (s *Games) Start(ctx context.Context, gameID, token string) (*Game, Caller, error) {
	var g *Game
	var caller Caller
	err := s.db.inTx(ctx, func(tx pgx.Tx) error {
		var err error
		if g, err = loadGame(ctx, tx, gameID, true); err != nil {
			return err
		}
		if caller, err = requireCaller(ctx, tx, g, token); err != nil {
			return err
		}
		if !caller.Creator && !caller.HasSeat() {
			return domain.Errorf(domain.KindForbidden, "forbidden", "Only the game's creator or one of its players may start it.")
		}
		if g.Status != StatusLobby {
			return domain.Errorf(domain.KindConflict, "not_in_lobby", "Game %s has already started.", g.ID)
		}
		_, seats, err := g.Rules.Options(g.Options)
		if err != nil {
			return err
		}
		if len(g.Seats) < seats.Min {
			return domain.Errorf(domain.KindConflict, "not_enough_players",
				"%s needs at least %d players; %d have joined.", g.Kind, seats.Min, len(g.Seats))
		}
		if err := startGame(ctx, tx, g, len(g.Seats)); err != nil {
			return err
		}
		g, err = loadGame(ctx, tx, gameID, false)
		return err
	})
	return g, caller, err
}

// Abort ends a game that is not over, at its creator's request.
func (s *Games) Abort(ctx context.Context, gameID, token string) (*Game, Caller, error) {
	var g *Game
	var caller Caller
	err := s.db.inTx(ctx, func(tx pgx.Tx) error {
		var err error
		if g, err = loadGame(ctx, tx, gameID, true); err != nil {
			return err
		}
		if caller, err = requireCaller(ctx, tx, g, token); err != nil {
			return err
		}
		if !caller.Creator {
			return domain.Errorf(domain.KindForbidden, "forbidden", "Only the game's creator may abort it; use the creator token returned when the game was created.")
		}
		if g.Status.Over() {
			return domain.Errorf(domain.KindConflict, "game_over", "Game %s is already %s.", g.ID, g.Status)
		}
		if _, err := tx.Exec(ctx, `UPDATE games SET status = 'aborted', version = version + 1, updated_at = now(), finished_at = now() WHERE id = $1`, g.ID); err != nil {
			return err
		}
		g, err = loadGame(ctx, tx, gameID, false)
		return err
	})
	return g, caller, err
}

// requireCaller is identify for requests that need a token.
func requireCaller(ctx context.Context, q querier, g *Game, token string) (Caller, error) {
	if token == "" {
		return Anonymous, domain.Errorf(domain.KindUnauthorized, "unauthorized", "This request needs a token: send it as Authorization: Bearer <token>.")
	}
	return identify(ctx, q, g, token)
}

func bumpVersion(ctx context.Context, tx pgx.Tx, g *Game) error {
	return tx.QueryRow(ctx, `UPDATE games SET version = version + 1, updated_at = now() WHERE id = $1 RETURNING version, updated_at`, g.ID).
		Scan(&g.Version, &g.UpdatedAt)
}
