package play_test

import (
	"context"
	"encoding/json"
	"testing"

	"primegames/domain"
	"primegames/play"
)

// A game keeps at most ten refused actions of one seat at one position: a client that sends refused
// actions for ever grows nothing without end (issue 23). The refusals go on; at the next position,
// refusals are kept again.
func TestRefusalsKeptPerSeatAndPositionAreBounded(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, master, created, _ := climbForTwo(t)
	id := created.Game.ID
	seats := map[int]play.Principal{}
	for _, s := range created.SeatTokens {
		seats[s.Seat] = play.IdentifyToken(s.Token, "")
	}
	refuseOnce := func() {
		t.Helper()
		g, err := master.Load(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		idle := 1 - g.State.Status().ToAct[0]
		_, err = master.Act(ctx, play.Action{GameID: id, Action: json.RawMessage(`{"type":"roll"}`)}, seats[idle], nil)
		if domain.ErrorCode(err) != "not_your_turn" {
			t.Fatalf("acting out of turn: %v, want not_your_turn", err)
		}
	}
	kept := func() int {
		t.Helper()
		attempts, err := db.Games().Attempts(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return len(attempts)
	}
	for range 25 {
		refuseOnce()
	}
	if n := kept(); n != 10 {
		t.Fatalf("25 refusals at one position kept %d attempts, want 10", n)
	}

	g, err := master.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	seat := g.State.Status().ToAct[0]
	if _, err := master.Act(ctx, play.Action{GameID: id, Action: firstLegalAction(t, g.State, seat)}, seats[seat], nil); err != nil {
		t.Fatal(err)
	}
	refuseOnce()
	if n := kept(); n != 11 {
		t.Fatalf("a refusal at the next position: %d attempts kept, want 11", n)
	}
}
