package primeclimb

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"primegames/domain"
)

// playRandomGame plays one game with uniformly random picks from LegalActions, checking every state on
// the way, and returns the final state with its recorded history.
//
// A greedy game picks, three times out of four, the move entry that brings the mover's pawns furthest;
// uniformly random games are valid too but take about a thousand actions each.
func playRandomGame(t testing.TB, seed uint64, seats int, opts string, greedy bool) (State, domain.Setup, []domain.Record) {
	t.Helper()
	picker := domain.SeededRand(seed, -1)
	st, _, values, err := domain.StartRecorded(Rules, json.RawMessage(opts), seats, domain.SeededRand(seed, 0))
	if err != nil {
		t.Fatal(err)
	}
	setup := domain.Setup{Options: json.RawMessage(opts), Seats: seats, Random: values}
	var records []domain.Record
	checkInvariants(t, st.(State), nil)
	for seq := int64(1); !st.Status().Finished; seq++ {
		if seq > 20000 {
			t.Fatalf("seed %d: game did not finish after 20000 actions", seed)
		}
		seat := st.Status().ToAct[0]
		legal := st.(State).Legal(seat)
		if len(legal) == 0 {
			t.Fatalf("seed %d: seat %d must act but has no legal action in phase %s", seed, seat, st.Status().Phase)
		}
		pick := legal[picker.IntN(len(legal))]
		if greedy && picker.IntN(4) != 0 {
			pick = legal[Furthest(legal, picker)]
		}
		raw, err := json.Marshal(pick.Action)
		if err != nil {
			t.Fatal(err)
		}
		prev := st.(State)
		next, out, values, err := domain.ApplyRecorded(st, seat, raw, domain.SeededRand(seed, seq))
		if err != nil {
			t.Fatalf("seed %d: legal action %s refused: %v", seed, raw, err)
		}
		if pick.Ends != nil && out.(*Outcome).Draw == nil && next.(State).Phase != PhaseFinished && next.(State).Players[seat].Pawns != *pick.Ends {
			t.Fatalf("seed %d: %s promised pawns %v, got %v", seed, raw, *pick.Ends, next.(State).Players[seat].Pawns)
		}
		checkInvariants(t, next.(State), &prev)
		if _, err := json.Marshal(out.Redact(domain.Public)); err != nil {
			t.Fatal(err)
		}
		records = append(records, domain.Record{Seat: seat, Action: raw, Random: values})
		st = next
	}
	return st.(State), setup, records
}

// checkInvariants checks what must hold in every state: positions in 0..101, home pawns stay home, all
// 24 cards accounted for (PC-11), one seat to act until the game ends.
func checkInvariants(t testing.TB, s State, prev *State) {
	t.Helper()
	cards := len(s.Deck) + len(s.Discard)
	for seat, p := range s.Players {
		cards += len(p.Keepers)
		for pawn, at := range p.Pawns {
			if at < Start || at > Home {
				t.Fatalf("pawn %d of seat %d on %d", pawn, seat, at)
			}
			if prev != nil && prev.Players[seat].Pawns[pawn] == Home && at != Home {
				t.Fatalf("home pawn %d of seat %d moved to %d (PC-7)", pawn, seat, at)
			}
		}
	}
	if s.Turn.Pending != nil {
		cards++ // the Swap or Steal waiting for a choice
	}
	want := 24
	if !s.Options.PrimeCards {
		want = 0
	}
	if cards != want {
		t.Fatalf("%d cards accounted for, want %d", cards, want)
	}
	st := s.Status()
	if st.Finished != (s.Phase == PhaseFinished) || (st.Finished && len(st.Winners) != 1) || (!st.Finished && len(st.ToAct) != 1) {
		t.Fatalf("bad status %+v", st)
	}
	if st.Finished && !s.bothHome(st.Winners[0]) {
		t.Fatalf("winner %d does not have both pawns home", st.Winners[0])
	}
}

