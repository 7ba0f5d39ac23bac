package play

import (
	"encoding/json"
	"testing"

	"primegames/domain"
	"primegames/domain/games"
)

// BenchmarkReviewReplay is what a review costs besides the kind's judgement: replaying a whole game
// of each kind and giving an advisor (here one that judges nothing) each person's view and legal
// actions as JSON before each action. The target is a whole game's review in 200 ms.
func BenchmarkReviewReplay(b *testing.B) {
	indifferent := &domain.Advisor{Review: func(view json.RawMessage, legal []json.RawMessage, played json.RawMessage) (domain.Judgement, error) {
		return domain.Judgement{}, nil
	}}
	for _, kind := range games.All().Kinds() {
		b.Run(kind.Name(), func(b *testing.B) {
			g, entries := randomGame(b, kind)
			b.ResetTimer()
			for range b.N {
				_, err := foldVisiting(g, entries, func(i int, before domain.State) error {
					_, _, err := judgeAction(indifferent, before, entries[i+1])
					return err
				})
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(entries)-1), "actions")
		})
	}
}

// randomGame plays a two-player game of kind to its end with random legal actions, as its history.
func randomGame(b *testing.B, kind domain.GameKind) (*Game, []Entry) {
	options, _, err := kind.Rules.Options(nil)
	if err != nil {
		b.Fatal(err)
	}
	state, _, random, err := domain.StartRecorded(kind.Rules, options, 2, domain.SeededRand(7, 0))
	if err != nil {
		b.Fatal(err)
	}
	entries := []Entry{{Seq: 0, Random: random}}
	r := domain.SeededRand(7, 1<<40)
	for seq := int64(1); !state.Status().Finished && seq < 5000; seq++ {
		seat := state.Status().ToAct[0]
		_, legal, err := seatSight(state, seat)
		if err != nil {
			b.Fatal(err)
		}
		action, err := chosenAction(legal, r.IntN(len(legal)))
		if err != nil {
			b.Fatal(err)
		}
		if state, _, random, err = domain.ApplyRecorded(state, seat, action, domain.SeededRand(7, seq)); err != nil {
			b.Fatal(err)
		}
		entries = append(entries, Entry{Seq: seq, Seat: &seat, Action: action, Random: random})
	}
	return &Game{GameRecord: GameRecord{ID: "bench", Options: options, SeatCount: 2}, Rules: kind.Rules}, entries
}
