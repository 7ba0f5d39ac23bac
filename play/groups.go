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
	// Bots are the computer players each game gets besides its group, in the seats after the
	// students': a group of one with an expert practises against the computer.
	Bots []domain.Level
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
	bots, err := groupBots(in.Bots, seats)
	if err != nil {
		return nil, err
	}
	students := domain.SeatRange{Min: max(1, seats.Min-len(bots)), Max: seats.Max - len(bots)}
	groups, err := splitIntoGroups(ids, in.GroupSize, students)
	if err != nil {
		return nil, err
	}
	var recs []*GameRecord
	err = s.update(ctx, func(tx Tx) error {
		recs = nil // a retried transaction starts again
		for _, group := range groups {
			c := creation{NewGame: NewGame{Kind: in.Kind, Options: options, Students: group, Bots: seatedAfter(bots, len(group))},
				rules: rules, seats: seats, classroomID: in.ClassroomID, settings: settings,
				owner: Owner{Client: "classroom:" + in.ClassroomID}}
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
		s.wakeBotsFor(rec)
		if out[i], err = s.decodeGame(rec); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// groupBots names the computer players every group's game gets, refusing more than the game
// leaves room for beside one student.
func groupBots(levels []domain.Level, seats domain.SeatRange) ([]BotSeat, error) {
	if len(levels) >= seats.Max {
		return nil, domain.Invalid("invalid_seat_count", "This game takes at most %d players: %d computer players leave no seat for a student.", seats.Max, len(levels)).
			WithFacts(SeatCountFacts{Min: seats.Min, Max: seats.Max, Seats: len(levels)})
	}
	bots := make([]BotSeat, len(levels))
	for i, level := range levels {
		bots[i] = BotSeat{Level: level}
	}
	if err := checkBots(seatedAfter(bots, 0), len(bots)); err != nil {
		return nil, err
	}
	_, named, err := enforceNames(nil, bots)
	return named, err
}

// seatedAfter is bots in the seats that follow the first n.
func seatedAfter(bots []BotSeat, n int) []BotSeat {
	out := make([]BotSeat, len(bots))
	for i, b := range bots {
		b.Seat = n + i
		out[i] = b
	}
	return out
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
