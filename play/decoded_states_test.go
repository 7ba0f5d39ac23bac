package play_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
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

// The kept states are keyed by a game's version alone, which holds only if no two snapshots of a
// game share a version. A trigger refuses any update of a game that changes its snapshot without
// moving its version on (or moves it back), and a game goes through every change a snapshot has:
// a lobby joined and started, actions by two instances (each in one round trip on its kept record
// or read afresh), a resignation, a rematch and an aborted lobby. The services of play's tests
// also check, on every state they find, that it was decoded from the snapshot read.
func TestEveryChangeOfASnapshotMovesTheVersionOn(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := repotest.NewDB(t)
	if _, err := db.Pool.Exec(ctx, `
		CREATE FUNCTION one_snapshot_per_version() RETURNS trigger LANGUAGE plpgsql AS $$
		BEGIN
			IF NEW.version < OLD.version OR (NEW.version = OLD.version AND NEW.snapshot::text IS DISTINCT FROM OLD.snapshot::text) THEN
				RAISE EXCEPTION 'game % has another snapshot at version % (was %)', NEW.id, NEW.version, OLD.version;
			END IF;
			RETURN NEW;
		END $$;
		CREATE TRIGGER one_snapshot_per_version BEFORE UPDATE ON games FOR EACH ROW EXECUTE FUNCTION one_snapshot_per_version();`); err != nil {
		t.Fatal(err)
	}
	first := play.New(db.Games().Stores(), games.All())
	second := play.New(db.Games().Stores(), games.All())
	created, err := first.Create(ctx, play.NewGame{Kind: "prime-climb", OpenSeats: 2}, play.Nobody, nil)
	if err != nil {
		t.Fatal(err)
	}
	id := created.Game.ID
	var seats []string
	for i, name := range []string{"Ada", "Bo"} {
		joined, err := []*play.Service{first, second}[i].Join(ctx, id, play.Nobody, play.JoinAsk{Name: name, InviteCode: created.InviteCode}, nil)
		if err != nil {
			t.Fatal(err)
		}
		seats = append(seats, joined.Seat.Token)
	}
	if _, _, err := second.Start(ctx, id, play.IdentifyToken(created.CreatorToken, ""), nil); err != nil {
		t.Fatal(err)
	}
	for step := range 8 {
		actor := []*play.Service{first, second}[step%2]
		g, err := actor.Load(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		seat := g.State.Status().ToAct[0]
		action := firstLegalAction(t, g.State, seat)
		if _, err := actor.Act(ctx, play.Action{GameID: id, Action: action}, play.IdentifyToken(seats[seat], ""), nil); err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
	}
	if _, _, err := first.Resign(ctx, id, play.IdentifyToken(seats[0], ""), nil); err != nil {
		t.Fatal(err)
	}
	if _, err := second.Rematch(ctx, id, play.IdentifyToken(seats[1], "")); err != nil {
		t.Fatal(err)
	}
	lobby, err := second.Create(ctx, play.NewGame{Kind: "primed", OpenSeats: 2}, play.Nobody, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := first.Abort(ctx, lobby.Game.ID, play.IdentifyToken(lobby.CreatorToken, ""), nil); err != nil {
		t.Fatal(err)
	}

	// The trigger does refuse what it is there to refuse.
	_, err = db.Pool.Exec(ctx, `UPDATE games SET snapshot = '{"changed": true}' WHERE id = $1`, id)
	if err == nil || !strings.Contains(err.Error(), "another snapshot at version") {
		t.Fatalf("a snapshot changed at its version: %v, want refused", err)
	}
}
