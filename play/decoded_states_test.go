package play_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"primegames/domain/games"
	"primegames/play"
)

// Two instances over one database: each keeps the states it decoded or wrote, and neither ever
// answers from a state the other has since moved on.
func TestKeptStatesFollowTheStoredSnapshot(t *testing.T) {
	ctx := context.Background()
	db, first, created, mover := climbForTwo(t)
	second := play.New(db.Games(), games.All())
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
	stored := func() []byte { return stateOf(play.New(db.Games(), games.All())) } // decoded afresh

	before := stateOf(first)
	for range 2 {
		if _, err := second.Act(ctx, play.Action{GameID: id, Action: json.RawMessage(`{"type":"roll"}`)}, mover, nil); err != nil {
			t.Fatal(err)
		}
		now := stored()
		if bytes.Equal(now, before) {
			t.Fatal("the roll changed nothing")
		}
		if got := stateOf(first); !bytes.Equal(got, now) {
			t.Fatalf("the instance that read the game before the roll answers\n%s\nnot the stored\n%s", got, now)
		}
		if got := stateOf(second); !bytes.Equal(got, now) {
			t.Fatalf("the instance that rolled answers\n%s\nnot the stored\n%s", got, now)
		}
		// The other seat moves, through the first instance, which knows the state it read.
		g, err := first.Load(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		var legal []struct{ Action json.RawMessage }
		seat := g.State.Status().ToAct[0]
		if encoded, err := json.Marshal(g.State.LegalActions(seat)); err != nil || json.Unmarshal(encoded, &legal) != nil || len(legal) == 0 {
			t.Fatalf("no legal move after the roll: %s %v", encoded, err)
		}
		if _, err := first.Act(ctx, play.Action{GameID: id, Action: legal[0].Action}, mover, nil); err != nil {
			t.Fatal(err)
		}
		before = stored()
		if got := stateOf(second); !bytes.Equal(got, before) {
			t.Fatalf("the instance that rolled answers after the move\n%s\nnot the stored\n%s", got, before)
		}
		mover = play.IdentifyToken(created.SeatTokens[1-seat].Token, "")
	}
}
