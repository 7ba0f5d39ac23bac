package repo

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"

	"primegames/domain"
	"primegames/domain/games"
	"primegames/domain/names"
)

// NewGame is what a client asks for when it creates a game: either the players, and the game starts
// at once, or a number of open seats, and the game waits in a lobby.
type NewGame struct {
	Rules     domain.Rules
	Options   json.RawMessage
	Players   []string // names, for a game outside any classroom
	OpenSeats int
	// ClassroomID makes the game belong to a classroom; its players are then Students (IDs), whose
	// own tokens act for their seats.
	ClassroomID string
	Students    []string
	// CreatorStudent is the student creating the game, who must play in it.
	CreatorStudent string
}

// playerCount is the number of players named to start at once.
func (in NewGame) playerCount() int { return len(in.Players) + len(in.Students) }

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
	if err := checkPlayers(in, seats); err != nil {
		return Response{}, err
	}
	if in.Players, err = enforceNames(in.Players); err != nil {
		return Response{}, err
	}
	stored, err := in.idempotency(idem)
	if err != nil {
		return Response{}, err
	}
	var resp Response
	err = s.db.inTx(ctx, func(tx pgx.Tx) error {
		resp, err = idempotentRender(ctx, tx, stored, func() (*Created, error) { return createGame(ctx, tx, s.db.Kinds, in, options) }, render)
		return err
	})
	return resp, err
}

// idempotency binds a creation's Idempotency-Key to the classroom member creating it, if any; the
// member's token is the one the request presented.
func (in NewGame) idempotency(idem *Idempotency) (*storedResponse, error) {
	switch {
	case in.ClassroomID == "":
		return idem.byAnyone("create")
	case in.CreatorStudent == "":
		return idem.byPrincipal("create:classroom:" + in.ClassroomID + ":teacher")
	default:
		return idem.byPrincipal("create:classroom:" + in.ClassroomID + ":student:" + in.CreatorStudent)
	}
}

func checkPlayers(in NewGame, seats domain.SeatRange) error {
	name, players := in.Rules.Name(), in.playerCount()
	switch {
	case in.ClassroomID == "" && len(in.Students) > 0:
		return domain.Invalid("invalid", "Students can be named as players only with a classroom's teacher or student token.")
	case in.ClassroomID != "" && len(in.Players) > 0:
		return domain.Invalid("invalid", "In a classroom, name the players by student_id, not by name.")
	case players > 0 && in.OpenSeats > 0:
		return domain.Invalid("invalid", "Give either players (to start now) or seats (to open a lobby), not both.")
	case players == 0 && in.OpenSeats == 0:
		return domain.Invalid("invalid", "Give the players (to start now) or the number of seats (to open a lobby).")
	case players > 0 && (players < seats.Min || players > seats.Max):
		return domain.Invalid("invalid_seat_count", "%s with these options takes %s; %d were named.", name, playerRange(seats), players)
	case in.OpenSeats > 0 && (in.OpenSeats < seats.Min || in.OpenSeats > seats.Max):
		return domain.Invalid("invalid_seat_count", "%s with these options takes %s; a lobby of %d seats was asked for.", name, playerRange(seats), in.OpenSeats)
	case in.CreatorStudent != "" && len(in.Students) > 0 && !slices.Contains(in.Students, in.CreatorStudent):
		return domain.Invalid("invalid", "A student can create a game only to play in it: put your own student_id among the players.")
	}
	if dup := firstDuplicate(in.Students); dup != "" {
		return domain.Invalid("invalid", "Student %s is named twice; each student takes one seat.", dup)
	}
	return nil
}

func firstDuplicate(ids []string) string {
	seen := map[string]bool{}
	for _, id := range ids {
		if seen[id] {
			return id
		}
		seen[id] = true
	}
	return ""
}

func playerRange(r domain.SeatRange) string {
	if r.Min == r.Max {
		return fmt.Sprintf("%d players", r.Min)
	}
	return fmt.Sprintf("%d to %d players", r.Min, r.Max)
}

// enforceNames brings the players' names to the form they are stored in and refuses two that are
// the same name.
func enforceNames(players []string) ([]string, error) {
	out := make([]string, len(players))
	seen := map[string]bool{}
	for i, name := range players {
		enforced, err := names.Person.Enforce(name)
		if err != nil {
			return nil, err
		}
		key := names.Key(enforced)
		if seen[key] {
			return nil, domain.Invalid("name_taken", "Two players are called %q; give each player a different name.", enforced)
		}
		seen[key] = true
		out[i] = enforced
	}
	return out, nil
}

