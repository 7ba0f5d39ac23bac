package play_test

import (
	"context"
	"testing"

	"primegames/play"
)

// A game subscription follows the game to its rematch: the rematch's events, its game_started
// included, reach the same receiver signed with the same secret, a seat's for the seat its holder
// plays in the rematch; the finished game's subscription ends once its own events are out.
func TestWebhookGameSubscriptionFollowsTheRematch(t *testing.T) {
	t.Parallel()
	r := newHookRig(t)
	ctx := context.Background()
	seatRC, creatorRC := newReceiver(t, nil), newReceiver(t, nil)
	created, err := r.master.Create(ctx, play.NewGame{Kind: "primed", Players: []string{"Ada", "Bo"}}, play.Nobody, nil)
	if err != nil {
		t.Fatal(err)
	}
	id := created.Game.ID
	players := make([]play.Principal, 2)
	for _, s := range created.SeatTokens {
		players[s.Seat] = play.IdentifyToken(s.Token, "")
	}
	creator := play.IdentifyToken(created.CreatorToken, "")
	_, seatSecret := r.subscribe(players[0], play.NewWebhookRequest{Scope: play.ScopeGame, GameID: id, URL: seatRC.URL, Events: []string{"game_started", "game_ended"}})
	_, creatorSecret := r.subscribe(creator, play.NewWebhookRequest{Scope: play.ScopeGame, GameID: id, URL: creatorRC.URL, Events: []string{"entry"}})
	if _, _, err := r.master.Resign(ctx, id, players[0], nil); err != nil {
		t.Fatal(err)
	}
	rematch, err := r.master.Rematch(ctx, id, players[0])
	if err != nil {
		t.Fatal(err)
	}
	next := rematch.Game.ID
	r.drain()

	var started, ended int // the rematch's start; the first game's events
	for _, g := range seatRC.requests() {
		p := decodePayload(t, g)
		if !verifySignature(seatSecret, g) {
			t.Fatalf("%s does not verify with the secret of the first game's subscription", g.Body)
		}
		switch {
		case p.Data.GameID == id && *p.Data.Seat == 0:
			ended++
		case p.Type == "game_started" && p.Data.GameID == next && *p.Data.Seat == 1: // Ada plays seat 1 in the rematch
			started++
		default:
			t.Fatalf("Ada's subscription got %s", g.Body)
		}
	}
	if started != 1 || ended == 0 {
		t.Fatalf("Ada's subscription: %d events of the first game, %d game_started of the rematch", ended, started)
	}
	rematchEntries := 0
	for _, g := range creatorRC.requests() {
		if !verifySignature(creatorSecret, g) {
			t.Fatalf("%s does not verify", g.Body)
		}
		if decodePayload(t, g).Data.GameID == next {
			rematchEntries++
		}
	}
	if rematchEntries == 0 {
		t.Fatal("the creator's subscription got nothing of the rematch")
	}
	for _, p := range []play.Principal{players[0], creator} {
		list, err := r.master.Webhooks(ctx, p)
		if err != nil || len(list) != 1 || *list[0].GameID != next {
			t.Fatalf("listed %+v (%v), want the rematch's subscription only", list, err)
		}
	}
}
