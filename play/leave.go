package play

import (
	"context"

	"primegames/domain"
)

// Leave gives up the caller's seat in a lobby: the seat opens again for another player, the
// later seats move down by one, and the leaver's seat token stops working. A game that has
// started is left by resigning (G-3).
func (s *Service) Leave(ctx context.Context, gameID string, p Principal, idem *Idempotency) (*Game, Caller, error) {
	return s.changeAsCaller(ctx, gameID, p, idem, gameChange{name: "leave", retiresToken: true}, func(tx Tx, g *GameRecord, caller *Caller) error {
		if !caller.HasSeat() {
			return domain.Errorf(domain.KindForbidden, "forbidden", "Only a player leaves a game; this token has no seat in game %s.", g.ID)
		}
		if g.Status != StatusLobby {
			return domain.Errorf(domain.KindConflict, "not_in_lobby", "Game %s has already started; a player leaves it by resigning (POST /v1/games/%s/resign).", g.ID, g.ID)
		}
		if err := tx.RemoveSeat(ctx, g.ID, caller.Seat); err != nil {
			return err
		}
		caller.Seat = -1 // the caller has left: the game is answered as they see it now
		return tx.BumpVersion(ctx, g)
	})
}
