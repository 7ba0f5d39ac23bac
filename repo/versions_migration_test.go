package repo_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/jackc/pgx/v5"

	"primegames/domain/games"
	"primegames/play"
	"primegames/repo"
)

// Each history entry records the version it produced. Rows kept before the column existed get it
// from the migration: the versions it derives equal those the game master writes, for games
// started from a lobby after joins, started at once, finished, and aborted while running.
func TestEntryVersionMigrationBackfillsHistories(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, m := migratedWithMigrator(t)
	master := play.New(db.Games().Stores(), games.All())

	lobby, err := master.Create(ctx, play.NewGame{Kind: "primed", OpenSeats: 3}, play.Nobody, nil)
	if err != nil {
		t.Fatal(err)
	}
	seats := map[int]play.Principal{}
	for i, name := range []string{"Ada", "Bo", "Cy"} {
		joined, err := master.Join(ctx, lobby.Game.ID, play.Nobody, play.JoinAsk{Name: name, InviteCode: lobby.InviteCode}, nil)
		if err != nil {
			t.Fatal(err)
		}
		seats[i] = play.IdentifyToken(joined.Seat.Token, "")
	}
	if _, _, err := master.Start(ctx, lobby.Game.ID, play.IdentifyToken(lobby.CreatorToken, ""), nil); err != nil {
		t.Fatal(err)
	}
	playUntilOver(t, master, lobby.Game.ID, seats)

	running, err := master.Create(ctx, play.NewGame{Kind: "prime-climb", Players: []string{"Di", "Ed"}}, play.Nobody, nil)
	if err != nil {
		t.Fatal(err)
	}
	climbers := seatPrincipals(running)
	for range 3 {
		actOnce(t, master, running.Game.ID, climbers)
	}
	if _, _, err := master.Abort(ctx, running.Game.ID, play.IdentifyToken(running.CreatorToken, ""), nil); err != nil {
		t.Fatal(err)
	}

	written := entryVersions(t, db)
	if len(written) < 6 {
		t.Fatalf("only %d entries written: the games did not play", len(written))
	}
	remigrateFrom(t, db, m, "actions", "version")
	backfilled := entryVersions(t, db)
	for at, v := range written {
		if backfilled[at] != v {
			t.Errorf("entry %s: backfilled version %d, written %d", at, backfilled[at], v)
		}
	}
}

// entryVersions maps "<game id>:<seq>" to the version recorded with each history entry.
func entryVersions(t *testing.T, db *repo.DB) map[string]int64 {
	t.Helper()
	rows, err := db.Pool.Query(context.Background(), `SELECT game_id::text || ':' || seq, version FROM actions`)
	if err != nil {
		t.Fatal(err)
	}
	versions := map[string]int64{}
	var at string
	var v int64
	if _, err := pgx.ForEachRow(rows, []any{&at, &v}, func() error { versions[at] = v; return nil }); err != nil {
		t.Fatal(err)
	}
	return versions
}

// actOnce has the seat to act take its first legal action.
func actOnce(t *testing.T, master *play.Service, gameID string, seats map[int]play.Principal) *play.Acted {
	t.Helper()
	ctx := context.Background()
	g, err := master.Load(ctx, gameID)
	if err != nil {
		t.Fatal(err)
	}
	seat := g.State.Status().ToAct[0]
	all, err := json.Marshal(g.State.LegalActions(seat))
	if err != nil {
		t.Fatal(err)
	}
	var legal []struct{ Action json.RawMessage }
	if err := json.Unmarshal(all, &legal); err != nil || len(legal) == 0 {
		t.Fatalf("legal actions %s: %v", all, err)
	}
	acted, err := master.Act(ctx, play.Action{GameID: gameID, Action: legal[0].Action}, seats[seat], nil)
	if err != nil {
		t.Fatal(err)
	}
	if acted.Entry.Version != acted.Game.Version {
		t.Fatalf("entry %d records version %d; the game is at %d", acted.Entry.Seq, acted.Entry.Version, acted.Game.Version)
	}
	return acted
}

// playUntilOver acts until the game is finished.
func playUntilOver(t *testing.T, master *play.Service, gameID string, seats map[int]play.Principal) {
	t.Helper()
	for range 2000 {
		if acted := actOnce(t, master, gameID, seats); acted.Game.Status.Over() {
			return
		}
	}
	t.Fatal("the game did not end within 2000 actions")
}

// seatPrincipals are the seats of a created game, each as its token identifies it.
func seatPrincipals(created *play.Created) map[int]play.Principal {
	seats := map[int]play.Principal{}
	for _, s := range created.SeatTokens {
		seats[s.Seat] = play.IdentifyToken(s.Token, "")
	}
	return seats
}

// remigrateFrom migrates down until table has no column (the migration that adds it undone), then
// up again, so that the migration's backfill runs over the rows written since.
func remigrateFrom(t *testing.T, db *repo.DB, m *repo.Migrator, table, column string) {
	t.Helper()
	migrateDownUntilGone(t, db, m, table, column)
	if err := m.Up(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// migrateDownUntilGone migrates down until table has no column.
func migrateDownUntilGone(t *testing.T, db *repo.DB, m *repo.Migrator, table, column string) {
	t.Helper()
	ctx := context.Background()
	for {
		var has bool
		if err := db.Pool.QueryRow(ctx, `SELECT EXISTS (SELECT FROM information_schema.columns
			WHERE table_name = $1 AND column_name = $2)`, table, column).Scan(&has); err != nil {
			t.Fatal(err)
		}
		if !has {
			return
		}
		if err := m.Down(ctx); err != nil {
			t.Fatal(err)
		}
	}
}
