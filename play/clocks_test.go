package play_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"primegames/domain/games"
	"primegames/play"
	"primegames/play/playclock"
	"primegames/repo"
	"primegames/repo/repotest"
)

// clockTable is a game of two people with a turn clock of a minute, on a clock that the test moves
// to the deadlines instead of waiting for them.
type clockTable struct {
	t      *testing.T
	ctx    context.Context
	db     *repo.DB
	clock  *playclock.Clock
	master *play.Service
	game   *play.Created
}

const tableTurn = time.Minute

func newClockTable(t *testing.T, kind string) *clockTable {
	t.Helper()
	ctx := context.Background()
	db := repotest.NewDB(t)
	clock := playclock.New(time.Now())
	master := play.New(db.Games().Stores(), games.All(), play.WithClock(clock))
	created, err := master.Create(ctx, play.NewGame{Kind: kind, Options: json.RawMessage(`{"turn_seconds":60}`),
		Players: []string{"Ada", "Ben"}}, play.Nobody, nil)
	if err != nil {
		t.Fatal(err)
	}
	return &clockTable{t: t, ctx: ctx, db: db, clock: clock, master: master, game: created}
}

func (c *clockTable) load() *play.Game {
	c.t.Helper()
	g, err := c.master.Load(c.ctx, c.game.Game.ID)
	if err != nil {
		c.t.Fatal(err)
	}
	return g
}

// expire moves the clock to the game's deadline, which it checks is a whole turn after the game's
// last change, and lets the worker play the expired turn: nothing is due a moment before.
func (c *clockTable) expire() {
	c.t.Helper()
	g := c.load()
	if g.TurnDeadline == nil || !g.TurnDeadline.Equal(g.UpdatedAt.Add(tableTurn)) {
		c.t.Fatalf("deadline %v, want a minute after the last change at %v", g.TurnDeadline, g.UpdatedAt)
	}
	c.clock.Set(g.TurnDeadline.Add(-time.Millisecond))
	if acted, err := c.master.ActForExpiredTurn(c.ctx); acted || err != nil {
		c.t.Fatalf("a moment before the deadline: acted %v, err %v; want nothing due", acted, err)
	}
	c.clock.Set(*g.TurnDeadline)
	if acted, err := c.master.ActForExpiredTurn(c.ctx); !acted || err != nil {
		c.t.Fatalf("expired turn: acted %v, err %v", acted, err)
	}
}

func (c *clockTable) entries() []play.Entry {
	c.t.Helper()
	entries, err := c.db.Games().EntriesThrough(c.ctx, c.game.Game.ID, 1<<40)
	if err != nil {
		c.t.Fatal(err)
	}
	return entries
}

// A turn whose time ran out is played by the server and marked as a timeout; after three turns of
// one seat in a row, the seat is resigned and, with two players, the other wins (G-4, G-3).
func TestThreeTimedOutTurnsResignTheSeat(t *testing.T) {
	t.Parallel()
	for _, kind := range []string{"primed", "prime-climb"} {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			c := newClockTable(t, kind)
			g := c.load()
			if g.TurnDeadline == nil || !g.TurnDeadline.Equal(c.clock.Now().Add(tableTurn)) {
				t.Fatalf("deadline %v, want a minute from the start at %v", g.TurnDeadline, c.clock.Now())
			}
			if acted, err := c.master.ActForExpiredTurn(c.ctx); acted || err != nil {
				t.Fatalf("before the deadline: acted %v, err %v; want nothing to do", acted, err)
			}
			first := g.State.Status().ToAct[0]
			var turns []int // the seat of each timed-out turn
			for i := range 5 {
				before := len(c.entries())
				c.expire()
				added := c.entries()[before:]
				if len(added) == 0 {
					t.Fatalf("turn %d: no entry", i)
				}
				seat := *added[0].Seat
				for _, e := range added {
					if (!e.Timeout && !e.Service) || e.Seat == nil || *e.Seat != seat {
						t.Errorf("turn %d: entry %d (%s), want a timeout of seat %d", i, e.Seq, e.Action, seat)
					}
				}
				// A Prime Climb turn played for the seat rolls and moves; keeper cards may come before
				// the roll (PC-5), when the seat holds any.
				if kind == "prime-climb" && !rollThenMove(added) {
					t.Errorf("turn %d: %d entries, the first %s; want a roll and a move after it", i, len(added), added[0].Action)
				}
				turns = append(turns, seat)
			}
			other := 1 - first
			if want := []int{first, other, first, other, first}; !slices.Equal(turns, want) {
				t.Errorf("timed-out turns of seats %v, want %v", turns, want)
			}
			g = c.load()
			entries := c.entries()
			last := entries[len(entries)-1]
			var outcome play.ResignOutcome
			if err := json.Unmarshal(last.Outcome, &outcome); err != nil || !last.Service || outcome.Resigned != first || outcome.Reason != play.ResignTimeouts {
				t.Errorf("last entry %s → %s, want seat %d resigned for timeouts", last.Action, last.Outcome, first)
			}
			if g.Status != play.StatusFinished || !slices.Equal(g.Winners, []int{other}) || g.TurnDeadline != nil {
				t.Errorf("game %s, winners %v, deadline %v; want seat %d the winner and no clock", g.Status, g.Winners, g.TurnDeadline, other)
			}
			// The move review judges the players' own actions, and the server played them all.
			review, err := c.master.Review(c.ctx, g.ID, play.IdentifyToken(c.game.SeatTokens[0].Token, ""))
			if err != nil || len(review.Entries) != 0 {
				t.Errorf("review: %v, %d entries judged; want none of the server's actions", err, len(review.Entries))
			}
		})
	}
}

