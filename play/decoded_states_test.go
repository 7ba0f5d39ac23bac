package play_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"primegames/domain/games"
	"primegames/play"
	"primegames/repo/repotest"
)

// Two instances over one database: each keeps the states it decoded or wrote, and neither ever
// answers from a state the other has since moved on. The instances take turns at playing whatever
// the game asks for next (a roll, a move, a second roll after doubles), so each step is played by
// an instance that last read the game before the other one changed it.
func TestKeptStatesFollowTheStoredSnapshot(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, first, created, _ := climbForTwo(t)
	second := play.New(db.Games().Stores(), games.All())
	instances := []*play.Service{first, second}
	id := created.Game.ID
	stateOf := func(s *play.Service) []byte {
		t.Helper()
		g, err := s.Load(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		encoded, err := json.Marshal(g.State)
		if err != nil {
			t.Fatal(err)
		}
		return encoded
	}
	stored := func() []byte { return stateOf(play.New(db.Games().Stores(), games.All())) } // decoded afresh

	before := stored()
	for _, s := range instances {
		if got := stateOf(s); !bytes.Equal(got, before) {
			t.Fatalf("an instance answers\n%s\nnot the stored\n%s", got, before)
		}
	}
	for step := range 6 {
		actor := instances[step%2]
		g, err := actor.Load(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		seat := g.State.Status().ToAct[0]
		mover := play.IdentifyToken(created.SeatTokens[seat].Token, "")
		action := firstLegalAction(t, g.State, seat)
		if _, err := actor.Act(ctx, play.Action{GameID: id, Action: action}, mover, nil); err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
		now := stored()
		if bytes.Equal(now, before) {
			t.Fatalf("step %d: %s changed nothing", step, action)
		}
		for i, s := range instances {
			if got := stateOf(s); !bytes.Equal(got, now) {
				t.Fatalf("step %d: instance %d (instance %d acted) answers\n%s\nnot the stored\n%s", step, i, step%2, got, now)
			}
		}
		before = now
	}
}

// A game's decoded state is kept while it is played and let go once it is over, so that the games
// long finished do not fill the instance's memory up to the limit.
func TestAFinishedGameKeepsNoDecodedState(t *testing.T) {
	t.Parallel()
	master := play.New(repotest.NewDB(t).Games().Stores(), games.All())
	ctx := context.Background()
	created, err := master.Create(ctx, play.NewGame{Kind: "primed", Players: []string{"Ada", "Bo"}}, play.Nobody, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := master.Load(ctx, created.Game.ID); err != nil || !master.HoldsDecodedState(created.Game.ID) {
		t.Fatalf("a game under way read (%v): decoded state kept %v, want kept", err, master.HoldsDecodedState(created.Game.ID))
	}
	id, _ := finishedGame(t, master)
	if _, err := master.Load(ctx, id); err != nil || master.HoldsDecodedState(id) {
		t.Errorf("a finished game read (%v): decoded state kept %v, want none", err, master.HoldsDecodedState(id))
	}
}
