package primed

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"primegames/domain"
)

// TestPropertyRandomGames plays random games in every variant and seat count and checks after each
// action: the deck is conserved, the longest plays are accepted, views and redacted outcomes hide
// other seats' cards, scores add up. What every kind must meet (snapshots, every listed action
// accepted, the fold of the history (G-2)) is checked for every kind and variant by
// domain/games/gametest. The long tier plays ten times as many (TestLongPropertyRandomGames).
func TestPropertyRandomGames(t *testing.T) {
	if raceDetector {
		propertyRandomGames(t, 2)
		return
	}
	propertyRandomGames(t, 10)
}

// propertyRandomGames plays gamesPerConfig games of each variant and seat count; with every variant
// and seat count, 100 of each make a few thousand games.
func propertyRandomGames(t *testing.T, gamesPerConfig int) {
	for _, o := range allVariants(4) {
		for seats := o.Seats().Min; seats <= o.Seats().Max; seats++ {
			t.Run(fmt.Sprintf("%s_%d", variantName(o), seats), func(t *testing.T) {
				t.Parallel()
				for g := range gamesPerConfig {
					seed := uint64(seats*1_000_000 + g)
					deep := g%5 == 0 // the costlier checks on every fifth game
					checkRandomGame(t, o, seats, seed, deep)
				}
			})
		}
	}
}

func checkRandomGame(t *testing.T, o Options, seats int, seed uint64, deep bool) {
	t.Helper()
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("%s %d seats seed %d: %s", variantName(o), seats, seed, fmt.Sprintf(format, args...))
	}
	ds, dout, _, err := domain.StartRecorded(Rules, o.Canonical(), seats, domain.SeededRand(seed, 0))
	if err != nil {
		fail("start: %v", err)
	}
	s := ds.(*State)
	checkOutcome(t, s, dout.(*Outcome), nil, deep, fail)
	pick := rand.New(rand.NewPCG(seed, 7))
	for i := 1; !s.Status().Finished; i++ {
		if i > maxActions {
			fail("not finished after %d actions", maxActions)
		}
		checkState(t, s, deep, seed, i, fail)
		seat := s.Turn()
		action := bot(s, pick)
		next, out, _, err := domain.ApplyRecorded(s, seat, action, domain.SeededRand(seed, int64(i)))
		if err != nil {
			fail("action %d %s by seat %d: %v", i, action, seat, err)
		}
		checkOutcome(t, next.(*State), out.(*Outcome), s, deep, fail)
		s = next.(*State)
	}
	checkState(t, s, true, seed, 0, fail)
	if len(s.Results()) != o.Rounds {
		fail("finished after %d rounds", len(s.Results()))
	}
}

func checkState(t *testing.T, s *State, deep bool, seed uint64, step int, fail func(string, ...any)) {
	t.Helper()
	if err := s.t.validate(); err != nil {
		fail("step %d: %v", step, err)
	}
	st := s.Status()
	if !deep {
		return
	}
	for seat := range s.Seats() {
		checkView(s, seat, fail)
	}
	if st.Finished {
		return
	}
	// The longest plays are accepted as listed (every listed action is, for every kind: gametest).
	legal := s.Legal(s.Turn())
	for _, e := range legal {
		if e.Longest {
			if _, _, err := s.Apply(s.Turn(), e.Action.JSON(), domain.SeededRand(seed, 1<<41)); err != nil {
				fail("step %d: longest play %v refused: %v", step, e.Action.Cards, err)
			}
		}
	}
}

// checkView makes sure seat's view and the public view show no other seat's cards (PR-8).
func checkView(s *State, seat int, fail func(string, ...any)) {
	finished := s.Status().Finished
	for _, viewer := range []domain.Viewer{domain.Player(seat), domain.Public} {
		v := s.ViewFor(viewer)
		if v.DrawPile != nil {
			fail("%+v sees the draw pile", viewer)
		}
		for other, h := range v.Hands {
			visible := finished || (viewer.Role == domain.RolePlayer && other == seat)
			if visible != (h.Cards != nil) || h.Size != len(s.t.Hands[other]) {
				fail("%+v sees seat %d's hand: %v", viewer, other, h.Cards)
			}
		}
		if v.DrawnCard != 0 && !(viewer.Role == domain.RolePlayer && s.Turn() == seat) {
			fail("%+v sees the drawn card", viewer)
		}
	}
}

// checkOutcome checks an outcome's redaction, its JSON round trip and the scores it reports.
func checkOutcome(t *testing.T, s *State, out *Outcome, before *State, deep bool, fail func(string, ...any)) {
	t.Helper()
	if deep {
		checkRedaction(s, out, fail)
	}
	if r := out.RoundEnded; r != nil {
		for seat, h := range r.Hands {
			if sum(h) != r.Scores[seat] {
				fail("round %d seat %d scored %d for %v", r.Round, seat, r.Scores[seat], h)
			}
			if r.Totals[seat] != before.t.Totals[seat]+r.Scores[seat] {
				fail("round %d seat %d total %d", r.Round, seat, r.Totals[seat])
			}
		}
		if (r.Ending == EndWentOut) != (r.WentOut != nil) || (r.WentOut != nil && len(r.Hands[*r.WentOut]) != 0) {
			fail("round %d ending %s", r.Round, r.Ending)
		}
	}
	if g := out.GameEnded; g != nil && !slices.Equal(g.Winners, lowest(g.Totals)) {
		fail("winners %v for totals %v", g.Winners, g.Totals)
	}
}

// checkRedaction checks that an outcome survives JSON and that no viewer but its owner sees a drawn
// card or a dealt hand (PR-8).
func checkRedaction(s *State, out *Outcome, fail func(string, ...any)) {
	b, _ := json.Marshal(out)
	back, err := Rules.DecodeOutcome(b)
	if err != nil || !reflect.DeepEqual(back, out) {
		fail("outcome JSON round trip: %v\n%s", err, b)
	}
	for seat := range s.Seats() {
		for _, viewer := range []domain.Viewer{domain.Player(seat), domain.Public} {
			r := out.Redact(viewer).(*Outcome)
			if r.Drew != nil && r.Drew.Card != 0 && !(viewer.Role == domain.RolePlayer && r.Drew.Seat == seat) {
				fail("%+v sees a drawn card", viewer)
			}
			if r.Dealt != nil {
				for other, h := range r.Dealt.Hands {
					if (h != nil) != (viewer.Role == domain.RolePlayer && other == seat) {
						fail("%+v sees seat %d's dealt hand", viewer, other)
					}
				}
			}
		}
	}
}
