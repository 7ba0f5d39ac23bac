package play_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"primegames/domain"
	"primegames/domain/games"
	"primegames/play"
	"primegames/repo"
	"primegames/repo/repotest"
)

// The worker's database round trips, counted through a pgx tracer: a poll that finds nothing due
// is one per job (the read of due games, no transaction; the bots' job reads the games with a
// person and those with none in one batch, as the worker reads all three timed jobs in one); a
// bot's move is the read, the claim
// (with BEGIN), the game read under its lock, and the writes with COMMIT; a candidate another
// worker holds costs one more, its claim.
func TestWorkerRoundTrips(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	trips := &repotest.RoundTrips{}
	db, _ := repotest.NewDBWithOptions(t, repo.PoolOptions{Tracer: trips})
	master := play.New(db.Games().Stores(), games.All())
	count := func(what string, want int, job func(context.Context) (bool, error), wantActed bool) {
		t.Helper()
		var acted bool
		var err error
		n, statements := trips.Count(func() { acted, err = job(ctx) })
		if err != nil || acted != wantActed {
			t.Fatalf("%s: acted %v (%v), want %v", what, acted, err, wantActed)
		}
		if n != want {
			t.Errorf("%s: %d round trips, want %d; statements:\n  %s", what, n, want, strings.Join(statements, "\n  "))
		}
	}
	jobs := map[string]func(context.Context) (bool, error){"bot": master.ActForDueBot, "turn": master.ActForExpiredTurn, "abandoned": master.AbortAbandonedGame}
	for name, job := range jobs {
		if _, err := job(ctx); err != nil { // the connection prepares the statements
			t.Fatal(err)
		}
		count("nothing due for "+name, 1, job, false)
	}

	botGame := func(address string) string {
		t.Helper()
		created, err := master.Create(ctx, play.NewGame{Kind: "primed", Options: json.RawMessage(`{"bot_delay_ms":0}`),
			Bots: []play.BotSeat{{Seat: 0, Level: domain.LevelRandom}, {Seat: 1, Level: domain.LevelRandom}}, Address: address}, play.Nobody, nil)
		if err != nil {
			t.Fatal(err)
		}
		return created.Game.ID
	}
	first := botGame("192.0.2.1")
	for range 2 { // warm up: the first moves prepare the statements
		if acted, err := master.ActForDueBot(ctx); !acted || err != nil {
			t.Fatalf("the bot did not move: %v", err)
		}
	}
	count("a bot's move", 4, master.ActForDueBot, true)

	// The worker reads one game per owner, so the second game has an owner of its own; it holds
	// the one the worker's round robin comes to first (after the first game's owner, served last).
	second := botGame("192.0.2.2")
	if _, err := db.Pool.Exec(ctx, `UPDATE games SET bot_due_at = now() - make_interval(secs => CASE id WHEN $1 THEN 2 ELSE 1 END)
		WHERE id IN ($1, $2)`, first, second); err != nil {
		t.Fatal(err)
	}
	var servedLast []byte
	if err := db.Pool.QueryRow(ctx, `SELECT owner_key FROM games WHERE id = $1`, first).Scan(&servedLast); err != nil {
		t.Fatal(err)
	}
	order, err := db.Games().DueGames(ctx, []play.Due{{Work: play.DueComputerGame, Now: time.Now(), After: servedLast}}, 4)
	if err != nil || len(order[0]) != 2 {
		t.Fatalf("due games %v (%v), want both", order, err)
	}
	first = order[0][0].ID
	held, err := db.Pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = held.Rollback(ctx) }()
	if _, err := held.Exec(ctx, `SELECT FROM games WHERE id = $1 FOR UPDATE`, first); err != nil {
		t.Fatal(err)
	}
	count("a bot's move past a held game", 5, master.ActForDueBot, true)
}
