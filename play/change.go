package play

import "context"

// A gameChange is a request by which a caller changes a game: start, abort, leave or resign.
type gameChange struct {
	name string // in the scope of its Idempotency-Key
	// retiresToken is set when the change can end what the caller's token may do in the game (a
	// player who leaves or resigns), so that a retry comes with a token that identifies nobody.
	retiresToken bool
}

// changedGame is what a change answered, as an Idempotency-Key keeps it for the change's retries.
type changedGame struct {
	Game   *GameRecord
	Caller Caller
}

// slot is where the answer of the change of game gameID is kept for idem; nil without a key. When
// the change retires the caller's token, the key must be strong enough to be a secret of its own.
func (c gameChange) slot(idem *Idempotency, p Principal, gameID string) (*resultSlot, error) {
	scope := c.name + ":" + gameID
	if c.retiresToken {
		return idem.byRetiringToken(p, scope)
	}
	return idem.byPrincipal(p, scope)
}

// changeAsCaller locks a game, identifies the principal in it, lets change act on both in one
// transaction, and returns the game as it is afterwards with the caller as change leaves them.
// With an Idempotency-Key, a retry of the same change by the same token gets the first answer,
// even once the change has retired the token.
func (s *Service) changeAsCaller(ctx context.Context, gameID string, p Principal, idem *Idempotency, what gameChange,
	change func(Tx, *GameRecord, *Caller) error) (*Game, Caller, error) {
	slot, err := what.slot(idem, p, gameID)
	if err != nil {
		return nil, AnonymousCaller, err
	}
	var done changedGame
	err = s.update(ctx, func(tx Tx) error {
		rec, err := lockGame(ctx, tx.GameTx, gameID)
		if err != nil {
			return err
		}
		done, err = idempotent(ctx, tx, slot, func() (changedGame, error) {
			caller, err := RequireCaller(rec, p)
			if err != nil {
				return changedGame{}, err
			}
			if err := change(tx, rec, &caller); err != nil {
				return changedGame{}, err
			}
			rec, err = lockGame(ctx, tx.GameTx, gameID)
			return changedGame{Game: rec, Caller: caller}, err
		})
		return err
	})
	if err != nil {
		return nil, AnonymousCaller, err
	}
	s.wakeBotsFor(done.Game)
	g, err := s.decodeGame(done.Game)
	return g, done.Caller, err
}
