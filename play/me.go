package play

import (
	"context"
	"time"

	"primegames/domain"
)

// IdentityKind is what a token is, as GET /v1/me names it.
type IdentityKind string

const (
	IdentitySeat     IdentityKind = "seat"
	IdentityCreator  IdentityKind = "creator"
	IdentityTeacher  IdentityKind = "teacher"
	IdentityStudent  IdentityKind = "student"
	IdentityAdmin    IdentityKind = "admin"
	IdentityObserver IdentityKind = "observer"
	IdentityAccount  IdentityKind = "account" // a signed-in teacher's account token (accounts.go)
)

// Capability is one thing a token may do, as GET /v1/me lists them.
type Capability string

const (
	CanView             Capability = "view"              // see its games as a player or a spectator may
	CanSeeEverything    Capability = "see_everything"    // see every hand of its classroom's games (PR-8)
	CanAct              Capability = "act"               // act, ask for hints, leave and resign in its seats
	CanStart            Capability = "start"             // start its lobbies
	CanAbort            Capability = "abort"             // abort the games it created
	CanRematch          Capability = "rematch"           // ask for a rematch of a finished game it played
	CanCreateGames      Capability = "create_games"      // create games of its classroom
	CanRunClassroom     Capability = "run_classroom"     // students, join code, tokens, statistics
	CanCreateClassrooms Capability = "create_classrooms" // create classrooms
	CanMintObservers    Capability = "mint_observers"    // mint and revoke observer tokens of its games (a teacher's: of its classroom)
)

// MaxIdentityGames bounds the games GET /v1/me lists for a seat or creator token (a token's
// rematches add one game each).
const MaxIdentityGames = 50

// TokenGame is a game a seat or creator token belongs to: its seat there, -1 for the creator's.
type TokenGame struct {
	GameID string
	Seat   int
}

// Identity is who a token is and what it may do.
type Identity struct {
	Kind        IdentityKind
	ClassroomID string
	StudentID   string
	GameID      string      // the game an observer token watches
	Games       []TokenGame // a seat or creator token's, newest first, at most MaxIdentityGames
	May         []Capability
	ExpiresAt   *time.Time // nil: the token does not expire
	Account     *Account   // an account token's account
}

var capabilities = map[IdentityKind][]Capability{
	IdentitySeat:     {CanView, CanAct, CanStart, CanRematch, CanMintObservers},
	IdentityCreator:  {CanView, CanStart, CanAbort, CanMintObservers},
	IdentityTeacher:  {CanView, CanSeeEverything, CanStart, CanAbort, CanCreateGames, CanRunClassroom, CanMintObservers},
	IdentityStudent:  {CanView, CanAct, CanStart, CanRematch, CanCreateGames, CanMintObservers},
	IdentityAdmin:    {CanCreateClassrooms},
	IdentityObserver: {CanView},
	IdentityAccount:  {CanCreateClassrooms},
}

// Identify says who the principal's token is. A token that opens nothing (none, a made-up one, a
// removed student's, one whose every seat was left) is refused with 401.
func (s *Service) Identify(ctx context.Context, p Principal) (*Identity, error) {
	if p.IsAccount() && p.Kind == AccountHolder {
		acc, err := s.MyAccount(ctx, p)
		if err != nil {
			return nil, err
		}
		return &Identity{Kind: IdentityAccount, Account: acc}, nil
	}
	return s.listings.Identify(ctx, p)
}

func invalidToken() error {
	return domain.Errorf(domain.KindUnauthorized, "unauthorized",
		"This token opens nothing: it was never issued, or it stopped working (a removed student's, a replaced teacher token, a seat left or resigned, an observer token revoked or expired).")
}

func (ls *listings) Identify(ctx context.Context, p Principal) (*Identity, error) {
	id := &Identity{}
	switch {
	case p.Kind == Admin:
		id.Kind = IdentityAdmin
	case p.IsTeacher():
		id.Kind, id.ClassroomID = IdentityTeacher, p.ClassroomID
	case p.IsObserver():
		id.Kind, id.GameID, id.ClassroomID, id.ExpiresAt = IdentityObserver, p.GameID, p.ClassroomID, p.ExpiresAt
	case p.Kind == Student && p.Resolved:
		id.Kind, id.ClassroomID, id.StudentID = IdentityStudent, p.ClassroomID, p.StudentID
	case p.Kind == GameToken:
		games, err := ls.games.TokenGames(ctx, p.TokenHash, MaxIdentityGames)
		if err != nil {
			return nil, err
		}
		if len(games) == 0 {
			return nil, invalidToken()
		}
		id.Kind, id.Games = IdentityCreator, games
		for _, g := range games {
			if g.Seat >= 0 {
				id.Kind = IdentitySeat
			}
		}
	case p.Kind == Anonymous:
		return nil, domain.Errorf(domain.KindUnauthorized, "unauthorized", "Send the token to ask about as Authorization: Bearer <token>.")
	default:
		return nil, invalidToken()
	}
	id.May = capabilities[id.Kind]
	return id, nil
}
