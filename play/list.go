package play

import (
	"context"
	"encoding/base64"
	"regexp"
	"strings"
	"time"

	"primegames/domain"
)

// GameFilter narrows a list of games. Cursor continues a previous page.
type GameFilter struct {
	Kind   string
	Status Status
	Cursor string
	Limit  int
	// Exactly one scope applies: the games of a seat's or creator's token (SeatTokenHash), a
	// classroom's games, a student's games, or games outside classrooms.
	ClassroomID   string
	StudentID     string
	SeatTokenHash []byte
	// MyTurn keeps only the games in which the student's or token's seat may act now.
	MyTurn bool
	// From and To bound the creation time (From inclusive, To exclusive) when set.
	From, To *time.Time
}

// GameQuery is what the store is asked for a list: the filter's games created before After (by
// time, then id) when set, up to Limit of them.
type GameQuery struct {
	Filter GameFilter
	After  *GamePosition
	Limit  int
}

// GamePosition is a game's place in a list, newest first.
type GamePosition struct {
	CreatedAt time.Time
	ID        string
}

// GameSummary is a game as a list shows it: no state, nothing hidden.
type GameSummary struct {
	ID        string
	Kind      string
	Status    Status
	EndReason EndReason // why an aborted game ended; "" for any other
	SeatCount int
	Players   []string
	Bots      []BotSeat // the seats a computer plays, without names
	Version   int64
	Winners   []int
	CreatedAt time.Time
	UpdatedAt time.Time
}

// ListGames returns a page of games, newest first, and the cursor of the next page ("" on the last).
func (s *Service) ListGames(ctx context.Context, f GameFilter) ([]GameSummary, string, error) {
	return s.listings.ListGames(ctx, f)
}

// MyGames returns a page of the games the principal plays in, as ListGames does: a student's games
// in their classroom, or the one game of a seat or creator token. A teacher plays in no game (their
// classroom's games have a list of their own), nor does the operator.
func (s *Service) MyGames(ctx context.Context, p Principal, f GameFilter) ([]GameSummary, string, error) {
	return s.listings.MyGames(ctx, p, f)
}

// scopeToPlayer narrows f to the games the principal plays in, or refuses a principal who plays in
// none.
func scopeToPlayer(p Principal, f *GameFilter) error {
	switch {
	case p.Kind == Anonymous:
		return domain.Errorf(domain.KindUnauthorized, "unauthorized", "This request needs a player's token: send it as Authorization: Bearer <token>.")
	case p.Kind == Student && p.Resolved:
		f.ClassroomID, f.StudentID = p.ClassroomID, p.StudentID
	case p.Kind == GameToken:
		f.SeatTokenHash = p.TokenHash
	case p.Kind == Teacher && p.Resolved:
		return domain.Errorf(domain.KindForbidden, "forbidden",
			"A teacher plays in no game; list your classroom's games with GET /v1/classrooms/%s/games.", p.ClassroomID)
	case p.Kind == Admin:
		return domain.Errorf(domain.KindForbidden, "forbidden", "The admin token plays in no game.")
	case p.IsAccount():
		return domain.Errorf(domain.KindForbidden, "forbidden",
			"A teacher's account plays in no game; list a classroom's games with GET /v1/classrooms/{classroom_id}/games (GET /v1/me/classrooms lists the classrooms).")
	case p.IsObserver():
		return observerActsOnNothing()
	default:
		return domain.Errorf(domain.KindUnauthorized, "unauthorized", "This token is not valid (a removed student's token stops working).")
	}
	return nil
}

// InvalidCursor refuses a cursor this server did not give out.
func InvalidCursor(cursor string) error {
	return domain.Invalid("invalid_cursor", "The cursor %q is not one this server gave out; start again without it.", cursor)
}

var uuidPattern = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

func encodeCursor(p GamePosition) string {
	return base64.RawURLEncoding.EncodeToString([]byte(p.CreatedAt.UTC().Format(time.RFC3339Nano) + "|" + p.ID))
}

func decodeCursor(c string) (GamePosition, error) {
	raw, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		return GamePosition{}, InvalidCursor(c)
	}
	at, id, ok := strings.Cut(string(raw), "|")
	if !ok {
		return GamePosition{}, InvalidCursor(c)
	}
	t, err := time.Parse(time.RFC3339Nano, at)
	if err != nil || !uuidPattern.MatchString(id) {
		return GamePosition{}, InvalidCursor(c)
	}
	return GamePosition{CreatedAt: t, ID: id}, nil
}

func (ls *listings) ListGames(ctx context.Context, f GameFilter) ([]GameSummary, string, error) {
	q := GameQuery{Filter: f, Limit: f.Limit + 1}
	if f.Cursor != "" {
		after, err := decodeCursor(f.Cursor)
		if err != nil {
			return nil, "", err
		}
		q.After = &after
	}
	list, err := ls.games.ListGames(ctx, q)
	if err != nil {
		return nil, "", err
	}
	next := ""
	if len(list) > f.Limit {
		list = list[:f.Limit]
		last := list[len(list)-1]
		next = encodeCursor(GamePosition{CreatedAt: last.CreatedAt, ID: last.ID})
	}
	return list, next, nil
}

func (ls *listings) MyGames(ctx context.Context, p Principal, f GameFilter) ([]GameSummary, string, error) {
	if err := scopeToPlayer(p, &f); err != nil {
		return nil, "", err
	}
	return ls.ListGames(ctx, f)
}
