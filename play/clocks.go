package play

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"primegames/domain"
)

// TimeoutsToResign is how many turns in a row the server may play for a seat whose time ran out
// before the seat is treated as resigned (G-4).
const TimeoutsToResign = 3

// timeoutTurnSteps bounds the actions the server takes for one expired turn: a turn of either
// kind takes a few (a roll, a move, a choice), and a rule that kept the seat to act for ever must
// not keep the worker in one transaction for ever.
const timeoutTurnSteps = 20

// timeoutLevel is the computer player whose choices the server makes for a seat out of time when
// neither drawing nor passing is allowed (G-4).
const timeoutLevel = domain.LevelGreedy

// ActForExpiredTurn claims one game whose turn deadline has passed and plays the rest of that
// person's turn for them (G-4), each action a history entry marked as a timeout. acted reports
// whether a game was claimed.
//
// A turn the server could not play is tried again botRetry later, so that it neither spins nor
// holds up the games due after it.
func (s *Service) ActForExpiredTurn(ctx context.Context) (acted bool, err error) {
	return s.actForDue(ctx, DueTurn)
}

// timeoutTurn plays the turn of the person to act in g, which is locked and whose deadline has
// passed, and resigns the seat after TimeoutsToResign such turns in a row.
func (s *Service) timeoutTurn(ctx context.Context, tx Tx, g *GameRecord) error {
	game, err := s.decodeGame(g)
	if err != nil {
		return err
	}
	seat := -1
	if game.Status == StatusActive && game.State != nil && g.TurnDeadline != nil {
		seat = firstToAct(g, game.State.Status(), false)
	}
	if seat < 0 { // the turn was played, or the game ended, since the deadline was set
		return tx.ScheduleDeadline(ctx, g.ID, nil)
	}
	kind, _ := s.kinds.Lookup(g.Kind)
	state := game.State
	for step := 0; step < timeoutTurnSteps; step++ {
		st := state.Status()
		if st.Finished || !slices.Contains(st.ToAct, seat) {
			break
		}
		seq, err := tx.NextSeq(ctx, g.ID)
		if err != nil {
			return err
		}
		action, err := timeoutAction(kind, state, seat, domain.SeededRand(uint64(g.Seed)^botStream, seq))
		if err != nil {
			return fmt.Errorf("game %s seat %d out of time: %w", g.ID, seat, err)
		}
		rec, err := s.act(ctx, tx, g, Caller{Seat: seat}, Action{GameID: g.ID, Action: action, Timeout: true})
		if refused := (*refusedAction)(nil); errors.As(err, &refused) {
			return fmt.Errorf("game %s seat %d out of time: the rules refused %s: %w", g.ID, seat, action, refused.err)
		}
		if err != nil {
			return err
		}
		state = rec.next
	}
	timeouts := g.Seats[seat].Timeouts + 1
	if err := tx.SetTimeouts(ctx, g.ID, seat, timeouts); err != nil {
		return err
	}
	g.Seats[seat].Timeouts = timeouts
	if timeouts >= TimeoutsToResign && g.Status == StatusActive {
		return s.resign(ctx, tx, g, seat, ResignTimeouts)
	}
	return nil
}

// timeoutAction is what the server does for a seat out of time: draw, or else pass, when the
// rules allow it, and otherwise what the greedy computer player would do (G-4).
func timeoutAction(kind domain.GameKind, state domain.State, seat int, r domain.Rand) (json.RawMessage, error) {
	_, legal, err := seatSight(state, seat)
	if err != nil {
		return nil, err
	}
	for _, wanted := range []string{"draw", "pass"} {
		for i := range legal {
			action, err := chosenAction(legal, i)
			if err != nil {
				return nil, err
			}
			if actionType(action) == wanted {
				return action, nil
			}
		}
	}
	return botAction(kind, state, seat, timeoutLevel, r)
}
