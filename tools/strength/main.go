// Command strength plays Prime Climb's computer players against each other and prints how often each
// level wins, with a 95% confidence interval (Wilson score). Every game is replayable from its seed.
//
//	go run ./tools/strength -games 1000
package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"slices"
	"sort"
	"time"

	"primegames/domain"
	"primegames/domain/primeclimb"
)

func main() {
	games := flag.Int("games", 1000, "games per pairing; seats alternate, the roll-off decides who starts (PC-2)")
	seed := flag.Uint64("seed", 1, "seed of the first game; game i uses seed+i")
	only := flag.String("only", "", "play only this pairing, e.g. expert-greedy")
	flag.Parse()
	pairings := [][2]domain.Level{
		{domain.LevelExpert, domain.LevelRandom},
		{domain.LevelExpert, domain.LevelGreedy},
		{domain.LevelGreedy, domain.LevelRandom},
	}
	if *only != "" {
		pairings = slices.DeleteFunc(pairings, func(p [2]domain.Level) bool { return string(p[0])+"-"+string(p[1]) != *only })
	}
	fmt.Println("| player | opponent | games | wins | win rate | 95% interval | time per game |")
	fmt.Println("|---|---|---:|---:|---:|---|---:|")
	for _, pair := range pairings {
		wins, played := 0, 0
		var durations []time.Duration
		for i := range *games {
			levels := []domain.Level{pair[0], pair[1]}
			player := 0
			if i%2 == 1 {
				levels, player = []domain.Level{pair[1], pair[0]}, 1
			}
			start := time.Now()
			winner, err := primeclimb.Match(levels, nil, *seed+uint64(i))
			durations = append(durations, time.Since(start))
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			played++
			if winner == player {
				wins++
			}
		}
		sort.Slice(durations, func(i, j int) bool { return durations[i] < durations[j] })
		lo, hi := wilson(wins, played)
		fmt.Printf("| %s | %s | %d | %d | %.1f%% | %.1f%% – %.1f%% | %v median |\n", pair[0], pair[1], played, wins,
			100*float64(wins)/float64(played), 100*lo, 100*hi, durations[len(durations)/2].Round(10*time.Microsecond))
	}
}

// wilson is the 95% Wilson score interval of wins out of n.
func wilson(wins, n int) (float64, float64) {
	const z = 1.96
	p, nf := float64(wins)/float64(n), float64(n)
	centre := (p + z*z/(2*nf)) / (1 + z*z/nf)
	half := z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)) / (1 + z*z/nf)
	return centre - half, centre + half
}
