package play_test

import (
	"context"
	"syscall"
	"testing"
	"time"

	"primegames/domain/games"
	"primegames/play"
	"primegames/repo/repotest"
	"primegames/tools/scalefill/fixture"
)

// BenchmarkActionAtHistoryLength is an accepted action in a game of Prime Climb with 10 entries and
// in one with 5,000 (the scale fixture's long game, as it stood then), both through the game master
// and the real store: no work of an action may grow with the history (issue 28). It reports the
// process's CPU time per action (cpu-µs/op) beside the wall time, which is mostly Postgres's.
func BenchmarkActionAtHistoryLength(b *testing.B) {
	ctx := context.Background()
	db := repotest.NewDB(b)
	master := play.New(db.Games().Stores(), games.All())
	rep, err := fixture.Fill(ctx, db.Pool, fixture.Config{LongEntries: 5_000, Pool: 2, Batch: 10, Workers: 1, Seed: 3})
	if err != nil {
		b.Fatal(err)
	}
	long := &allocPlay{ctx: ctx, master: master, kind: "prime-climb", players: 4}
	if long.game, err = master.Load(ctx, rep.LongActiveGame); err != nil {
		b.Fatal(err)
	}
	for _, token := range rep.LongActiveTokens {
		long.seats = append(long.seats, play.IdentifyToken(token, ""))
	}
	short := newAllocPlay(b, master, "prime-climb", 4) // the long game's four players
	for _, run := range []struct {
		name string
		p    *allocPlay
	}{{"entries=10", short}, {"entries=5000", long}} {
		b.Run(run.name, func(b *testing.B) {
			run.p.actions(b, 9)
			var cpu time.Duration
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				b.StopTimer()
				act := run.p.next(b)
				before := processCPU()
				b.StartTimer()
				act()
				b.StopTimer()
				cpu += processCPU() - before
				b.StartTimer()
			}
			b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "cpu-µs/op")
		})
	}
}

// processCPU is the CPU time the test process has used, user and system.
func processCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
