package play_test

import (
	"context"
	"encoding/json"
	"testing"

	"primegames/domain"
	"primegames/domain/games"
	"primegames/domain/games/gametest/tinygame"
	"primegames/play"
	"primegames/repo/repotest"
)

// A game that does not offer hints refuses them with hints_disabled, before anything about the
// position (even to a seat that may not act now), and counts none.
func TestAGameWithoutHintsRefusesThem(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := repotest.NewDB(t)
	kinds, err := games.All().With(tinygame.Kind)
	if err != nil {
		t.Fatal(err)
	}
	master := play.New(db.Games().Stores(), kinds)
	create := func(options string) *play.Created {
		created, err := master.Create(ctx, play.NewGame{Kind: "tiny", Options: json.RawMessage(options), Players: []string{"Ada", "Ben"}}, play.Nobody, nil)
		if err != nil {
			t.Fatal(err)
		}
		return created
	}
	off := create(`{"hints":false}`)
	toAct := off.Game.State.Status().ToAct[0]
	for _, seat := range []int{toAct, 1 - toAct} {
		_, err := master.Hint(ctx, off.Game.ID, play.IdentifyToken(off.SeatTokens[seat].Token, ""))
		if domain.ErrorCode(err) != "hints_disabled" || domain.ErrorKind(err) != domain.KindForbidden {
			t.Errorf("seat %d: %v, want hints_disabled", seat, err)
		}
	}
	if used, err := db.Games().HintsUsed(ctx, off.Game.ID); err != nil || len(used) != 0 {
		t.Errorf("hints used %v (%v) in a game without hints, want none", used, err)
	}
	on := create(`{}`)
	toAct = on.Game.State.Status().ToAct[0]
	if hint, err := master.Hint(ctx, on.Game.ID, play.IdentifyToken(on.SeatTokens[toAct].Token, "")); err != nil || hint.Seq != 1 {
		t.Fatalf("with hints offered: %+v, %v", hint, err)
	}
	used, err := db.Games().HintsUsed(ctx, on.Game.ID)
	if err != nil || len(used) != 1 || used[toAct] != 1 {
		t.Errorf("hints used %v (%v), want one for seat %d", used, err, toAct)
	}
}
