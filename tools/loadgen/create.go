package main

import (
	"context"
	"encoding/json"
	"math/rand/v2"

	"primegames/domain/games"
	"primegames/domain/players"
)

// created is the part of a 201 to POST /v1/games that loadgen uses.
type created struct {
	Game struct {
		ID   string
		Turn *struct {
			ToAct []int `json:"to_act"`
		}
	}
	Seats []struct {
		Seat  int
		Token string
	}
}

// tokens maps each seat to its token.
func (c created) tokens() map[int]string {
	tokens := map[int]string{}
	for _, s := range c.Seats {
		tokens[s.Seat] = s.Token
	}
	return tokens
}

// createGame creates a game of kind for 2–4 named players; it starts at once.
func (c *client) createGame(ctx context.Context, game string, rng *rand.Rand) (created, bool) {
	seated := make([]map[string]string, 2+rng.IntN(3))
	first := rng.IntN(len(names))
	for i := range seated {
		seated[i] = map[string]string{"name": names[(first+i)%len(names)]}
	}
	body, _ := json.Marshal(map[string]any{"game": game, "players": seated})
	var out created
	if !c.call(ctx, kindCreate, "POST", "/v1/games", "", body, newKey(), &out) {
		return out, false
	}
	c.st.gamesStarted++
	return out, true
}

// playerFor picks actions of kind: nine in ten the kind's greedy choice, the others uniform.
func playerFor(game string) players.Player {
	kind, _ := games.All().Lookup(game)
	return players.Mostly(players.Greedy(kind), greedyPercent)
}
