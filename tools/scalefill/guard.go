package main

import (
	"fmt"
	"sync"
)

// diskGuard keeps the fill from taking the disk of the database's server below a floor: it
// refuses to start when the fill's estimate would leave less than minFree, and stops the fill
// (before its next batch) when the space left falls below it, or when what the database has grown
// by so far, spread over the games still to copy, would take it there.
type diskGuard struct {
	dir     string // the server's data directory, on this machine
	minFree uint64
	perGame uint64                 // the estimate of a game's bytes before any was copied
	size    func() (uint64, error) // the database's size

	mu sync.Mutex
	// startSize is the database's size before the first batch, once the templates' own tables
	// are there (they go when the fill ends).
	startSize uint64
	started   bool
}

// estimatedBytesPerGame is a game's bytes with its indexes, rounded up from 69 KB measured at 2×10⁴
// finished games and 67.8 KB at 9×10⁵, with the default pool (docs/performance.md).
const estimatedBytesPerGame = 70_000

// start reads the space left and refuses a fill of games games that would not fit.
func (g *diskGuard) start(games int) (string, error) {
	free, err := freeBytes(g.dir)
	if err != nil {
		return "", err
	}
	need := uint64(games) * g.perGame
	msg := fmt.Sprintf("disk: %.1f GB free at %s, %d games need about %.1f GB, the floor is %.1f GB", gb(free), g.dir, games, gb(need), gb(g.minFree))
	if free < g.minFree || free-g.minFree < need {
		return msg, fmt.Errorf("%s: not enough room (at most %d games fit; -min-free-gb lowers the floor)", msg, max(int64(free)-int64(g.minFree), 0)/int64(g.perGame))
	}
	return msg, nil
}

// check is called before each batch with the games copied so far and in all.
func (g *diskGuard) check(done, total int) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	free, err := freeBytes(g.dir)
	if err != nil {
		return err
	}
	if free < g.minFree {
		return fmt.Errorf("stopped after %d of %d games: %.1f GB free, below the floor of %.1f GB", done, total, gb(free), gb(g.minFree))
	}
	size, err := g.size()
	if err != nil {
		return err
	}
	if !g.started {
		g.startSize, g.started = size, true
	}
	if done == 0 {
		return nil
	}
	// After a twentieth of the games, what the database grew by says what the rest will take
	// (the disk's own free space also falls with the WAL's files and other databases).
	if done >= total/20 && size > g.startSize {
		rest := (size - g.startSize) / uint64(done) * uint64(total-done)
		if free-g.minFree < rest {
			return fmt.Errorf("stopped after %d of %d games: %.1f GB free, and the rest would take about %.1f GB more, below the floor of %.1f GB",
				done, total, gb(free), gb(rest), gb(g.minFree))
		}
	}
	return nil
}

func gb(b uint64) float64 { return float64(b) / 1e9 }
