package repo_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/jackc/pgx/v5"

	"primegames/domain"
	"primegames/domain/games"
	"primegames/play"
	"primegames/repo"
)

// Each history entry records the computer that made it. Rows kept before the column existed get it
// from the migration, equal to what the game master writes: nothing for the people's entries, the
// level for a computer's seat, and, for a seat a computer took over when its player resigned (G-3),
// only for the entries after the resignation.
func TestEntryBotMigrationBackfillsHistories(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, m := migratedWithMigrator(t)
	master := play.New(db.Games().Stores(), games.All())
	created, err := master.Create(ctx, play.NewGame{Kind: "primed", Options: json.RawMessage(`{"bot_delay_ms":0}`),
		Players: []string{"Ada", "Bo"}, Bots: []play.BotSeat{{Seat: 2, Level: domain.LevelRandom}}}, play.Nobody, nil)
	if err != nil {
		t.Fatal(err)
	}
	id := created.Game.ID
	people := seatPrincipals(created)
	playRound := func() {
		for range 3 {
			g, err := master.Load(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if _, person := people[g.State.Status().ToAct[0]]; person {
				actOnce(t, master, id, people)
			} else if acted, err := master.ActForDueBot(ctx); err != nil || !acted {
				t.Fatalf("the computer did not act: %v", err)
			}
		}
	}
	playRound()
	if _, _, err := master.Resign(ctx, id, people[1], nil); err != nil {
		t.Fatal(err)
	}
	delete(people, 1)
	playRound()

	written := entryBots(t, db)
	marked := 0
	for _, bot := range written {
		if bot != "" {
			marked++
		}
	}
	if marked == 0 || marked == len(written) {
		t.Fatalf("%d of %d entries marked as a computer's: the game shows nothing", marked, len(written))
	}
	remigrateFrom(t, db, m, "actions", "bot")
	backfilled := entryBots(t, db)
	for seq, bot := range written {
		if backfilled[seq] != bot {
			t.Errorf("entry %d: backfilled computer %q, written %q", seq, backfilled[seq], bot)
		}
	}
}

// entryBots maps each entry's seq to the computer player it records ("" for none).
func entryBots(t *testing.T, db *repo.DB) map[int64]string {
	t.Helper()
	rows, err := db.Pool.Query(context.Background(), `SELECT seq, coalesce(bot, '') FROM actions`)
	if err != nil {
		t.Fatal(err)
	}
	bots := map[int64]string{}
	var seq int64
	var bot string
	if _, err := pgx.ForEachRow(rows, []any{&seq, &bot}, func() error { bots[seq] = bot; return nil }); err != nil {
		t.Fatal(err)
	}
	return bots
}
