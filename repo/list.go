package repo

import (
	"context"
	"encoding/base64"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"primegames/domain"
	"primegames/play"
)

// GameFilter narrows a list of games. Cursor continues a previous page.
type GameFilter struct {
	Kind   string
	Status play.Status
	Cursor string
	Limit  int
	// Exactly one scope applies: a classroom's games, a student's games, or games outside classrooms.
	ClassroomID string
	StudentID   string
	// From and To bound the creation time (From inclusive, To exclusive) when set.
	From, To *time.Time
}

// GameSummary is a game as a list shows it: no state, nothing hidden.
type GameSummary struct {
	ID        string
	Kind      string
	Status    play.Status
	SeatCount int
	Players   []string
	Version   int64
	Winners   []int
	CreatedAt time.Time
	UpdatedAt time.Time
}

// List returns a page of games, newest first, and the cursor of the next page ("" on the last).
func (s *Games) List(ctx context.Context, f GameFilter) ([]GameSummary, string, error) {
	where, args := []string{"true"}, []any{}
	add := func(cond string, v any) {
		args = append(args, v)
		where = append(where, fmt.Sprintf(cond, len(args)))
	}
	switch {
	case f.ClassroomID != "":
		add("classroom_id = $%d", f.ClassroomID)
	default:
		where = append(where, "classroom_id IS NULL")
	}
	if f.StudentID != "" {
		add("EXISTS (SELECT 1 FROM seats s WHERE s.game_id = games.id AND s.student_id = $%d::uuid)", f.StudentID)
	}
	if f.From != nil {
		add("created_at >= $%d", *f.From)
	}
	if f.To != nil {
		add("created_at < $%d", *f.To)
	}
	if f.Kind != "" {
		add("kind = $%d", f.Kind)
	}
	if f.Status != "" {
		add("status = $%d", string(f.Status))
	}
	if f.Cursor != "" {
		at, id, err := decodeCursor(f.Cursor)
		if err != nil {
			return nil, "", err
		}
		args = append(args, at, id)
		where = append(where, fmt.Sprintf("(created_at, id) < ($%d, $%d::uuid)", len(args)-1, len(args)))
	}
	args = append(args, f.Limit+1)
	rows, err := s.db.Pool.Query(ctx, `SELECT id::text, kind, status, seat_count, version, winners, created_at, updated_at,
			ARRAY(SELECT name FROM seats WHERE seats.game_id = games.id ORDER BY seat)
		FROM games WHERE `+strings.Join(where, " AND ")+fmt.Sprintf(` ORDER BY created_at DESC, id DESC LIMIT $%d`, len(args)), args...)
	if err != nil {
		return nil, "", err
	}
	list, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (GameSummary, error) {
		var g GameSummary
		var winners []int32
		err := r.Scan(&g.ID, &g.Kind, &g.Status, &g.SeatCount, &g.Version, &winners, &g.CreatedAt, &g.UpdatedAt, &g.Players)
		for _, w := range winners {
			g.Winners = append(g.Winners, int(w))
		}
		return g, err
	})
	if err != nil {
		return nil, "", err
	}
	next := ""
	if len(list) > f.Limit {
		list = list[:f.Limit]
		last := list[len(list)-1]
		next = encodeCursor(last.CreatedAt, last.ID)
	}
	return list, next, nil
}

var uuidPattern = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

func encodeCursor(at time.Time, id string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(at.UTC().Format(time.RFC3339Nano) + "|" + id))
}

func decodeCursor(c string) (time.Time, string, error) {
	bad := domain.Invalid("invalid_cursor", "The cursor %q is not one this server gave out; start again without it.", c)
	raw, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		return time.Time{}, "", bad
	}
	at, id, ok := strings.Cut(string(raw), "|")
	if !ok {
		return time.Time{}, "", bad
	}
	t, err := time.Parse(time.RFC3339Nano, at)
	if err != nil || !uuidPattern.MatchString(id) {
		return time.Time{}, "", bad
	}
	return t, id, nil
}
