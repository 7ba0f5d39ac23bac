package play_test

import (
	"context"
	"testing"

	"primegames/domain"
	"primegames/domain/games"
	"primegames/play"
	"primegames/repo/repotest"
)

// The lifecycle through the game master and a real database, without HTTP: a lobby fills, starts,
// takes an action, refuses another (recording it), and answers a retry with the kept result.
func TestLobbyToFirstActionWithoutHTTP(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := repotest.NewDB(t)
	master := play.New(db.Games().Stores(), games.All())
	lobbyKey := "5b0c2e8a-41f7-4d0e-9a3c-7e1f6d2b8c90"
	created, err := master.Create(ctx, play.NewGame{Kind: "primed", OpenSeats: 2}, play.Nobody, play.NewIdempotency(&lobbyKey, []byte("{}")))
	if err != nil {
		t.Fatal(err)
	}
	id := created.Game.ID
	var seats []string
	for _, name := range []string{"Ada", "Bo"} {
		joined, err := master.Join(ctx, id, play.Nobody, play.JoinAsk{Name: name, InviteCode: created.InviteCode}, nil)
		if err != nil {
			t.Fatal(err)
		}
		seats = append(seats, joined.Seat.Token)
	}
	if _, err := master.Join(ctx, id, play.Nobody, play.JoinAsk{Name: "Cy", InviteCode: created.InviteCode}, nil); domain.ErrorCode(err) != "game_full" {
		t.Fatalf("third join: %v, want game_full", err)
	}
	if _, _, err := master.Abort(ctx, id, play.IdentifyToken(seats[0], ""), nil); domain.ErrorCode(err) != "forbidden" {
		t.Fatalf("a player aborting: %v, want forbidden", err)
	}
	g, caller, err := master.Start(ctx, id, play.IdentifyToken(created.CreatorToken, ""), nil)
	if err != nil || g.Status != play.StatusActive || !caller.Creator {
		t.Fatalf("start: %v, status %s, caller %+v", err, g.Status, caller)
	}

	toAct := g.State.Status().ToAct[0]
	mover, waiter := play.IdentifyToken(seats[toAct], ""), play.IdentifyToken(seats[1-toAct], "")
	legal := firstLegalAction(t, g.State, toAct)
	if _, err := master.Act(ctx, play.Action{GameID: id, Action: legal}, waiter, nil); domain.ErrorKind(err) != domain.KindNotYourTurn {
		t.Fatalf("out of turn: %v", err)
	}
	var attempts int
	if err := db.Pool.QueryRow(ctx, `SELECT count(*) FROM attempts WHERE game_id = $1`, id).Scan(&attempts); err != nil || attempts != 1 {
		t.Fatalf("attempts recorded = %d (%v), want 1", attempts, err)
	}

	key := "k1"
	first, err := master.Act(ctx, play.Action{GameID: id, Action: legal}, mover, play.NewIdempotency(&key, legal))
	if err != nil {
		t.Fatal(err)
	}
	retry, err := master.Act(ctx, play.Action{GameID: id, Action: legal}, mover, play.NewIdempotency(&key, legal))
	if err != nil {
		t.Fatal(err)
	}
	if retry.Game.Version != first.Game.Version || retry.Entry.Seq != first.Entry.Seq || retry.Caller != first.Caller {
		t.Fatalf("retry = v%d seq %d %+v, first = v%d seq %d %+v", retry.Game.Version, retry.Entry.Seq, retry.Caller,
			first.Game.Version, first.Entry.Seq, first.Caller)
	}
	// The key is bound to the seat's token: another player's same key is a different request slot. Whether
	// that player's action is legal now depends on the deal, so what must not happen is a replay of the
	// first player's entry.
	want := first.Game.Version
	other, err := master.Act(ctx, play.Action{GameID: id, Action: legal}, waiter, play.NewIdempotency(&key, legal))
	if err == nil {
		if other.Entry.Seq == first.Entry.Seq || other.Game.Version == first.Game.Version {
			t.Fatalf("another player's request with the same key replayed the first player's result (seq %d, v%d)",
				other.Entry.Seq, other.Game.Version)
		}
		want = other.Game.Version
	}
	stored, err := master.Load(ctx, id)
	if err != nil || stored.Version != want {
		t.Fatalf("stored version %d (%v), want %d: the retry must not act twice", stored.Version, err, want)
	}
}
