package play

import (
	"context"

	"primegames/domain"
)

// Rematched is the rematch of a finished game and the caller's place in it; Created is false when
// an earlier request had made it already.
type Rematched struct {
	Game    *Game
	Caller  Caller
	Created bool
}

// Rematch starts a new game with a finished game's players, options and classroom, each player
// moved on by one seat (old seat i plays seat i+1 mod n); each seat token of the old game acts for
// its player's seat in the new one, and students keep their student tokens. A game has one
// rematch: a later request, by any of its players, gets the same game.
func (s *Service) Rematch(ctx context.Context, gameID string, p Principal) (*Rematched, error) {
	var rec *GameRecord
	created := false
	err := s.store.Update(ctx, func(tx Tx) error {
		created = false
		old, err := lockGame(ctx, tx, gameID)
		if err != nil {
			return err
		}
		caller, err := RequireCaller(old, p)
		if err != nil {
			return err
		}
		if !caller.HasSeat() {
			return domain.Errorf(domain.KindForbidden, "forbidden", "Only a player asks for a rematch; this token has no seat in game %s.", old.ID)
		}
		if old.Status != StatusFinished {
			return domain.Errorf(domain.KindConflict, "game_not_finished", "Game %s is %s; only a finished game has a rematch.", old.ID, old.Status)
		}
		if old.RematchID != nil {
			rec, err = lockGame(ctx, tx, *old.RematchID)
			return err
		}
		if rec, err = s.createRematch(ctx, tx, old); err != nil {
			return err
		}
		created = true
		return tx.LinkRematch(ctx, old, rec.ID)
	})
	if err != nil {
		return nil, err
	}
	s.wakeBotsFor(rec)
	caller, err := CallerOf(rec, p)
	if err != nil {
		return nil, err
	}
	g, err := s.decodeGame(rec)
	return &Rematched{Game: g, Caller: caller, Created: created}, err
}

// createRematch stores and starts the rematch of old: the same kind, options, settings,
// classroom and creator; old seat i's player in seat i+1 mod n, with their name and token, or
// as the same student or computer player. A student who resigned old (whose seat a computer
// took) plays the rematch again.
func (s *Service) createRematch(ctx context.Context, tx Tx, old *GameRecord) (*GameRecord, error) {
	rules, err := s.rulesFor(old.Kind)
	if err != nil {
		return nil, err
	}
	n := len(old.Seats)
	id, err := tx.InsertGame(ctx, NewGameRecord{Kind: old.Kind, Options: old.Options, SeatCount: n, Seed: NewSeed(),
		CreatorHash: old.CreatorHash, ClassroomID: old.ClassroomID, Settings: old.Settings})
	if err != nil {
		return nil, err
	}
	for seat := range n {
		from := old.Seats[(seat+n-1)%n]
		switch {
		case from.StudentID != nil:
			err = insertStudentSeat(ctx, tx, id, *old.ClassroomID, seat, *from.StudentID)
		case from.Bot != "":
			err = tx.InsertBotSeat(ctx, id, seat, from.Name, string(from.Bot))
		default:
			err = tx.InsertSeat(ctx, id, seat, from.Name, from.TokenHash)
		}
		if err != nil {
			return nil, err
		}
	}
	rec, err := lockGame(ctx, tx, id)
	if err != nil {
		return nil, err
	}
	return rec, startGame(ctx, tx, rec, rules, n)
}
