package api_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"
)

// /metrics says how many reads of games were answered from the records an instance keeps, how many
// actions were sent in one round trip on one, and whether it may use them (its listener is up).
func TestMetricsCountReadsAnsweredFromKeptRecords(t *testing.T) {
	t.Parallel()
	h := newGamesHarness(t)
	c := h.create(t, map[string]any{"game": "primed", "players": names(2)})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := h.db.CatchUp(ctx); err != nil { // the listener is up and has heard the creation
		t.Fatal(err)
	}
	metric := func(name string) float64 {
		t.Helper()
		for line := range strings.SplitSeq(string(h.Get("/metrics").Body), "\n") {
			if v, ok := strings.CutPrefix(line, name+" "); ok {
				f, err := strconv.ParseFloat(v, 64)
				if err != nil {
					t.Fatalf("%s: %v", line, err)
				}
				return f
			}
		}
		t.Fatalf("no %s in the metrics", name)
		return 0
	}
	before := metric("db_record_cache_hits_total")
	for range 3 {
		h.game(t, c.Game.Id.String(), c.Seats[0].Token)
	}
	if hits := metric("db_record_cache_hits_total") - before; hits < 2 {
		t.Errorf("3 reads of an unchanged game: %v answered from the kept record, want at least 2", hits)
	}
	id := c.Game.Id.String()
	token, _ := tokenToAct(t, h, c)
	const oneTrip = `db_record_cache_one_trip_actions_total{outcome="applied"}`
	applied := metric(oneTrip)
	if resp := h.act(t, id, token, legalActions(t, h, id, token)[0]); resp.StatusCode != 201 {
		t.Fatalf("action = %d %s", resp.StatusCode, resp.Body)
	}
	if n := metric(oneTrip) - applied; n != 1 {
		t.Errorf("an action on a game just read: %v applied in one round trip, want 1", n)
	}
	if metric("db_record_cache_listening") != 1 || metric("db_record_cache_games") < 1 || metric("db_record_cache_bytes") <= 0 {
		t.Error("the records are not said to be in use")
	}
}
