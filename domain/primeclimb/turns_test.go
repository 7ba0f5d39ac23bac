package primeclimb

import (
	"flag"
	"math"
	"os"
	"testing"
)

var updateTurns = flag.Bool("update-turns", false, "solve the solo-turns table again and write solo_turns.bin")

// TestSoloTurnsTable checks that the stored table solves its equation: every pair's expected turns is
// one turn plus the mean, over the 100 rolls, of the best end the roll reaches (PC-3, PC-5, PC-6,
// PC-9 between one's own pawns, PC-14 a win is 0).
func TestSoloTurnsTable(t *testing.T) {
	if *updateTurns {
		if err := os.WriteFile("solo_turns.bin", encodeTurns(buildTurns(reachable())), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	table := decodeTurns(soloTurnsFile)
	r := reachable()
	for a := 0; a <= Home; a += 3 {
		for b := a; b <= Home; b += 7 {
			if a == Home && b == Home {
				continue
			}
			total := float32(0)
			for d1 := 1; d1 <= 10; d1++ {
				for d2 := 1; d2 <= 10; d2++ {
					lo, hi := min(d1, d2), max(d1, d2)
					total += r.bestEnd(table, a, b, lo, hi)
				}
			}
			if want := 1 + total/100; math.Abs(float64(want-table[a][b])) > 1e-3 || table[a][b] != table[b][a] {
				t.Fatalf("T(%d, %d) = %.4f, the equation gives %.4f", a, b, table[a][b], want)
			}
		}
	}
	if table[Home][Home] != 0 {
		t.Fatalf("T(101, 101) = %v, want 0", table[Home][Home])
	}
	// A pawn one short of home with the other home: only rolls that make exactly 1 with both dice win.
	if v := soloTurns(100, Home); v < 1.5 || v > 6 {
		t.Fatalf("T(100, 101) = %.2f, want a few turns", v)
	}
	if soloTurns(0, 0) <= soloTurns(20, 20) {
		t.Fatalf("both pawns on Start (%.2f) should be further from winning than both on 20 (%.2f)", soloTurns(0, 0), soloTurns(20, 20))
	}
}
