package play

import (
	"context"
	"encoding/json"

	"primegames/domain"
)

// GroupGames asks for games for a whole class: the students (all current ones when empty), in the
// order given, split into groups of GroupSize.
type GroupGames struct {
	ClassroomID string
	Kind        string
	Options     json.RawMessage
	GroupSize   int
	Students    []string
}

// CreateGroups creates one started game per group, all in one transaction: all of them or none.
func (s *Service) CreateGroups(ctx context.Context, in GroupGames) ([]*Game, error) {
	rules, err := s.rulesFor(in.Kind)
	if err != nil {
		return nil, err
	}
	engineOptions, settings, err := splitSettings(in.Options)
	if err != nil {
		return nil, err
	}
	options, seats, err := rules.Options(engineOptions)
	if err != nil {
		return nil, err
	}
	ids := in.Students
	if len(ids) == 0 {
		current, err := s.store.Students(ctx, in.ClassroomID)
		if err != nil {
			return nil, err
		}
		for _, st := range current {
			ids = append(ids, st.ID)
		}
	}
	groups, err := splitIntoGroups(ids, in.GroupSize, seats)
	if err != nil {
		return nil, err
	}
	var recs []*GameRecord
	err = s.store.Update(ctx, func(tx Tx) error {
		recs = nil // a retried transaction starts again
		for _, group := range groups {
			c := creation{NewGame: NewGame{Kind: in.Kind, Options: options, Students: group}, rules: rules, seats: seats, classroomID: in.ClassroomID, settings: settings}
			if err := checkPlayers(c); err != nil {
				return err
			}
			created, err := createGame(ctx, tx, c)
			if err != nil {
				return err
			}
			recs = append(recs, created.Game)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := make([]*Game, len(recs))
	for i, rec := range recs {
		if out[i], err = s.decodeGame(rec); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// splitIntoGroups deals ids into groups of size; when they do not divide evenly, the first groups
// take one more each, as long as the game allows it.
func splitIntoGroups(ids []string, size int, seats domain.SeatRange) ([][]string, error) {
	if size < seats.Min || size > seats.Max {
		return nil, domain.Invalid("invalid_seat_count", "Groups of %d do not fit this game, which takes %s.", size, playerRange(seats)).
			WithFacts(SeatCountFacts{Min: seats.Min, Max: seats.Max, Seats: size})
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
