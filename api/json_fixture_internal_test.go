package api

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"testing"

	"primegames/api/openapi"
	"primegames/domain/games"
	"primegames/play"
	"primegames/repo/repotest"
)

// playedGame is a game of kind played over a real Postgres for moves actions, as the service plays
// it, with the answer of its last action: what PostAction renders.
type playedGame struct {
	service *play.Service
	acted   *play.Acted
	// tokens are the seats' tokens, by seat.
	tokens []string
}

// playGame creates a two-player game of kind with the given names and plays at least moves actions,
// each the legal action a fixed seed picks, until the seat that acted last is to act again (as after
// a roll in Prime Climb), so that its legal actions are not empty; it stops early if the game ends.
// each, when not nil, sees the game after every action.
func playGame(tb testing.TB, kind string, names []string, moves int, seed uint64, each func(playedGame)) playedGame {
	tb.Helper()
	ctx := context.Background()
	service := play.New(repotest.NewDB(tb).Games(), games.All())
	created, err := service.Create(ctx, play.NewGame{Kind: kind, Players: names}, play.Nobody, nil)
	if err != nil {
		tb.Fatalf("create %s: %v", kind, err)
	}
	played := playedGame{service: service}
	for _, t := range created.SeatTokens {
		played.tokens = append(played.tokens, t.Token)
	}
	rng := rand.New(rand.NewPCG(seed, 7))
	g := created.Game
	for n := 0; g.Status == play.StatusActive; n++ {
		if n >= moves && played.acted != nil && slices.Contains(g.State.Status().ToAct, played.acted.Caller.Seat) {
			break
		}
		seat := g.State.Status().ToAct[0]
		listed, err := json.Marshal(g.ChoicesOf(seat).Actions)
		if err != nil {
			tb.Fatal(err)
		}
		var choices []struct{ Action json.RawMessage }
		if err := json.Unmarshal(listed, &choices); err != nil || len(choices) == 0 {
			tb.Fatalf("legal actions of seat %d: %s (%v)", seat, listed, err)
		}
		action := choices[rng.IntN(len(choices))].Action
		played.acted, err = service.Act(ctx, play.Action{GameID: g.ID, Action: action}, played.principal(tb, seat), nil)
		if err != nil {
			tb.Fatalf("act %s: %v", action, err)
		}
		g = played.acted.Game
		if each != nil {
			each(played)
		}
	}
	if played.acted == nil {
		tb.Fatal("no action was played")
	}
	return played
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
	if err := includeLegalActions(&game, legalActions, acted.Game, acted.Caller); err != nil {
		tb.Fatal(err)
	}
	entry, err := entryBody(acted.Game, acted.Entry, play.ViewerFor(acted.Game.Status, acted.Caller))
	if err != nil {
		tb.Fatal(err)
	}
	return openapi.ActionResult{Entry: entry, Game: game}
}
