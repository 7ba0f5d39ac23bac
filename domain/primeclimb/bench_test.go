package primeclimb

import (
	"encoding/json"
	"testing"

	"primegames/domain"
)

func BenchmarkLegalActionsDoubles(b *testing.B) {
	s := game([2]int{12, 30}, [2]int{45, 0}).holding(0, PlusMinus(3), PlusMinus(7), SendToStart, Curse).rolled(4, 4, 4, 4)
	b.ReportAllocs()
	for b.Loop() {
		if len(s.Legal(0)) == 0 {
			b.Fatal("no actions")
		}
	}
}

func BenchmarkApplyMove(b *testing.B) {
	s := game([2]int{12, 30}, [2]int{45, 0}).rolled(4, 3)
	raw := json.RawMessage(`{"type":"move","steps":[{"die":4,"pawn":0,"op":"multiply"},{"die":3,"pawn":1,"op":"add"}]}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := s.Apply(0, raw, domain.NewTape(nil)); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRandomGame(b *testing.B) {
	var seed uint64
	for b.Loop() {
		seed++
		playRandomGame(b, seed, 2, `{"prime_cards":true}`, true)
	}
}

// BenchmarkLegalActionsTwoDice is the common case legal-actions lists after a roll: two different
// dice, no keepers.
func BenchmarkLegalActionsTwoDice(b *testing.B) {
	s := game([2]int{12, 30}, [2]int{45, 0}).rolled(4, 7)
	b.ReportAllocs()
	for b.Loop() {
		if len(s.Legal(0)) == 0 {
			b.Fatal("no actions")
		}
	}
}
