package api

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"primegames/api/openapi"
	"primegames/domain/games"
	"primegames/play"
	"primegames/play/i18n"
	"primegames/repo/repotest"
)

// playedGame is a game played over a real Postgres as the service plays it, with the answer of its
// last action: what PostAction renders.
type playedGame struct {
	service *play.Service
	acted   *play.Acted
	// tokens are the seats' tokens, by seat.
	tokens []string
}

// playGame creates a game of kind with a player of each name and plays it, each action the legal
// action of the first seat to act that a fixed seed picks, while the game goes on and more, told of
// the game after each action and of the actions so far, says to play on.
func playGame(tb testing.TB, kind string, names []string, seed uint64, more func(p playedGame, moves int) bool) playedGame {
	tb.Helper()
	ctx := context.Background()
	service := play.New(repotest.NewDB(tb).Games().Stores(), games.All())
	created, err := service.Create(ctx, play.NewGame{Kind: kind, Players: names}, play.Nobody, nil)
	if err != nil {
		tb.Fatalf("create %s: %v", kind, err)
	}
	played := playedGame{service: service}
	for _, t := range created.SeatTokens {
		played.tokens = append(played.tokens, t.Token)
	}
	rng := rand.New(rand.NewPCG(seed, 7))
	for g, moves := created.Game, 1; g.Status == play.StatusActive; moves++ {
		seat := g.State.Status().ToAct[0]
		choices := legalChoices(tb, g, seat)
		action := choices[rng.IntN(len(choices))].Action
		played.acted, err = service.Act(ctx, play.Action{GameID: g.ID, Action: action}, played.principal(tb, seat), nil)
		if err != nil {
			tb.Fatalf("act %s: %v", action, err)
		}
		if g = played.acted.Game; !more(played, moves) {
			break
		}
	}
	if played.acted == nil {
		tb.Fatal("no action was played")
	}
	return played
}

// recordings are the games playRecorded played, by kind, names and seed, each played once per test
// binary however many tests read it.
var recordings struct {
	sync.Mutex
	games map[string]*recording
}

type recording struct {
	once  sync.Once
	steps []playedGame
}

// playRecorded is playGame for tests that only read what each action answered: the game is played
// once, up to moves actions, and its steps (each with the answer of its action) are shared by every
// test that asks for the same game.
func playRecorded(tb testing.TB, kind string, names []string, seed uint64, moves int) []playedGame {
	tb.Helper()
	key := fmt.Sprintf("%s %q %d %d", kind, names, seed, moves)
	recordings.Lock()
	if recordings.games == nil {
		recordings.games = map[string]*recording{}
	}
	r := recordings.games[key]
	if r == nil {
		r = &recording{}
		recordings.games[key] = r
	}
	recordings.Unlock()
	r.once.Do(func() {
		var steps []playedGame
		playGame(tb, kind, names, seed, func(p playedGame, n int) bool {
			steps = append(steps, p)
			return n < moves
		})
		r.steps = steps
	})
	if len(r.steps) == 0 {
		tb.Fatalf("the game %s was not recorded (see the test that played it)", key)
	}
	return r.steps
}

// legalChoices is what seat may do in g now; each entry carries an action the engine takes.
func legalChoices(tb testing.TB, g *play.Game, seat int) []struct{ Action json.RawMessage } {
	tb.Helper()
	listed, err := json.Marshal(g.ChoicesOf(seat).Actions)
	if err != nil {
		tb.Fatal(err)
	}
	var choices []struct{ Action json.RawMessage }
	if err := json.Unmarshal(listed, &choices); err != nil {
		tb.Fatalf("legal actions of seat %d: %s (%v)", seat, listed, err)
	}
	return choices
}

// principal is the resolved principal of a seat's token.
func (p playedGame) principal(tb testing.TB, seat int) play.Principal {
	tb.Helper()
	principal, err := p.service.Resolve(context.Background(), play.IdentifyToken(p.tokens[seat], ""))
	if err != nil {
		tb.Fatal(err)
	}
	return principal
}

// actionResult is the body PostAction answers the last action with, asked with include=legal_actions
// when legalActions.
func (p playedGame) actionResult(tb testing.TB, legalActions bool) openapi.ActionResult {
	tb.Helper()
	acted := p.acted
	game, err := gameBody(acted.Game, acted.Caller)
	if err != nil {
		tb.Fatal(err)
	}
	if err := includeLegalActions(&game, legalActions, acted.Game, acted.Caller, i18n.English); err != nil {
		tb.Fatal(err)
	}
	entry, err := entryBody(acted.Game, acted.Entry, play.ViewerFor(acted.Game.Status, acted.Caller))
	if err != nil {
		tb.Fatal(err)
	}
	return openapi.ActionResult{Entry: entry, Game: game}
}
