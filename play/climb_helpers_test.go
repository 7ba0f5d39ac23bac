package play_test

import (
	"context"
	"encoding/json"
	"testing"

	"primegames/domain"
	"primegames/domain/games"
	"primegames/play"
	"primegames/repo"
	"primegames/repo/repotest"
)

// climbForTwo is a fresh database with a game master over it and a Prime Climb game of Ada and Ben
// in it, with the token of the seat to act first.
func climbForTwo(t *testing.T) (*repo.DB, *play.Service, *play.Created, play.Principal) {
	t.Helper()
	db := repotest.NewDB(t)
	master := play.New(db.Games().Stores(), games.All())
	created, err := master.Create(context.Background(), play.NewGame{Kind: "prime-climb", Players: []string{"Ada", "Ben"}}, play.Nobody, nil)
	if err != nil {
		t.Fatal(err)
	}
	first := created.Game.State.Status().ToAct[0]
	return db, master, created, play.IdentifyToken(created.SeatTokens[first].Token, "")
}

// firstLegalAction is the first of the seat's legal actions in state, as it would be posted.
func firstLegalAction(t *testing.T, state domain.State, seat int) json.RawMessage {
	t.Helper()
	return allLegalActions(t, state, seat)[0]
}
