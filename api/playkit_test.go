package api_test

import (
	"encoding/json"
	"testing"

	"primegames.dev/client"
	"primegames/domain/players"
)

// The play-to-the-end driver: any kind of the catalogue is played from a created game to its end
// through the public API only. Until the game is over it asks the seat to act for its legal actions
// (and another seat, which must have none), posts one of them as it is, and checks the answer
// against the contract and the game: the response (see table.act), the replay step against the game
// view with the same token (G-2), the fold of the stored history against the stored snapshot (G-2,
// now and then) and the history as viewers follow it page by page, which shows no random values
// while the game runs (G-1). At the end it checks the finished game, its scores, that it takes no
// more actions, and the whole public history paged and as NDJSON with its random values (G-1).
// A kind's kit adds only what the kind truly has of its own: its rules read from the outcomes,
// what a viewer may see of hidden things, and how its scores name the winners.

// kindKit is what the driver needs to know of one kind beyond the public API; every field may be
// left zero.
type kindKit struct {
	// maxActions fails a game not over after that many actions (default 5000).
	maxActions int
	// player picks among the legal entries (default: the kind's greedy strategy, mostly).
	player players.Player
	// hidden: the kind hides things from some viewers (PR-8). After every action every viewer's
	// view is read and checked; the replay step is checked for the actor and, in turn, for one other
	// viewer, with an earlier step too; every viewer other than the actor follows the history.
	// Otherwise only the actor's view is read (its replay step at every action early on and every
	// fifth later), and one viewer in turn follows the history.
	hidden bool
	// closed is an action to post on the finished game, refused with game_over.
	closed string

	// acted checks one accepted action: picked is the legal entry posted, e the new history entry.
	acted func(p *playthrough, seat int, picked json.RawMessage, e client.HistoryEntry)
	// viewed checks a view read while the game runs; viewer -1 is the public. actorView is called
	// with the actor's view after every action, running or not.
	viewed func(p *playthrough, seq int64, viewer int, view json.RawMessage)
	// (viewer -1 reads with table.public: no token for an open game.)
	actorView func(p *playthrough, seat int, picked json.RawMessage, e client.HistoryEntry, g client.Game, view json.RawMessage)
	// followed checks the history entries a viewer reads while the game runs.
	followed func(p *playthrough, viewer int, items []json.RawMessage)
	// finished checks the finished game against an independent reading of its scores and history.
	finished func(p *playthrough, g client.Game, scores json.RawMessage, entries []client.HistoryEntry)
}

// playthrough is one game being played to its end by the driver.
type playthrough struct {
	*table
	kit   kindKit
	first int // the seat that acted first
}

// playToEnd plays tb's game to its end with kit and returns the finished game.
func playToEnd(t *testing.T, tb *table, kit kindKit) client.Game {
	t.Helper()
	if kit.maxActions == 0 {
		kit.maxActions = 5000
	}
	if kit.player == nil {
		kit.player = greedyPlayer(t, tb.kind)
	}
	p := &playthrough{table: tb, kit: kit, first: tb.toAct()}
	seats := len(tb.tokens)
	token := func(viewer int) string {
		if viewer < 0 {
			return tb.public
		}
		return tb.tokens[viewer]
	}
	tails := make([]*tail, seats+1) // by viewer + 1: the public, then every seat
	for i := range tails {
		tails[i] = &tail{token: token(i - 1), seen: -1}
	}

	for n := 0; tb.game.Status == "active"; n++ {
		if n >= kit.maxActions {
			t.Fatalf("%s game not over after %d actions", tb.kind, n)
		}
		seat := tb.toAct()
		legal := tb.legal(seat)
		if len(legal) == 0 {
			t.Fatalf("seq %d: seat %d is to act in phase %s but has no legal action", tb.seq, seat, tb.game.Turn.Phase)
		}
		if other := (seat + 1) % seats; other != seat {
			if l := tb.legal(other); len(l) != 0 {
				t.Errorf("seq %d: seat %d is not to act but has %d legal actions", tb.seq, other, len(l))
			}
		}
		i, err := kit.player(legal, tb.rng)
		if err != nil {
			t.Fatal(err)
		}
		var pick struct {
			Action json.RawMessage `json:"action"`
		}
		if err := json.Unmarshal(legal[i], &pick); err != nil || len(pick.Action) == 0 {
			t.Fatalf("legal entry %s has no action: %v", legal[i], err)
		}
		e, g := tb.act(seat, pick.Action)
		if kit.acted != nil {
			kit.acted(p, seat, legal[i], e)
		}
		running := g.Status == "active"

		// The replay step reads the whole history: checked at every action early on and every fifth
		// later (a game of four runs to hundreds of actions), and for a kind with hidden things for
		// the actor and one other viewer in turn: every viewer every time would be quadratic twice.
		replayed := -2
		if kit.hidden {
			replayed = -1 + int(e.Seq)%(seats+1)
			if replayed == seat {
				replayed = -1 + (replayed+2)%(seats+1)
			}
		}
		for viewer := -1; viewer < seats; viewer++ {
			if viewer != seat && !kit.hidden {
				continue
			}
			thorough := viewer == replayed || viewer == seat && (kit.hidden || n < 40 || n%5 == 0 || !running)
			var view json.RawMessage
			if thorough {
				view = tb.checkReplay(token(viewer))
			} else {
				view = stateOf(tb.get(token(viewer)))
			}
			if viewer == seat && kit.actorView != nil {
				kit.actorView(p, seat, legal[i], e, g, view)
			}
			if running && kit.viewed != nil {
				kit.viewed(p, e.Seq, viewer, view)
				if viewer == replayed {
					// An earlier replay step hides as much as the present (PR-8).
					k := tb.rng.Int64N(e.Seq + 1)
					kit.viewed(p, k, viewer, tb.stateAt(token(viewer), k))
				}
			}
		}
		if running {
			for viewer := -1; viewer < seats; viewer++ {
				follows := viewer != seat
				if !kit.hidden {
					follows = viewer+1 == int(e.Seq)%len(tails)
				}
				if !follows {
					continue
				}
				items := tails[viewer+1].next(tb)
				// Only a classroom's teacher sees the random values while the game runs (G-1).
				teacher := viewer < 0 && tb.public != ""
				for _, raw := range items {
					if field(t, raw, "random", nil) != teacher {
						t.Errorf("G-1: viewer %d (teacher %v) sees the random values of entry %s while the game runs: %v", viewer, teacher, raw, !teacher)
					}
				}
				if kit.followed != nil {
					kit.followed(p, viewer, items)
				}
			}
		}
		tb.checkFoldNowAndThen()
	}

	g, scores := tb.checkFinished(kit.closed)
	entries := tb.checkFinalHistory()
	if kit.finished != nil {
		kit.finished(p, g, scores, entries)
	}
	return g
}
