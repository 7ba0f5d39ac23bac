package play_test

import (
	"context"
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
	ctx := context.Background()
	db := repotest.NewDB(t)
	kinds, err := games.All().With(tinygame.Kind)
	if err != nil {
		t.Fatal(err)
	}
	master := play.New(db.Games(), kinds)
	created, err := master.Create(ctx, play.NewGame{Kind: "tiny", Players: []string{"Ada", "Ben"}}, play.Nobody, nil)
	if err != nil {
		t.Fatal(err)
	}
	id := created.Game.ID
	toAct := created.Game.State.Status().ToAct[0]
	restore := play.OfferHintsOnly(func(g *play.Game) bool { return g.ID != id })
	defer restore()
	for _, seat := range []int{toAct, 1 - toAct} {
		_, err := master.Hint(ctx, id, play.IdentifyToken(created.SeatTokens[seat].Token, ""))
		if domain.ErrorCode(err) != "hints_disabled" || domain.ErrorKind(err) != domain.KindForbidden {
			t.Errorf("seat %d: %v, want hints_disabled", seat, err)
		}
	}
	restore()
	if hint, err := master.Hint(ctx, id, play.IdentifyToken(created.SeatTokens[toAct].Token, "")); err != nil || hint.Seq != 1 {
		t.Fatalf("with hints offered: %+v, %v", hint, err)
	}
	used, err := db.Games().HintsUsed(ctx, id)
	if err != nil || len(used) != 1 || used[toAct] != 1 {
		t.Errorf("hints used %v (%v), want one for seat %d", used, err, toAct)
	}
}
