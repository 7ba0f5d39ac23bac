package play

import (
	"context"
	"fmt"
	"slices"
	"time"

	"primegames/domain"
)

// PlayerEvent is what a player's event stream (GET /v1/me/events) tells about one of their games.
// Within one history entry the events come in this order, so (entry, event) orders a game's events.
type PlayerEvent int

const (
	GameStarted PlayerEvent = iota // the entry is the start of a game the player sits in
	TimedOut                       // the server acted for the player's seat: its turn clock ran out
	YourTurn                       // after the entry the player's seat is to act, and was not before
	GameEnded                      // the game is over (anchored at its last entry)
)

var playerEventNames = [...]string{"game_started", "timed_out", "your_turn", "game_ended"}

func (e PlayerEvent) String() string { return playerEventNames[e] }

// PlayerGame is a game a player holds a seat in, as a player's stream starts from it.
type PlayerGame struct {
	ID      string
	LastSeq int64 // -1 before the start
	Over    bool
	// JoinedAt is when the player's seat was taken (the time of the service's clock that took it).
	JoinedAt time.Time
}

// PlayerGames lists the games the principal plays in (a student's in their classroom, a seat
// token's), with the clock's time before the read; it refuses a principal who plays in none.
func (s *Service) PlayerGames(ctx context.Context, p Principal) (time.Time, []PlayerGame, error) {
	return s.listings.PlayerGames(ctx, p)
}

func (ls *listings) PlayerGames(ctx context.Context, p Principal) (time.Time, []PlayerGame, error) {
	var f GameFilter
	if err := scopeToPlayer(p, &f); err != nil {
		return time.Time{}, nil, err
	}
	at := ls.clock.Now()
	games, err := ls.games.PlayerGames(ctx, f)
	if err == nil && len(games) == 0 && p.Kind == GameToken {
		return at, nil, domain.Errorf(domain.KindUnauthorized, "unauthorized", "This token holds no seat in any game.")
	}
	return at, games, err
}

// SeatFollower derives one seat's events from a game's entries, seen one by one in order. It keeps
// the game's state after the last entry it saw, to know whose turn that entry left.
type SeatFollower struct {
	seat  int
	state domain.State // nil before the start
	toAct bool         // the seat was to act after the last entry seen
}

// NewSeatFollower makes a follower of seat that has seen no entry yet.
func NewSeatFollower(seat int) *SeatFollower { return &SeatFollower{seat: seat} }

// FollowSeat makes a follower of seat that has seen the game's entries up to seq `after` (-1: none),
// folding the history up to there.
func (s *Service) FollowSeat(ctx context.Context, g *Game, seat int, after int64) (*SeatFollower, error) {
	f := NewSeatFollower(seat)
	if after < 0 {
		return f, nil
	}
	entries, err := s.store.EntriesThrough(ctx, g.ID, after)
	if err != nil || len(entries) == 0 {
		return f, err // no entries: a game still in its lobby
	}
	if f.state, err = Fold(g, entries); err != nil {
		return nil, err
	}
	f.toAct = f.seatToAct(g, entries[len(entries)-1])
	return f, nil
}

// Next is what entry e, the one after the last the follower saw, tells the seat, in order: the
// game started; the server acted for the seat (timeout); it is the seat's turn, once per turn
// (an entry that leaves the seat to act, as its own roll does before its move, tells nothing).
// GameEnded is not among them: the game's end follows its last entry (see GameEndedAfter).
func (f *SeatFollower) Next(g *Game, e Entry) ([]PlayerEvent, error) {
	var events []PlayerEvent
	switch {
	case e.Seq == 0:
		state, err := Fold(g, []Entry{e})
		if err != nil {
			return nil, err
		}
		f.state = state
		events = append(events, GameStarted)
	case f.state == nil:
		return nil, fmt.Errorf("game %s: entry %d follows no start", g.ID, e.Seq)
	case !e.Service:
		state, err := domain.Replay(f.state, domain.Record{Seat: *e.Seat, Action: e.Action, Random: e.Random})
		if err != nil {
			return nil, err
		}
		f.state = state
	}
	if e.Timeout && e.Seat != nil && *e.Seat == f.seat {
		events = append(events, TimedOut)
	}
	toAct := f.seatToAct(g, e)
	if toAct && !f.toAct {
		events = append(events, YourTurn)
	}
	f.toAct = toAct
	return events, nil
}

// seatToAct reports whether the seat is to act after entry e: the game goes on, the seat is among
// those to act, and no computer plays it (its player resigned).
func (f *SeatFollower) seatToAct(g *Game, e Entry) bool {
	st := f.state.Status()
	return g.StatusAfter(e) == StatusActive && !st.Finished && slices.Contains(st.ToAct, f.seat) && !isBotSeat(&g.GameRecord, f.seat)
}
