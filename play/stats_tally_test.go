package play_test

import (
	"context"
	"reflect"
	"sync/atomic"
	"testing"

	"primegames/domain/games"
	"primegames/play"
	"primegames/repo/repotest"
)

// historyReads counts the games whose histories the statistics read.
type historyReads struct {
	play.StatsStore
	games atomic.Int64
}

func (h *historyReads) EachOutcome(ctx context.Context, games []play.KeptTally, fn func(play.OutcomeEntry) error) error {
	h.games.Add(int64(len(games)))
	return h.StatsStore.EachOutcome(ctx, games, fn)
}

// A class's statistics read each game's kept tally, not its history, so that their cost grows with
// the class's number of games and not with their lengths (issue 23). A game that keeps none (one
// from before kept tallies) is counted from its history once, to the same figures, and kept.
func TestClassStatisticsReadKeptTalliesNotHistories(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := repotest.NewDB(t)
	stores := db.Games().Stores()
	store := &historyReads{StatsStore: stores.StatsStore}
	stores.StatsStore = store
	master := play.New(stores, games.All())
	class, teacherToken, err := master.CreateClassroom(ctx, "Room 7")
	if err != nil {
		t.Fatal(err)
	}
	resolve := func(token string) play.Principal {
		t.Helper()
		p, err := master.Resolve(ctx, play.IdentifyToken(token, ""))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	teacher := resolve(teacherToken)
	students := map[string]play.Principal{}
	var ids []string
	for _, name := range []string{"Ada", "Bo", "Cy"} {
		st, _, token, err := master.JoinClassroom(ctx, class.JoinCode, name)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, st.ID)
		students[st.ID] = resolve(token)
	}
	playGame := func(kind string, players []string, steps int) string {
		created, err := master.Create(ctx, play.NewGame{Kind: kind, Students: players}, teacher, nil)
		if err != nil {
			t.Fatal(err)
		}
		for range steps {
			g, err := master.Load(ctx, created.Game.ID)
			if err != nil {
				t.Fatal(err)
			}
			status := g.State.Status()
			if status.Finished {
				break
			}
			seat := status.ToAct[0]
			action := firstLegalAction(t, g.State, seat)
			if _, err := master.Act(ctx, play.Action{GameID: created.Game.ID, Action: action}, students[players[seat]], nil); err != nil {
				t.Fatal(err)
			}
		}
		return created.Game.ID
	}
	playGame("primed", []string{ids[0], ids[1]}, 12)
	climb := playGame("prime-climb", []string{ids[1], ids[2]}, 6)
	if _, _, err := master.Resign(ctx, climb, students[ids[2]], nil); err != nil { // Cy's seat counts no more (G-3)
		t.Fatal(err)
	}

	statistics := func(wantHistories int64) *play.ClassroomStats {
		t.Helper()
		store.games.Store(0)
		stats, err := master.ClassroomStats(ctx, class.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got := store.games.Load(); got != wantHistories {
			t.Errorf("the statistics read the histories of %d games, want %d", got, wantHistories)
		}
		return stats
	}
	kept := statistics(0)
	if len(kept.Class.Counts["primed"]) == 0 || len(kept.Class.Counts["prime-climb"]) == 0 {
		t.Fatalf("the class's counters %v, want both kinds counted", kept.Class.Counts)
	}

	if _, err := db.Pool.Exec(ctx, `UPDATE games SET tally = NULL, tally_version = NULL`); err != nil {
		t.Fatal(err)
	}
	counted := statistics(2)
	if !reflect.DeepEqual(counted.Students, kept.Students) || !reflect.DeepEqual(counted.Class, kept.Class) {
		t.Errorf("counted from the histories:\n%+v\nfrom the kept tallies:\n%+v", counted, kept)
	}
	if again := statistics(0); !reflect.DeepEqual(again.Class, kept.Class) {
		t.Errorf("once kept again: %+v, want %+v", again.Class, kept.Class)
	}
}
