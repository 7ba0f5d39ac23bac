package repo

import (
	"context"
	"encoding/json"

	"github.com/jackc/pgx/v5"

	"primegames/domain"
)

// GroupGames asks for games for a whole class: the students (all current ones when empty), in the
// order given, split into groups of GroupSize.
type GroupGames struct {
	ClassroomID string
	Rules       domain.Rules
	Options     json.RawMessage
	GroupSize   int
	Students    []string
}

// CreateGroups creates one started game per group, all in one transaction: all of them or none.
func (s *Games) CreateGroups(ctx context.Context, in GroupGames, students []Student) ([]*Game, error) {
	options, seats, err := in.Rules.Options(in.Options)
	if err != nil {
		return nil, err
	}
	ids := in.Students
	if len(ids) == 0 {
		for _, st := range students {
			ids = append(ids, st.ID)
		}
	}
	groups, err := splitIntoGroups(ids, in.GroupSize, seats)
	if err != nil {
		return nil, err
	}
	var out []*Game
	err = s.db.inTx(ctx, func(tx pgx.Tx) error {
		out = nil // a retried transaction starts again
		for _, group := range groups {
			game := NewGame{Rules: in.Rules, Options: options, ClassroomID: in.ClassroomID, Students: group}
			if err := checkPlayers(game, seats); err != nil {
				return err
			}
			created, err := createGame(ctx, tx, s.db.Kinds, game, options)
			if err != nil {
				return err
			}
			out = append(out, created.Game)
		}
		return nil
	})
	return out, err
}

// splitIntoGroups deals ids into groups of size; when they do not divide evenly, the first groups
// take one more each, as long as the game allows it.
func splitIntoGroups(ids []string, size int, seats domain.SeatRange) ([][]string, error) {
	if size < seats.Min || size > seats.Max {
		return nil, domain.Invalid("invalid_seat_count", "Groups of %d do not fit this game, which takes %s.", size, playerRange(seats))
	}
	if dup := firstDuplicate(ids); dup != "" {
		return nil, domain.Invalid("invalid", "Student %s is named twice; each student plays in one group.", dup)
	}
	n := len(ids) / size
	if n == 0 {
		return nil, domain.Invalid("not_enough_players", "There are %d students; groups of %d need at least %d.", len(ids), size, size)
	}
	extra := len(ids) - n*size
	if (extra+n-1)/n+size > seats.Max {
		return nil, domain.Invalid("invalid_seat_count", "%d students do not split into groups of %d: %d would be left over, and a group may have at most %d players.",
			len(ids), size, extra, seats.Max)
	}
	groups := make([][]string, n)
	next := 0
	for i := range groups {
		take := size
		if extra > 0 {
			take += (extra + n - 1 - i) / n
		}
		groups[i] = ids[next : next+take]
		next += take
	}
	return groups, nil
}
