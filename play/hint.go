package play

import (
	"context"
	"errors"
	"math"

	"primegames/domain"
)

// Hint is the expert's suggestion for one seat at one position of a game.
type Hint struct {
	Game string // the game's kind
	Seat int
	// Seq is the history entry the suggested action would make; Version is the game's version the
	// hint is for, to send as If-Match with the action.
	Seq, Version int64
	Action       []byte // ready to post
	Explanation  string
}

// hintStream keeps a hint's chance apart from the game's: drawn from the stream the next action's
// dice come from, a hint could tell a player something of them.
const hintStream = 0x68696e74 // "hint"

// Hint is the expert's suggested action for the caller's seat now. It is the same for the same
// position every time: its only chance comes from the game's seed and the position. A hint given
// is counted for the seat, once per position.
func (s *Service) Hint(ctx context.Context, gameID string, p Principal) (*Hint, error) {
	// The game and its last seq from one snapshot, so the hint's position is the game's.
	progress, err := s.store.Progress(ctx, gameID, math.MaxInt64, 0)
	if errors.Is(err, ErrNotFound) {
		return nil, gameNotFound(gameID)
	}
	if err != nil {
		return nil, err
	}
	caller, err := RequireCaller(progress.Game, p)
	if err != nil {
		return nil, err
	}
	if !caller.HasSeat() {
		return nil, domain.Errorf(domain.KindForbidden, "forbidden", "Hints are for players; this token has no seat in game %s.", gameID)
	}
	g, err := s.decodeGame(progress.Game)
	if err != nil {
		return nil, err
	}
	advisor, err := s.advisorOf(g, "hints_unavailable", "hints")
	if err != nil {
		return nil, err
	}
	if !hintsOffered(g) {
		return nil, domain.Errorf(domain.KindForbidden, "hints_disabled", "Hints are turned off in game %s.", g.ID)
	}
	if err := takesActions(&g.GameRecord); err != nil {
		return nil, err
	}
	if choices := g.ChoicesOf(caller.Seat); choices.Reason == NoActionNotYourTurn {
		return nil, domain.NotYourTurnFor(caller.Seat, choices.ToAct, "%s A hint is for a seat that may act now.", choices.Detail)
	}
	view, legal, err := seatSight(g.State, caller.Seat)
	if err != nil {
		return nil, err
	}
	seq := progress.LastSeq + 1
	advice, err := advisor.Choose(view, legal, domain.LevelExpert, domain.SeededRand(uint64(g.Seed)^hintStream, seq))
	if err != nil {
		return nil, err
	}
	action, err := advice.ActionIn(legal)
	if err != nil {
		return nil, err
	}
	if err := s.store.RecordHint(ctx, g.ID, caller.Seat, seq, s.now()); err != nil {
		return nil, err
	}
	return &Hint{Game: g.Kind, Seat: caller.Seat, Seq: seq, Version: g.Version, Action: action, Explanation: advice.Explanation}, nil
}
