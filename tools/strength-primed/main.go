// Command strength-primed measures Primed's computer players against each other: two-player games
// of four rounds between two levels, every pairing, for each deck, each deal played twice with the
// seats swapped.
// It prints each level's mean final total (PR-7) with a 95% confidence interval, and the mean
// difference per game (first level's total minus the second's) with its 95% confidence interval
// over deals, each deal's two games taken together. -games should be even.
//
//	go run ./tools/strength-primed -games 1000
package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"slices"
	"time"

	"primegames/domain"
	"primegames/domain/primed"
)

func main() {
	games := flag.Int("games", 1000, "games per pairing and deck")
	multi := flag.Bool("multi", false, "play with the multi_card option")
	target := flag.String("target", primed.TargetPrimes, "target: primes or composites")
	seed := flag.Uint64("seed", 1, "seed of the first deal; deal i uses seed+i")
	only := flag.String("only", "", "play only this pairing, e.g. expert-greedy")
	deckOnly := flag.String("deck", "", "play only this deck: primed or standard")
	flag.Parse()
	pairings := [][2]domain.Level{
		{domain.LevelExpert, domain.LevelGreedy},
		{domain.LevelExpert, domain.LevelRandom},
		{domain.LevelGreedy, domain.LevelRandom},
	}
	if *only != "" {
		pairings = slices.DeleteFunc(pairings, func(p [2]domain.Level) bool { return string(p[0])+"-"+string(p[1]) != *only })
	}
	decks := []string{primed.DeckPrimed, primed.DeckStandard}
	if *deckOnly != "" {
		decks = []string{*deckOnly}
	}
	fmt.Printf("| deck | target | multi_card | pairing (A vs B) | games | A mean total | B mean total | A − B (95%% CI) |\n")
	fmt.Printf("|---|---|---|---|---|---|---|---|\n")
	for _, deck := range decks {
		o := primed.Options{Deck: deck, Target: *target, MultiCard: *multi, Rounds: 4}
		for _, pair := range pairings {
			var a, b, diff sample
			began := time.Now()
			pairDiff := 0.0
			for g := range *games {
				// Each deal is played twice, the seats swapped, so luck of the deal cancels out.
				levels := []domain.Level{pair[0], pair[1]}
				seatA := g % 2
				if seatA == 1 {
					levels[0], levels[1] = levels[1], levels[0]
				}
				totals, err := primed.PlayMatch(o, levels, uint64(g/2)+*seed)
				if err != nil {
					fmt.Fprintln(os.Stderr, err)
					os.Exit(1)
				}
				ta, tb := float64(totals[seatA]), float64(totals[1-seatA])
				a.add(ta)
				b.add(tb)
				if pairDiff += ta - tb; seatA == 1 {
					diff.add(pairDiff / 2)
					pairDiff = 0
				}
			}
			fmt.Printf("| %s | %s | %t | %s vs %s | %d | %s | %s | %s |\n", deck, *target, *multi, pair[0], pair[1], *games,
				a.interval(), b.interval(), diff.interval())
			fmt.Fprintf(os.Stderr, "%s %s vs %s: %v\n", deck, pair[0], pair[1], time.Since(began).Round(time.Millisecond))
		}
	}
}

// sample accumulates values for a mean and its 95% confidence interval.
type sample struct{ n, sum, sumSq float64 }

func (s *sample) add(x float64) { s.n++; s.sum += x; s.sumSq += x * x }

func (s sample) interval() string {
	mean := s.sum / s.n
	variance := (s.sumSq - s.n*mean*mean) / (s.n - 1)
	half := 1.96 * math.Sqrt(variance/s.n)
	return fmt.Sprintf("%.1f ± %.1f", mean, half)
}