func createGame(ctx context.Context, tx pgx.Tx, kinds *games.Catalogue, in NewGame, options json.RawMessage) (*Created, error) {
	creatorToken, creatorHash := newToken(creatorTokenPrefix)
	seatCount := in.OpenSeats
	if seatCount == 0 {
		seatCount = in.playerCount()
	}
	var classroom *string
	if in.ClassroomID != "" {
		classroom = &in.ClassroomID
	}
	var id string
	err := tx.QueryRow(ctx, `INSERT INTO games (kind, options, status, seat_count, seed, creator_token_hash, classroom_id)
		VALUES ($1, $2, 'lobby', $3, $4, $5, $6) RETURNING id::text`,
		in.Rules.Name(), options, seatCount, newSeed(), creatorHash, classroom).Scan(&id)
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
	for i, student := range in.Students {
		if err := insertStudentSeat(ctx, tx, id, in.ClassroomID, i, student); err != nil {
			return nil, err
		}
	}
	g, err := loadGame(ctx, tx, kinds, id, true)
	if err != nil {
		return nil, err
	}
	if n := in.playerCount(); n > 0 {
		if err := startGame(ctx, tx, g, n); err != nil {
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

// insertStudentSeat seats a current student of the classroom; the student's own token acts for it.
func insertStudentSeat(ctx context.Context, tx pgx.Tx, gameID, classroomID string, seat int, studentID string) error {
	tag, err := tx.Exec(ctx, `INSERT INTO seats (game_id, seat, name, student_id)
		SELECT $1, $2, name, id FROM students WHERE id = $3::uuid AND classroom_id = $4 AND removed_at IS NULL`,
		gameID, seat, studentID, classroomID)
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return domain.Invalid("unknown_student", "Student %s is not in this classroom.", studentID)
	}
	return nil
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
	if err := saveState(ctx, tx, g, state, seats); err != nil {
		return err
	}
	return notifyEntry(ctx, tx, g.ID, 0)
}

// Join gives a lobby seat to a new player. In a classroom's game the player is the student whose
// token is presented, under their classroom name; elsewhere the player gives a name.
func (s *Games) Join(ctx context.Context, gameID, token, name string, idem *Idempotency, render func(*Joined) (Response, error)) (Response, error) {
	var resp Response
	err := s.db.inTx(ctx, func(tx pgx.Tx) error {
		g, err := loadGame(ctx, tx, s.db.Kinds, gameID, true)
		if err != nil {
			return err
		}
		seat, stored, err := newPlayer(ctx, tx, g, token, name, idem)
		if err != nil {
			return err
		}
		resp, err = idempotentRender(ctx, tx, stored, func() (*Joined, error) { return joinGame(ctx, tx, s.db.Kinds, g, seat) }, render)
		return err
	})
	return resp, err
}

// newPlayer is who asks to join: in a classroom's game the student whose token is presented,
// elsewhere anyone with a name. The Idempotency-Key is bound to them.
func newPlayer(ctx context.Context, tx pgx.Tx, g *Game, token, name string, idem *Idempotency) (Seat, *storedResponse, error) {
	if g.ClassroomID == nil {
		name, err := names.Person.Enforce(name)
		if err != nil {
			return Seat{}, nil, err
		}
		stored, err := idem.byAnyone("join:" + g.ID)
		return Seat{Name: name}, stored, err
	}
	caller, err := requireCaller(ctx, tx, g, token)
	if err != nil {
		return Seat{}, nil, err
	}
	if caller.StudentID == "" {
		return Seat{}, nil, domain.Errorf(domain.KindForbidden, "forbidden", "Only the classroom's students take seats in its games; send your student token.")
	}
	stored, err := idem.byPrincipal("join:" + g.ID + ":student:" + caller.StudentID)
	return Seat{StudentID: &caller.StudentID}, stored, err
}

func joinGame(ctx context.Context, tx pgx.Tx, kinds *games.Catalogue, g *Game, player Seat) (*Joined, error) {
	for _, s := range g.Seats {
		if player.StudentID != nil && s.StudentID != nil && *s.StudentID == *player.StudentID {
			return nil, domain.Errorf(domain.KindConflict, "already_seated", "You already have seat %d in this game.", s.Seat)
		}
	}
	if g.Status != StatusLobby {
		return nil, domain.Errorf(domain.KindConflict, "not_in_lobby", "Game %s has already started; only a game waiting in its lobby takes new players.", g.ID)
	}
	if len(g.Seats) >= g.SeatCount {
		return nil, domain.Errorf(domain.KindConflict, "game_full", "All %d seats of game %s are taken.", g.SeatCount, g.ID)
	}
	for _, s := range g.Seats {
		if player.StudentID == nil && names.Key(s.Name) == names.Key(player.Name) {
			return nil, domain.Errorf(domain.KindConflict, "name_taken", "A player called %q already sits in this game; choose another name.", s.Name)
		}
	}
	seat, token := len(g.Seats), ""
	var err error
	if player.StudentID != nil {
		err = insertStudentSeat(ctx, tx, g.ID, *g.ClassroomID, seat, *player.StudentID)
	} else {
		token, err = insertSeat(ctx, tx, g.ID, seat, player.Name)
	}
	if err != nil {
		return nil, err
	}
	if err := bumpVersion(ctx, tx, g); err != nil {
		return nil, err
	}
	g, err = loadGame(ctx, tx, kinds, g.ID, false)
	if err != nil {
		return nil, err
	}
	return &Joined{Game: g, Seat: SeatToken{Seat: seat, Name: g.Seats[seat].Name, Token: token}}, nil
}

// Start begins a lobby game with the players who have joined.
func (s *Games) Start(ctx context.Context, gameID, token string) (*Game, Caller, error) {
	return s.changeAsCaller(ctx, gameID, token, func(tx pgx.Tx, g *Game, caller Caller) error {
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
		return startGame(ctx, tx, g, len(g.Seats))
	})
}

// Abort ends a game that is not over, at its creator's request.
func (s *Games) Abort(ctx context.Context, gameID, token string) (*Game, Caller, error) {
	return s.changeAsCaller(ctx, gameID, token, func(tx pgx.Tx, g *Game, caller Caller) error {
		if !caller.Creator {
			return domain.Errorf(domain.KindForbidden, "forbidden", "Only the game's creator may abort it; use the creator token returned when the game was created.")
		}
		if g.Status.Over() {
			return domain.Errorf(domain.KindConflict, "game_over", "Game %s is already %s.", g.ID, g.Status)
		}
		if _, err := tx.Exec(ctx, `UPDATE games SET status = 'aborted', version = version + 1, updated_at = now(), finished_at = now() WHERE id = $1`, g.ID); err != nil {
			return err
		}
		return notifyEnd(ctx, tx, g.ID)
	})
}

// changeAsCaller locks a game, identifies the token's holder, lets change act on both in one
// transaction, and returns the game as it is afterwards.
func (s *Games) changeAsCaller(ctx context.Context, gameID, token string, change func(pgx.Tx, *Game, Caller) error) (*Game, Caller, error) {
	var g *Game
	var caller Caller
	err := s.db.inTx(ctx, func(tx pgx.Tx) error {
		var err error
		if g, err = loadGame(ctx, tx, s.db.Kinds, gameID, true); err != nil {
			return err
		}
		if caller, err = requireCaller(ctx, tx, g, token); err != nil {
			return err
		}
		if err := change(tx, g, caller); err != nil {
			return err
		}
		g, err = loadGame(ctx, tx, s.db.Kinds, gameID, false)
		return err
	})
	return g, caller, err
}

// requireCaller is identify for requests that need a token.
func requireCaller(ctx context.Context, q querier, g *Game, token string) (Caller, error) {
	if token == "" {
		if g.ClassroomID != nil {
			return Anonymous, gameNotFound(g.ID)
		}
		return Anonymous, domain.Errorf(domain.KindUnauthorized, "unauthorized", "This request needs a token: send it as Authorization: Bearer <token>.")
	}
	return identify(ctx, q, g, token)
}

func bumpVersion(ctx context.Context, tx pgx.Tx, g *Game) error {
	return tx.QueryRow(ctx, `UPDATE games SET version = version + 1, updated_at = now() WHERE id = $1 RETURNING version, updated_at`, g.ID).
		Scan(&g.Version, &g.UpdatedAt)
}