// A player who acts is back: their count of timed-out turns starts again (G-4), and their action
// sets a new deadline.
func TestAPlayerActingStartsTheCountAgain(t *testing.T) {
	t.Parallel()
	c := newClockTable(t, "primed")
	first := c.load().State.Status().ToAct[0]
	c.expire() // first's turn
	c.expire() // the other's
	g := c.load()
	if g.Seats[first].Timeouts != 1 || g.Seats[1-first].Timeouts != 1 {
		t.Fatalf("timeouts %d and %d, want 1 each", g.Seats[0].Timeouts, g.Seats[1].Timeouts)
	}
	before := *g.TurnDeadline
	acting := c.clock.Advance(10 * time.Second)
	choice := firstLegalAction(t, g.State, first)
	token := c.game.SeatTokens[first].Token
	if _, err := c.master.Act(c.ctx, play.Action{GameID: g.ID, Action: choice}, play.IdentifyToken(token, ""), nil); err != nil {
		t.Fatal(err)
	}
	g = c.load()
	if g.Seats[first].Timeouts != 0 || g.Seats[1-first].Timeouts != 1 {
		t.Errorf("timeouts %d and %d after seat %d acted, want its own back to 0", g.Seats[0].Timeouts, g.Seats[1].Timeouts, first)
	}
	if g.TurnDeadline == nil || !g.TurnDeadline.Equal(acting.Add(tableTurn)) || !g.TurnDeadline.After(before) {
		t.Errorf("deadline %v after the action at %v, was %v; want a minute after the action", g.TurnDeadline, acting, before)
	}
	if last := c.entries()[len(c.entries())-1]; last.Timeout {
		t.Errorf("the player's own action is marked as a timeout")
	}
}

// Lobbies older than the lobby TTL and active games idle longer than the idle TTL are aborted, each
// once, with the reason; the idle game's history ends with the abort.
func TestAbandonedGamesAreAborted(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := repotest.NewDB(t)
	clock := playclock.New(time.Now())
	master := play.New(db.Games().Stores(), games.All(), play.WithClock(clock),
		play.WithAbandonTTLs(play.AbandonTTLs{Lobby: time.Second, Idle: 2 * time.Second}))
	lobby, err := master.Create(ctx, play.NewGame{Kind: "primed", OpenSeats: 2}, play.Nobody, nil)
	if err != nil {
		t.Fatal(err)
	}
	active, err := master.Create(ctx, play.NewGame{Kind: "primed", Players: []string{"Ada", "Ben"}}, play.Nobody, nil)
	if err != nil {
		t.Fatal(err)
	}
	if acted, err := master.AbortAbandonedGame(ctx); acted || err != nil {
		t.Fatalf("at once: acted %v, err %v; want nothing abandoned yet", acted, err)
	}
	// The lobby's TTL passes first, then the active game's; each is aborted once.
	for _, wait := range []time.Duration{time.Second, time.Second} {
		clock.Advance(wait - time.Millisecond)
		if acted, err := master.AbortAbandonedGame(ctx); acted || err != nil {
			t.Fatalf("a moment before a TTL passes: acted %v, err %v; want nothing abandoned yet", acted, err)
		}
		clock.Advance(time.Millisecond)
		if acted, err := master.AbortAbandonedGame(ctx); !acted || err != nil {
			t.Fatalf("acted %v, err %v; want an abandoned game aborted", acted, err)
		}
		if acted, err := master.AbortAbandonedGame(ctx); acted || err != nil {
			t.Fatalf("a second time: acted %v, err %v; want nothing left", acted, err)
		}
	}
	for id, want := range map[string]play.EndReason{lobby.Game.ID: play.EndLobbyExpired, active.Game.ID: play.EndIdle} {
		g, err := master.Load(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if g.Status != play.StatusAborted || g.EndReason != want || g.FinishedAt == nil {
			t.Errorf("game %s: %s (%q), want aborted as %s", id, g.Status, g.EndReason, want)
		}
	}
	entries, err := db.Games().EntriesThrough(ctx, active.Game.ID, 1<<40)
	if err != nil {
		t.Fatal(err)
	}
	last := entries[len(entries)-1]
	if !last.Service || last.Seat != nil || string(last.Action) != `{"type": "abort", "reason": "idle"}` || last.Version != active.Game.Version+1 {
		t.Errorf("last entry: %s by %v at version %d, want the service's abort at version %d", last.Action, last.Seat, last.Version, active.Game.Version+1)
	}
}

// rollThenMove reports whether the entries have a roll and, after it, a move.
func rollThenMove(entries []play.Entry) bool {
	rolled := false
	for _, e := range entries {
		var a struct{ Type string }
		if json.Unmarshal(e.Action, &a) != nil {
			return false
		}
		switch {
		case a.Type == "roll":
			rolled = true
		case a.Type == "move" && rolled:
			return true
		}
	}
	return false
}
