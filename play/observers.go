package play

import (
	"context"
	"errors"
	"time"

	"primegames/domain"
)

// An observer token is read-only: a seat, the creator or the classroom's teacher mints one for a
// game (a parent following a child's game, a projector in class), a teacher one for the whole
// classroom. It sees what a spectator sees (PR-8: the public view, everything once the game is
// over), acts on nothing, and works until it is revoked or expires.

// MaxObservers bounds the observer tokens one game or one classroom holds at once; expired ones
// are deleted when another is minted, so they do not count.
const MaxObservers = 20

// ObserverRecord is a minted observer token as the database keeps it: what it watches (GameID, or
// ClassroomID) and until when.
type ObserverRecord struct {
	ID          string
	GameID      string
	ClassroomID string
	CreatedAt   time.Time
	ExpiresAt   *time.Time
}

// IssuedObserver is a new observer token, shown once.
type IssuedObserver struct {
	ObserverRecord
	Token string
}

// ObserverTarget is what an observer token watches: a game or a classroom.
type ObserverTarget struct {
	GameID, ClassroomID string
}

func observerActsOnNothing() error {
	return domain.Errorf(domain.KindForbidden, "forbidden", "An observer token only watches; it acts on nothing.")
}

// resolveObserver finds what an observer token watches; a revoked or expired one stays unresolved.
func (a *authorities) resolveObserver(ctx context.Context, p Principal) (Principal, error) {
	rec, err := a.store.ObserverToken(ctx, p.TokenHash)
	if errors.Is(err, ErrNotFound) {
		return p, nil
	}
	if err != nil {
		return p, err
	}
	if rec.ExpiresAt != nil && !a.clock.Now().Before(*rec.ExpiresAt) {
		return p, nil
	}
	p.Resolved, p.ObserverID, p.GameID, p.ClassroomID, p.ExpiresAt = true, rec.ID, rec.GameID, rec.ClassroomID, rec.ExpiresAt
	return p, nil
}

// mayMintObservers lets a game's seats, its creator and its classroom's teacher mint (and revoke)
// its observer tokens, and a classroom's teacher the classroom's.
func (o *observers) mayMintObservers(ctx context.Context, p Principal, target ObserverTarget) error {
	if target.ClassroomID != "" {
		return MayRunClassroom(p, target.ClassroomID)
	}
	g, err := readGame(ctx, o.games, target.GameID)
	if err != nil {
		return err
	}
	caller, err := RequireCaller(g, p)
	if err != nil {
		return err
	}
	if caller.Observer {
		return observerActsOnNothing()
	}
	if !caller.HasSeat() && !caller.Creator {
		return domain.Errorf(domain.KindForbidden, "forbidden", "Only a player, the creator or the teacher of game %s mints its observer tokens.", g.ID)
	}
	return nil
}

// MintObserver issues an observer token for the target, expiring after expiresIn (0: never).
func (s *Service) MintObserver(ctx context.Context, p Principal, target ObserverTarget, expiresIn time.Duration) (*IssuedObserver, error) {
	return s.observers.MintObserver(ctx, p, target, expiresIn)
}

func (o *observers) MintObserver(ctx context.Context, p Principal, target ObserverTarget, expiresIn time.Duration) (*IssuedObserver, error) {
	if err := o.mayMintObservers(ctx, p, target); err != nil {
		return nil, err
	}
	token, hash := NewToken(TokenObserver)
	issued := &IssuedObserver{Token: token}
	err := o.updater.Update(ctx, o.clock.Now(), func(tx Tx) error {
		held, err := tx.LiveObserverTokens(ctx, target)
		if err != nil {
			return err
		}
		if held >= MaxObservers {
			return domain.Errorf(domain.KindConflict, "too_many_observers",
				"This holds %d observer tokens, as many as it may; revoke one first.", held)
		}
		rec := ObserverRecord{GameID: target.GameID, ClassroomID: target.ClassroomID}
		if expiresIn > 0 {
			at := o.clock.Now().Add(expiresIn)
			rec.ExpiresAt = &at
		}
		issued.ObserverRecord, err = tx.InsertObserverToken(ctx, rec, hash)
		return err
	})
	if err != nil {
		return nil, err
	}
	return issued, nil
}

// RevokeObserver ends an observer token of the target; ErrNotFound-like 404 when it has none of
// that id.
func (s *Service) RevokeObserver(ctx context.Context, p Principal, target ObserverTarget, observerID string) error {
	return s.observers.RevokeObserver(ctx, p, target, observerID)
}

func (o *observers) RevokeObserver(ctx context.Context, p Principal, target ObserverTarget, observerID string) error {
	if err := o.mayMintObservers(ctx, p, target); err != nil {
		return err
	}
	return o.updater.Update(ctx, o.clock.Now(), func(tx Tx) error {
		deleted, err := tx.DeleteObserverToken(ctx, target, observerID)
		if err == nil && !deleted {
			return domain.Errorf(domain.KindNotFound, "observer_not_found", "There is no observer token %s here.", observerID)
		}
		return err
	})
}
