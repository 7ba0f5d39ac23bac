package primed

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"primegames/domain"
)

// thirtyCards is a 30-card hand with no small play on 9, so the legality test has to look at it all.
var thirtyCards = []int{1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13, 14, 14, 15, 15}

func BenchmarkMultiCardLegality30Cards(b *testing.B) {
	for b.Loop() {
		HasPlay(thirtyCards, 9, TargetPrimes, true, 0)
		HasPlay(thirtyCards, 9, TargetComposites, true, 7)
	}
}

func BenchmarkMultiCardLongestPlay30Cards(b *testing.B) {
	for b.Loop() {
		LongestPlay(thirtyCards, 9, TargetPrimes, 0)
	}
}

// recordedGame plays a 4-round game of the default variant with the random bot and returns its
// history.
func recordedGame(b *testing.B, o Options, seats int, seed uint64) (domain.Setup, []domain.Record) {
	s, _, values, err := domain.StartRecorded(Rules, o.Canonical(), seats, domain.SeededRand(seed, 0))
	if err != nil {
		b.Fatal(err)
	}
	setup := domain.Setup{Options: o.Canonical(), Seats: seats, Random: values}
	var records []domain.Record
	pick := rand.New(rand.NewPCG(seed, 1))
	for i := 1; !s.Status().Finished; i++ {
		st := s.(*State)
		action := bot(st, pick)
		seat := st.Turn()
		s, _, values, err = domain.ApplyRecorded(s, seat, action, domain.SeededRand(seed, int64(i)))
		if err != nil {
			b.Fatal(err)
		}
		records = append(records, domain.Record{Seat: seat, Action: action, Random: values})
	}
	return setup, records
}

func BenchmarkFullGame4Rounds(b *testing.B) {
	for b.Loop() {
		playOut(b, DefaultOptions(), 4, 1)
	}
}

func BenchmarkFoldGame4Rounds(b *testing.B) {
	for _, o := range []Options{DefaultOptions(), opts(DeckPrimed, TargetPrimes, true, 4)} {
		setup, records := recordedGame(b, o, 4, 1)
		b.Run(variantName(o), func(b *testing.B) {
			for b.Loop() {
				if _, err := domain.Fold(Rules, setup, records); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(records)), "actions")
		})
	}
}

func BenchmarkApplyPlay(b *testing.B) {
	s := start(b, DefaultOptions(), 4, 1)
	var action json.RawMessage
	for _, e := range s.Legal(s.Turn()) {
		action = e.Action.JSON()
	}
	for b.Loop() {
		if _, _, err := s.Apply(s.Turn(), action, domain.SeededRand(1, 1)); err != nil {
			b.Fatal(err)
		}
	}
}
