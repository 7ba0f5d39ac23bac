package primeclimb

import (
	"encoding/json"
	"runtime"
	"slices"
	"testing"
	"time"

	"primegames/domain"
)

// decision is one moment a computer player decides, as the advisor receives it.
type decision struct {
	view  json.RawMessage
	legal []json.RawMessage
}

// decisionsOf collects every decision with more than one entry in expert-against-greedy games, plus
// doubles with keepers in hand, the largest lists the advisor sees.
func decisionsOf(tb testing.TB, games int) []decision {
	tb.Helper()
	var out []decision
	add := func(s State) {
		view, legal, err := AdvisorInputs(s, s.Turn.Seat)
		if err != nil {
			tb.Fatal(err)
		}
		if len(legal) > 1 {
			out = append(out, decision{view, legal})
		}
	}
	for _, s := range []State{
		game([2]int{12, 30}, [2]int{45, 0}).holding(0, PlusMinus(3), PlusMinus(7), SendToStart, Curse).rolled(4, 4, 4, 4),
		game([2]int{37, 12}, [2]int{41, 70}).holding(0, SendToStart, PlusMinus(4)).rolled(4, 4, 4, 4),
		game([2]int{2, 9}, [2]int{33, 64}).holding(0, PlusMinus(1), PlusMinus(9), SendToStart).rolled(2, 2, 2, 2),
		game([2]int{60, 71}, [2]int{89, 93}).holding(0, PlusMinus(5), PlusMinus(6), Curse).rolled(10, 10, 10, 10),
	} {
		add(s)
	}
	for seed := uint64(1); seed <= uint64(games); seed++ {
		st, _, err := Rules.Start(nil, 2, domain.SeededRand(seed, 0))
		if err != nil {
			tb.Fatal(err)
		}
		levels := []domain.Level{domain.LevelExpert, domain.LevelGreedy}
		for step := int64(1); st.(State).Winner == nil && step < 2000; step++ {
			s := st.(State)
			add(s)
			view, legal, _ := AdvisorInputs(s, s.Turn.Seat)
			advice, err := Advisor.Choose(view, legal, levels[s.Turn.Seat], domain.SeededRand(seed, step))
			if err != nil {
				tb.Fatal(err)
			}
			action, _ := advice.ActionIn(legal)
			if st, _, err = s.Apply(s.Turn.Seat, action, domain.SeededRand(seed, step)); err != nil {
				tb.Fatal(err)
			}
		}
	}
	return out
}

// BenchmarkExpertDecision times one expert decision over many positions, from the JSON it receives to
// its advice, and reports the median, the 99th percentile and the slowest, both in CPU time of the
// deciding thread (cpu-) and in wall time (wall-), which on a shared machine includes the neighbours
// (target: p99 ≤ 10 ms).
func BenchmarkExpertDecision(b *testing.B) {
	positions := decisionsOf(b, 20)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var cpu, wall []time.Duration
	r := domain.SeededRand(1, 1)
	i := 0
	for b.Loop() {
		d := positions[i%len(positions)]
		i++
		start, startCPU := time.Now(), threadCPU()
		if _, err := Advisor.Choose(d.view, d.legal, domain.LevelExpert, r); err != nil {
			b.Fatal(err)
		}
		cpu, wall = append(cpu, threadCPU()-startCPU), append(wall, time.Since(start))
	}
	reportPercentiles(b, "cpu-", cpu)
	reportPercentiles(b, "wall-", wall)
	b.ReportMetric(float64(len(positions)), "positions")
}

func reportPercentiles(b *testing.B, prefix string, took []time.Duration) {
	slices.Sort(took)
	at := func(q float64) float64 { return float64(took[int(q*float64(len(took)-1))].Microseconds()) / 1000 }
	b.ReportMetric(at(0.5), prefix+"p50-ms")
	b.ReportMetric(at(0.99), prefix+"p99-ms")
	b.ReportMetric(at(1), prefix+"max-ms")
}

// worstMovePositions are positions with four ± keepers and doubles, the generator's bound
// (moves.go): small keepers and small doubles reach the most squares; and with six, when the expert
// also tries each ± keeper alone before the dice.
func worstMovePositions() []State {
	var out []State
	for _, cards := range [][]int{{1, 3, 5, 7}, {1, 2, 3, 4}, {6, 7, 8, 9}, {1, 2, 3, 4, 5, 6}} {
		for _, die := range []int{1, 2, 3} {
			s := game([2]int{12, 18}, [2]int{40, 44})
			for _, c := range cards {
				s = s.holding(0, PlusMinus(c))
			}
			out = append(out, s.rolled(die, die, die, die))
		}
	}
	return out
}

// BenchmarkCompleteMovesWorst generates every complete move with keepers of the worst positions.
func BenchmarkCompleteMovesWorst(b *testing.B) {
	positions := worstMovePositions()
	i, most := 0, 0
	for b.Loop() {
		s := positions[i%len(positions)]
		i++
		most = max(most, len(keeperMoves(&s)))
	}
	b.ReportMetric(float64(most), "most-moves")
}

// BenchmarkExpertDecisionWorst is one expert decision at the worst positions of the generator.
func BenchmarkExpertDecisionWorst(b *testing.B) {
	var positions []decision
	for _, s := range worstMovePositions() {
		view, legal, err := AdvisorInputs(s, 0)
		if err != nil {
			b.Fatal(err)
		}
		positions = append(positions, decision{view, legal})
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var cpu []time.Duration
	i := 0
	for b.Loop() {
		d := positions[i%len(positions)]
		i++
		start := threadCPU()
		if _, err := Advisor.Choose(d.view, d.legal, domain.LevelExpert, domain.SeededRand(1, 1)); err != nil {
			b.Fatal(err)
		}
		cpu = append(cpu, threadCPU()-start)
	}
	reportPercentiles(b, "cpu-", cpu)
}
