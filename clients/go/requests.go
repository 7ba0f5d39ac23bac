package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
)

// A game's options and an action are JSON in the generated requests (CreateGameRequest.Options,
// PostAction's body), since the contract accepts those of any kind; these helpers make them from
// the kind's own types, so that a Go program writes no JSON by hand:
//
//	rounds := 2
//	req := client.PrimedGame(client.PrimedOptions{Rounds: &rounds}, client.Player("Ada"), client.Computer(client.BotLevelExpert))
//	created, err := api.CreateGameWithResponse(ctx, &client.CreateGameParams{}, req)
//	…
//	acted, err := client.PostActionOf(ctx, api, id, &client.PostActionParams{},
//		client.PrimedDrawAction{Type: client.PrimedDrawActionTypeDraw}, client.Bearer(token))

// KindOptions are the options of one kind of game.
type KindOptions interface {
	PrimeClimbOptions | PrimedOptions
}

// KindAction is an action of one kind of game: the kind's action (as a legal action lists it) or
// one of its types.
type KindAction interface {
	PrimeClimbAction | PrimeClimbRollAction | PrimeClimbMoveAction | PrimeClimbKeeperAction | PrimeClimbChooseAction |
		PrimedAction | PrimedPlayAction | PrimedDrawAction | PrimedPassAction
}

// OptionsOf is options as CreateGameRequest.Options takes them.
func OptionsOf[O KindOptions](options O) *GameOptions {
	raw, _ := json.Marshal(options) // fields of numbers, booleans and strings: nothing can fail
	opts := GameOptions(raw)
	return &opts
}

// PrimeClimbGame asks for a game of Prime Climb with these options (the zero value: every
// default) and players, which start it at once; set Seats instead of players to open a lobby.
func PrimeClimbGame(options PrimeClimbOptions, players ...PlayerRequest) CreateGameRequest {
	return newGame(GameKindPrimeClimb, OptionsOf(options), players)
}

// PrimedGame asks for a game of Primed with these options (the zero value: every default) and
// players, which start it at once; set Seats instead of players to open a lobby.
func PrimedGame(options PrimedOptions, players ...PlayerRequest) CreateGameRequest {
	return newGame(GameKindPrimed, OptionsOf(options), players)
}

func newGame(kind GameKind, options *GameOptions, players []PlayerRequest) CreateGameRequest {
	req := CreateGameRequest{Game: kind, Options: options}
	if len(players) > 0 {
		req.Players = &players
	}
	return req
}

// Player is a person seated by name.
func Player(name string) PlayerRequest { return PlayerRequest{Name: &name} }

// Computer is a computer player of this level, which the server plays.
func Computer(level BotLevel) PlayerRequest { return PlayerRequest{Bot: &level} }

// ActionOf is action as PostAction's body. It fails only for a kind's action (PrimeClimbAction,
// PrimedAction) that holds none: its zero value.
func ActionOf[A KindAction](action A) (Action, error) {
	body, err := json.Marshal(action)
	if err == nil && bytes.Equal(body, []byte("null")) {
		err = errors.New("client: an empty action (the zero value of a kind's action type)")
	}
	return body, err
}

// PostActionOf sends action for the seat whose token a request editor carries (Bearer): c's
// PostActionWithResponse with the action made by ActionOf.
func PostActionOf[A KindAction](ctx context.Context, c *ClientWithResponses, id GameID, params *PostActionParams, action A, reqEditors ...RequestEditorFn) (*PostActionResponse, error) {
	body, err := ActionOf(action)
	if err != nil {
		return nil, err
	}
	return c.PostActionWithResponse(ctx, id, params, body, reqEditors...)
}
