package play_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"primegames/domain"
	"primegames/domain/games"
	"primegames/domain/games/gametest/tinygame"
	"primegames/play"
	"primegames/play/playclock"
	"primegames/repo/repotest"
)

// A computer player that cannot choose (here a kind whose strategy fails) is reported and put off
// for a while; it neither spins nor holds up the games due after it.
func TestABotThatCannotMoveIsPutOffWithoutHoldingUpOthers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := repotest.NewDB(t)
	broken := tinygame.Kind
	broken.Greedy = func([]json.RawMessage, domain.Rand) (int, error) { return 0, errors.New("no idea") }
	broken.Advisor = &domain.Advisor{Choose: func(json.RawMessage, []json.RawMessage, domain.Level, domain.Rand) (domain.Advice, error) {
		return domain.Advice{}, errors.New("no idea")
	}}
	kinds, err := games.All().With(broken)
	if err != nil {
		t.Fatal(err)
	}
	clock := playclock.New(time.Now())
	master := play.New(db.Games().Stores(), kinds, play.WithClock(clock))
	newBotGame := func(kind string) *play.Game {
		t.Helper()
		created, err := master.Create(ctx, play.NewGame{Kind: kind, Options: json.RawMessage(`{"bot_delay_ms":0}`),
			Bots: []play.BotSeat{{Seat: 0, Level: domain.LevelGreedy}, {Seat: 1, Level: domain.LevelExpert}}}, play.Nobody, nil)
		if err != nil {
			t.Fatal(err)
		}
		return created.Game
	}
	stuck := newBotGame("tiny")
	primed := newBotGame("primed")

	acted, err := master.ActForDueBot(ctx)
	if !acted || err == nil {
		t.Fatalf("the first due game (the broken one): acted %v, err %v; want a reported failure", acted, err)
	}
	after, err := master.Load(ctx, stuck.ID)
	if err != nil {
		t.Fatal(err)
	}
	if after.Version != stuck.Version || after.BotDueAt == nil || after.BotDueAt.Sub(clock.Now()) < 30*time.Second {
		t.Errorf("the broken game: version %d (was %d), due %v; want it unchanged and put off", after.Version, stuck.Version, after.BotDueAt)
	}
	for range 5 {
		if acted, err := master.ActForDueBot(ctx); !acted || err != nil {
			t.Fatalf("the Primed game's computers: acted %v, err %v", acted, err)
		}
	}
	if g, err := master.Load(ctx, primed.ID); err != nil || g.Version != primed.Version+5 {
		t.Errorf("the Primed game moved from version %d to %d (%v), want five moves", primed.Version, g.Version, err)
	}
}
