package play

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"primegames/domain"
	"primegames/domain/names"
)

// NewGame is what a client asks for when it creates a game: either the players, and the game starts
// at once, or a number of open seats, and the game waits in a lobby.
type NewGame struct {
	Kind      string
	Options   json.RawMessage
	Players   []string // names, for a game outside any classroom
	OpenSeats int
	// Students are the players of a classroom's game (IDs), whose own tokens act for their seats.
	Students []string
	// Bots are the seats computer players take: the named players or students fill the other
	// seats, in order. A lobby's bots take its first seats.
	Bots []BotSeat
	// Address is the address the request came from, "" when not known: with the token, if any, it
	// names the client whose quotas the game counts against.
	Address string
	// Public lists a game outside classrooms to everyone and lets anyone join its lobby; without
	// it the game is private: listed to nobody, its lobby joined with its invite code.
	Public bool
}

// BotSeat is a computer player asked for in a new game.
type BotSeat struct {
	Seat  int
	Level domain.Level
	Name  string // "" for the default, e.g. "Computer (expert)"
}

// SeatToken is a seat's token, returned once when the seat is taken.
type SeatToken struct {
	Seat  int
	Name  string
	Token string
}

// Created is a new game with the tokens that act for it, and its creator as a caller of it.
// InviteCode is a private lobby's, "" for any other game.
type Created struct {
	Game         *Game
	Creator      Caller
	CreatorToken string
	SeatTokens   []SeatToken
	InviteCode   string
}

type createdRecord struct {
	Game         *GameRecord
	Creator      Caller
	CreatorToken string
	SeatTokens   []SeatToken
	InviteCode   string
}

// Joined is a seat taken in a lobby.
type Joined struct {
	Game *Game
	Seat SeatToken
}

type joinedRecord struct {
	Game *GameRecord
	Seat SeatToken
}

// creation is a game to create, checked, on behalf of a classroom when classroomID is set.
type creation struct {
	NewGame
	rules       domain.Rules
	seats       domain.SeatRange
	classroomID string
	// creatorStudent is the student creating the game, who must play in it.
	creatorStudent string
	settings       Settings
	owner          Owner
}

// people is the number of persons named as players; playerCount adds the computer players.
func (c creation) people() int      { return len(c.Players) + len(c.Students) }
func (c creation) playerCount() int { return c.people() + len(c.Bots) }

// rulesFor finds the rules of a game kind.
func (s *Service) rulesFor(name string) (domain.Rules, error) {
	kind, ok := s.kinds.Lookup(name)
	if !ok {
		return nil, domain.Invalid("invalid", "There is no game called %q.", name)
	}
	return kind.Rules, nil
}

// Create stores a new game and, when its players are named, starts it. A teacher or student token
// makes it a game of their classroom.
func (s *Service) Create(ctx context.Context, in NewGame, p Principal, idem *Idempotency) (*Created, error) {
	if p.Kind == Observer {
		return nil, observerActsOnNothing()
	}
	rules, err := s.rulesFor(in.Kind)
	if err != nil {
		return nil, err
	}
	if p, err = s.authorities.asTeacherOfStudents(ctx, p, in.Students); err != nil { // an account's classroom (teaching.go)
		return nil, err
	}
	member, err := MemberOf(p)
	if err != nil {
		return nil, err
	}
	c := creation{NewGame: in, rules: rules, owner: ownerOf(p, in.Address)}
	creator := Caller{Seat: -1, Creator: true}
	if member != nil {
		c.classroomID, c.creatorStudent = member.ClassroomID, member.StudentID
		creator.Teacher = member.Kind == Teacher
	}
	engineOptions, settings, err := splitSettings(in.Options)
	if err != nil {
		return nil, err
	}
	c.settings = settings
	if c.Options, c.seats, err = rules.Options(engineOptions); err != nil {
		return nil, err
	}
	if err := checkPlayers(c); err != nil {
		return nil, err
	}
	if c.Players, c.Bots, err = enforceNames(c.Players, c.Bots); err != nil {
		return nil, err
	}
	slot, err := c.idempotency(idem, p)
	if err != nil {
		return nil, err
	}
	var rec createdRecord
	err = s.update(ctx, func(tx Tx) error {
		rec, err = idempotent(ctx, tx, slot, func() (createdRecord, error) {
			if err := s.checkQuotas(ctx, tx, c.owner, c.OpenSeats == 0 && c.people() == 0); err != nil {
				return createdRecord{}, err
			}
			out, err := createGame(ctx, tx, c)
			out.Creator = creator
			return out, err
		})
		return err
	})
	if err != nil {
		return nil, err
	}
	s.wakeBotsFor(rec.Game)
	g, err := s.decodeGame(rec.Game)
	return &Created{Game: g, Creator: rec.Creator, CreatorToken: rec.CreatorToken, SeatTokens: rec.SeatTokens, InviteCode: rec.InviteCode}, err
}

