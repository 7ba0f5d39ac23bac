package play

import (
	"context"
	"errors"

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
//
// Each transaction touches one game, so that a database sharded by game commits it on one shard:
// the first stores and starts the rematch under the id derived from the finished game
// (rematchID), which the games' primary key keeps to one game however many requests race; the
// second links the finished game to it. A request that finds the rematch stored but not linked
// (another request's, between its two transactions, or one cut off there) links it too, so the
// link is made at the latest by the next request; the first link stands.
func (s *Service) Rematch(ctx context.Context, gameID string, p Principal) (*Rematched, error) {
	old, err := s.loadGame(ctx, gameID)
	if err != nil {
		return nil, err
	}
	caller, err := RequireCaller(old, p)
	if err != nil {
		return nil, err
	}
	if !caller.HasSeat() {
		return nil, domain.Errorf(domain.KindForbidden, "forbidden", "Only a player asks for a rematch; this token has no seat in game %s.", old.ID)
	}
	if old.Status != StatusFinished { // a finished game stays finished
		return nil, domain.Errorf(domain.KindConflict, "game_not_finished", "Game %s is %s; only a finished game has a rematch.", old.ID, old.Status)
	}
	var rec *GameRecord
	created := false
	if old.RematchID != nil {
		rec, err = s.loadGame(ctx, *old.RematchID)
	} else if rec, created, err = s.storeRematch(ctx, old); err == nil {
		err = s.update(ctx, func(tx Tx) error { return tx.LinkRematch(ctx, old.ID, rec.ID) })
	}
	if err != nil {
		return nil, err
	}
	s.wakeBotsFor(rec)
	caller, err = CallerOf(rec, p)
	if err != nil {
		return nil, err
	}
	g, err := s.decodeGame(rec)
	return &Rematched{Game: g, Caller: caller, Created: created}, err
}

// storeRematch stores and starts the rematch of old in a transaction of its own; created is false
// when another request had stored it, which is then read as it is now.
func (s *Service) storeRematch(ctx context.Context, old *GameRecord) (rec *GameRecord, created bool, err error) {
	id := rematchID(old)
	follow, err := s.rematchWebhooks(ctx, old.ID, id)
	if err != nil {
		return nil, false, err
	}
	err = s.update(ctx, func(tx Tx) error {
		rec, err = s.createRematch(ctx, tx, old, id, follow)
		return err
	})
	if errors.Is(err, ErrTaken) {
		rec, err = s.loadGame(ctx, id)
		return rec, false, err
	}
	return rec, err == nil, err
}

// createRematch stores, under id, and starts the rematch of old: the same kind, options, settings,
// classroom and creator; old seat i's player in seat i+1 mod n, with their name and token, or
// as the same student or computer player. A student who resigned old (whose seat a computer
// took) plays the rematch again. The game subscriptions follow (the copies rematchWebhooks made).
func (s *Service) createRematch(ctx context.Context, tx Tx, old *GameRecord, id string, follow []Webhook) (*GameRecord, error) {
	rules, err := s.rulesFor(old.Kind)
	if err != nil {
		return nil, err
	}
	n := len(old.Seats)
	id, err = tx.InsertGame(ctx, NewGameRecord{ID: id, Kind: old.Kind, Options: old.Options, SeatCount: n, Seed: NewSeed(),
		CreatorHash: old.CreatorHash, ClassroomID: old.ClassroomID, Settings: old.Settings, OwnerOf: old.ID})
	if err != nil {
		return nil, err
	}
	for seat := range n {
		from := old.Seats[(seat+n-1)%n]
		switch {
		case from.StudentID != nil:
			err = insertStudentSeat(ctx, tx.SeatTx, id, *old.ClassroomID, seat, *from.StudentID)
		case from.Bot != "":
			err = tx.InsertBotSeat(ctx, id, seat, from.Name, string(from.Bot))
		default:
			err = tx.InsertSeat(ctx, id, seat, from.Name, from.TokenHash)
		}
		if err != nil {
			return nil, err
		}
	}
	if len(follow) > 0 { // before the start, so that its game_started is queued for them
		if err := tx.FollowWebhooks(ctx, follow); err != nil {
			return nil, err
		}
	}
	rec, err := lockGame(ctx, tx.GameTx, id)
	if err != nil {
		return nil, err
	}
	return rec, startGame(ctx, tx, rec, rules, n)
}