// Random games, split by number of seats to run in parallel: exactly one winner, invariants on every
// state, every picked action accepted. What every kind must meet (every listed action accepted,
// snapshots, the fold of the history (G-2), a finished game refusing actions) is checked for every
// kind by domain/games/gametest. The long tier plays 2,000 (TestLongPropertyRandomGames).
func TestPropertyRandomGames(t *testing.T) {
	if raceDetector {
		propertyRandomGames(t, 20)
		return
	}
	propertyRandomGames(t, 200)
}

func propertyRandomGames(t *testing.T, games int) {
	for seats := 1; seats <= 4; seats++ {
		t.Run(fmt.Sprintf("seats=%d", seats), func(t *testing.T) {
			t.Parallel()
			for i := range games / 4 {
				opts := `{"prime_cards":true}`
				if i%10 == 9 {
					opts = `{"prime_cards":false}`
				}
				seed := uint64(1000*seats + i)
				checkRandomGame(t, seed, seats, opts, i%40 != 0)
			}
		})
	}
}

func checkRandomGame(t *testing.T, seed uint64, seats int, opts string, greedy bool) {
	final, _, _ := playRandomGame(t, seed, seats, opts, greedy)
	if len(final.Status().Winners) != 1 {
		t.Fatalf("seed %d: winners %v (PC-14)", seed, final.Status().Winners)
	}
}

func ExampleBoard() {
	sq := Board()[12]
	fmt.Println(sq.Number, sq.Factors, sq.Colors)
	// Output: 12 [2 2 3] [orange orange green]
}

// Every listed move's promises hold when it is played: the uses it says stay unspent are the
// outcome's (dropped by a win included, PC-6), and moves that leave the pawns where they are come
// after every move that does not.
func TestPropertyListedMovesKeepTheirWord(t *testing.T) {
	games := 100
	if raceDetector {
		games = 10
	}
	for i := range games {
		seed := uint64(7000 + i)
		seats := 2 + i%3
		picker := domain.SeededRand(seed, -1)
		st, _, _, err := domain.StartRecorded(Rules, json.RawMessage(`{"prime_cards":true}`), seats, domain.SeededRand(seed, 0))
		if err != nil {
			t.Fatal(err)
		}
		for seq := int64(1); !st.Status().Finished && seq < 3000; seq++ {
			s := st.(State)
			seat := s.Turn.Seat
			legal := s.Legal(seat)
			checkListedMoves(t, seed, s, seat, legal)
			pick := legal[picker.IntN(len(legal))]
			if picker.IntN(4) != 0 {
				pick = legal[Furthest(legal, picker)]
			}
			raw, _ := json.Marshal(pick.Action)
			if st, _, _, err = domain.ApplyRecorded(st, seat, raw, domain.SeededRand(seed, seq)); err != nil {
				t.Fatalf("seed %d: %s refused: %v", seed, raw, err)
			}
		}
	}
}

func checkListedMoves(t *testing.T, seed uint64, s State, seat int, legal []LegalAction) {
	t.Helper()
	stayed := false
	for _, la := range legal {
		if la.Type != ActMove {
			continue
		}
		if *la.Ends == s.mover().Pawns {
			stayed = true
		} else if stayed {
			t.Fatalf("seed %d: %q is listed after a move that leaves the pawns on %v", seed, la.Description, s.mover().Pawns)
		}
		raw, _ := json.Marshal(la.Action)
		_, out, err := s.Apply(seat, raw, domain.SeededRand(seed, 1<<40))
		if err != nil {
			t.Fatalf("seed %d: listed %s refused: %v", seed, raw, err)
		}
		unused := out.(*Outcome).Unused
		if !slices.Equal(unused, la.Unused) {
			t.Fatalf("seed %d: %q lists unused %v; played, it leaves %v", seed, la.Description, la.Unused, unused)
		}
	}
}