// MemberOf is the classroom member a principal is, nil for a principal of no classroom; a teacher
// or student token that is no current member's is refused.
func MemberOf(p Principal) (*Principal, error) {
	switch {
	case p.Kind != Teacher && p.Kind != Student:
		return nil, nil
	case !p.Resolved:
		return nil, domain.Errorf(domain.KindUnauthorized, "unauthorized", "This token is not valid (a removed student's token stops working).")
	}
	return &p, nil
}

// idempotency binds a creation's Idempotency-Key to the classroom member creating it, if any.
func (c creation) idempotency(idem *Idempotency, p Principal) (*resultSlot, error) {
	switch {
	case c.classroomID == "":
		return idem.byAnyone("create")
	case c.creatorStudent == "":
		return idem.byPrincipal(p, "create:classroom:"+c.classroomID+":teacher")
	default:
		return idem.byPrincipal(p, "create:classroom:"+c.classroomID+":student:"+c.creatorStudent)
	}
}

func checkPlayers(c creation) error {
	name, players, seats := c.rules.Name(), c.playerCount(), c.seats
	switch {
	case c.classroomID == "" && len(c.Students) > 0:
		return domain.Invalid("invalid", "Students can be named as players only with a classroom's teacher or student token.")
	case c.classroomID != "" && len(c.Players) > 0:
		return domain.Invalid("invalid", "In a classroom, name the players by student_id, not by name.")
	case c.people() > 0 && c.OpenSeats > 0:
		return domain.Invalid("invalid", "Give either players (to start now) or seats (to open a lobby), not both; a lobby's players may only be computer players.")
	case c.OpenSeats > 0 && len(c.Bots) > c.OpenSeats:
		return domain.Invalid("invalid_seat_count", "A lobby of %d seats cannot hold %d computer players.", c.OpenSeats, len(c.Bots)).
			WithFacts(SeatCountFacts{Min: seats.Min, Max: c.OpenSeats, Seats: len(c.Bots)})
	case players == 0 && c.OpenSeats == 0:
		return domain.Invalid("invalid", "Give the players (to start now) or the number of seats (to open a lobby).")
	case c.OpenSeats == 0 && players > 0 && (players < seats.Min || players > seats.Max):
		return domain.Invalid("invalid_seat_count", "%s with these options takes %s; %d were named.", name, playerRange(seats), players).
			WithFacts(SeatCountFacts{Min: seats.Min, Max: seats.Max, Seats: players})
	case c.OpenSeats > 0 && (c.OpenSeats < seats.Min || c.OpenSeats > seats.Max):
		return domain.Invalid("invalid_seat_count", "%s with these options takes %s; a lobby of %d seats was asked for.", name, playerRange(seats), c.OpenSeats).
			WithFacts(SeatCountFacts{Min: seats.Min, Max: seats.Max, Seats: c.OpenSeats})
	case c.creatorStudent != "" && len(c.Students) > 0 && !slices.Contains(c.Students, c.creatorStudent):
		return domain.Invalid("invalid", "A student can create a game only to play in it: put your own student_id among the players.")
	}
	if dup := firstDuplicate(c.Students); dup != "" {
		return domain.Invalid("invalid", "Student %s is named twice; each student takes one seat.", dup)
	}
	return checkBots(c.Bots, c.playerCount())
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

// enforceNames brings the players' and the named bots' names to the form they are stored in and
// refuses two that are the same name; then it names the other bots.
func enforceNames(players []string, bots []BotSeat) ([]string, []BotSeat, error) {
	out := make([]string, len(players))
	seen := map[string]bool{}
	enforce := func(name string) (string, error) {
		enforced, err := names.Person.Enforce(name)
		if err != nil {
			return "", err
		}
		key := names.Key(enforced)
		if seen[key] {
			return "", domain.Invalid("name_taken", "Two players are called %q; give each player a different name.", enforced)
		}
		seen[key] = true
		return enforced, nil
	}
	var err error
	for i, name := range players {
		if out[i], err = enforce(name); err != nil {
			return nil, nil, err
		}
	}
	named := slices.Clone(bots)
	for i, b := range named {
		if b.Name != "" {
			if named[i].Name, err = enforce(b.Name); err != nil {
				return nil, nil, err
			}
		}
	}
	for i, b := range named {
		if b.Name == "" {
			named[i].Name = defaultBotName(b.Level, seen)
		}
	}
	return out, named, nil
}

func createGame(ctx context.Context, tx Tx, c creation) (createdRecord, error) {
	creatorToken, creatorHash := NewToken(TokenCreator)
	seatCount := c.OpenSeats
	if seatCount == 0 {
		seatCount = c.playerCount()
	}
	rec := NewGameRecord{Kind: c.rules.Name(), Options: c.Options, SeatCount: seatCount, Seed: NewSeed(), CreatorHash: creatorHash, Settings: c.settings,
		Owner: c.owner}
	if c.classroomID != "" {
		rec.ClassroomID = &c.classroomID
	}
	var id string
	var err error
	if c.classroomID == "" && !c.Public {
		// A private game; its lobby takes an invite code no other open lobby has.
		rec.Private = true
		err = withNewJoinCode(func(code string) error {
			rec.InviteCode = ""
			if c.OpenSeats > 0 {
				if inUse, err := tx.InviteCodeInUse(ctx, code); err != nil || inUse {
					return cmp.Or(err, ErrTaken)
				}
				rec.InviteCode = code
			}
			id, err = tx.InsertGame(ctx, rec)
			return err
		})
	} else {
		id, err = tx.InsertGame(ctx, rec)
	}
	if err != nil {
		return createdRecord{}, err
	}
	out := createdRecord{CreatorToken: creatorToken, InviteCode: rec.InviteCode}
	bots := map[int]BotSeat{}
	for _, b := range c.Bots {
		bots[b.Seat] = b
	}
	players, students := c.Players, c.Students
	for seat := range c.playerCount() {
		var err error
		switch bot, isBot := bots[seat]; {
		case isBot:
			err = tx.InsertBotSeat(ctx, id, seat, bot.Name, string(bot.Level))
		case len(players) > 0:
			token, hash := NewToken(TokenSeat)
			err = tx.InsertSeat(ctx, id, seat, players[0], hash)
			out.SeatTokens = append(out.SeatTokens, SeatToken{Seat: seat, Name: players[0], Token: token})
			players = players[1:]
		default:
			err = insertStudentSeat(ctx, tx.SeatTx, id, c.classroomID, seat, students[0])
			students = students[1:]
		}
		if err != nil {
			return out, err
		}
	}
	g, err := lockGame(ctx, tx.GameTx, id)
	if err != nil {
		return out, err
	}
	if c.OpenSeats == 0 {
		if err := startGame(ctx, tx, g, c.rules, c.playerCount()); err != nil {
			return out, err
		}
	}
	out.Game = g
	return out, nil
}

func insertStudentSeat(ctx context.Context, tx SeatTx, gameID, classroomID string, seat int, studentID string) error {
	err := tx.InsertStudentSeat(ctx, gameID, classroomID, seat, studentID)
	if errors.Is(err, ErrNotFound) {
		return domain.Invalid("unknown_student", "Student %s is not in this classroom.", studentID)
	}
	return err
}

// startGame deals, shuffles or rolls off (recorded as action 0) and makes the game active.
func startGame(ctx context.Context, tx stepTx, g *GameRecord, rules domain.Rules, seats int) error {
	state, outcome, random, err := domain.StartRecorded(rules, g.Options, seats, domain.SeededRand(uint64(g.Seed), 0))
	if err != nil {
		return err
	}
	start := Entry{Seq: 0, Action: json.RawMessage(`{"type":"start"}`), Random: random}
	if start.Outcome, err = json.Marshal(outcome); err != nil {
		return fmt.Errorf("encoding outcome: %w", err)
	}
	return recordStep(ctx, tx, g, &start, state, seats, nil)
}

// Join gives a lobby seat to a new player. In a classroom's game the player is the student whose
// token is presented, under their classroom name; elsewhere the player gives a name.
func (s *Service) Join(ctx context.Context, gameID string, p Principal, ask JoinAsk, idem *Idempotency) (*Joined, error) {
	var rec joinedRecord
	err := s.update(ctx, func(tx Tx) error {
		g, err := lockGame(ctx, tx.GameTx, gameID)
		if err != nil {
			return err
		}
		seat, slot, err := newPlayer(g, p, ask, idem)
		if err != nil {
			return err
		}
		rec, err = idempotent(ctx, tx, slot, func() (joinedRecord, error) { return joinGame(ctx, tx, g, seat, ask.Seat) })
		return err
	})
	if err != nil {
		return nil, err
	}
	g, err := s.decodeGame(rec.Game)
	return &Joined{Game: g, Seat: rec.Seat}, err
}

// newPlayer is who asks to join: in a classroom's game the student whose token is presented,
// elsewhere anyone with a name. The Idempotency-Key is bound to them.
func newPlayer(g *GameRecord, p Principal, ask JoinAsk, idem *Idempotency) (Seat, *resultSlot, error) {
	if p.Kind == Observer {
		if _, err := CallerOf(g, p); err != nil {
			return Seat{}, nil, err
		}
		return Seat{}, nil, observerActsOnNothing()
	}
	if g.ClassroomID == nil {
		creator := p.Kind == GameToken && bytes.Equal(p.TokenHash, g.CreatorHash)
		if err := mayJoin(g, creator, ask); err != nil {
			return Seat{}, nil, err
		}
		name, err := names.Person.Enforce(ask.Name)
		if err != nil {
			return Seat{}, nil, err
		}
		slot, err := idem.byAnyone("join:" + g.ID)
		return Seat{Name: name}, slot, err
	}
	if ask.Seat != nil {
		return Seat{}, nil, domain.Invalid("invalid", "A classroom's lobby seats its students in the order they join; leave seat out.")
	}
	caller, err := RequireCaller(g, p)
	if err != nil {
		return Seat{}, nil, err
	}
	if caller.StudentID == "" {
		return Seat{}, nil, domain.Errorf(domain.KindForbidden, "forbidden", "Only the classroom's students take seats in its games; send your student token.")
	}
	slot, err := idem.byPrincipal(p, "join:"+g.ID+":student:"+caller.StudentID)
	return Seat{StudentID: &caller.StudentID}, slot, err
}

func joinGame(ctx context.Context, tx Tx, g *GameRecord, player Seat, chosen *int) (joinedRecord, error) {
	for _, s := range g.Seats {
		if player.StudentID != nil && s.StudentID != nil && *s.StudentID == *player.StudentID {
			return joinedRecord{}, domain.Errorf(domain.KindConflict, "already_seated", "You already have seat %d in this game.", s.Seat)
		}
	}
	if g.Status != StatusLobby {
		return joinedRecord{}, domain.Errorf(domain.KindConflict, "not_in_lobby", "Game %s has already started; only a game waiting in its lobby takes new players.", g.ID)
	}
	if len(g.Seats) >= g.SeatCount {
		return joinedRecord{}, domain.Errorf(domain.KindConflict, "game_full", "All %d seats of game %s are taken.", g.SeatCount, g.ID).
			WithFacts(SeatCountFacts{Max: g.SeatCount, Seats: len(g.Seats)})
	}
	for _, s := range g.Seats {
		if player.StudentID == nil && names.Key(s.Name) == names.Key(player.Name) {
			return joinedRecord{}, domain.Errorf(domain.KindConflict, "name_taken", "A player called %q already sits in this game; choose another name.", s.Name)
		}
	}
	seat, token := len(g.Seats), ""
	if chosen != nil {
		if *chosen < 0 || *chosen > len(g.Seats) {
			return joinedRecord{}, domain.Invalid("invalid_seat", "Seat %d cannot be given: %d seats are taken, so a new player takes a seat from 0 to %d.", *chosen, len(g.Seats), len(g.Seats))
		}
		seat = *chosen
		if err := tx.OpenSeatAt(ctx, g.ID, seat); err != nil {
			return joinedRecord{}, err
		}
	}
	var err error
	if player.StudentID != nil {
		err = insertStudentSeat(ctx, tx.SeatTx, g.ID, *g.ClassroomID, seat, *player.StudentID)
	} else {
		var hash []byte
		token, hash = NewToken(TokenSeat)
		err = tx.InsertSeat(ctx, g.ID, seat, player.Name, hash)
	}
	if err != nil {
		return joinedRecord{}, err
	}
	if err := tx.BumpVersion(ctx, g); err != nil {
		return joinedRecord{}, err
	}
	if g, err = lockGame(ctx, tx.GameTx, g.ID); err != nil {
		return joinedRecord{}, err
	}
	return joinedRecord{Game: g, Seat: SeatToken{Seat: seat, Name: g.Seats[seat].Name, Token: token}}, nil
}

// Start begins a lobby game with the players who have joined.
func (s *Service) Start(ctx context.Context, gameID string, p Principal, idem *Idempotency) (*Game, Caller, error) {
	return s.changeAsCaller(ctx, gameID, p, idem, gameChange{name: "start"}, func(tx Tx, g *GameRecord, caller *Caller) error {
		if err := MayStart(*caller); err != nil {
			return err
		}
		if g.Status != StatusLobby {
			return domain.Errorf(domain.KindConflict, "not_in_lobby", "Game %s has already started.", g.ID)
		}
		rules, err := s.rulesFor(g.Kind)
		if err != nil {
			return err
		}
		_, seats, err := rules.Options(g.Options)
		if err != nil {
			return err
		}
		if len(g.Seats) < seats.Min {
			return domain.Errorf(domain.KindConflict, "not_enough_players",
				"%s needs at least %d players; %d have joined.", g.Kind, seats.Min, len(g.Seats)).
				WithFacts(SeatCountFacts{Min: seats.Min, Max: seats.Max, Seats: len(g.Seats)})
		}
		return startGame(ctx, tx, g, rules, len(g.Seats))
	})
}

// Abort ends a game that is not over, at its creator's request.
func (s *Service) Abort(ctx context.Context, gameID string, p Principal, idem *Idempotency) (*Game, Caller, error) {
	return s.changeAsCaller(ctx, gameID, p, idem, gameChange{name: "abort"}, func(tx Tx, g *GameRecord, caller *Caller) error {
		if err := MayAbort(*caller); err != nil {
			return err
		}
		if g.Status.Over() {
			return domain.Errorf(domain.KindConflict, "game_over", "Game %s is already %s.", g.ID, g.Status)
		}
		return tx.AbortGame(ctx, g, EndCreator)
	})
}
