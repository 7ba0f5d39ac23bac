package primeclimb

import (
	"encoding/json"
	"fmt"
	"maps"
	"testing"

	"primegames/domain"
)

// tallyJSON stores an outcome as the service does (json.Marshal) and tallies it.
func tallyJSON(t testing.TB, out any, counts domain.Counts) {
	t.Helper()
	raw, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	if err := Tally(raw, counts); err != nil {
		t.Fatalf("tally %s: %v", raw, err)
	}
}

// nonzero drops zero counters and seats left without counters, so that counts compare by value.
func nonzero(c domain.Counts) domain.Counts {
	out := domain.Counts{}
	for seat, m := range c {
		for name, n := range m {
			if n != 0 {
				out.Add(seat, name, n)
			}
		}
	}
	return out
}

func sameCounts(a, b domain.Counts) bool {
	a, b = nonzero(a), nonzero(b)
	return maps.EqualFunc(a, b, func(x, y map[string]int) bool { return maps.Equal(x, y) })
}

// redPrime is the test's own PC-10 square check: a prime from 11 to 97.
func redPrime(n int) bool {
	if n < 11 || n > 97 {
		return false
	}
	for d := 2; d*d <= n; d++ {
		if n%d == 0 {
			return false
		}
	}
	return true
}

// stepTo is the test's own arithmetic for a die or ±N step (PC-5).
func stepTo(from int, op string, n int) int {
	switch op {
	case OpAdd:
		return from + n
	case OpSubtract:
		return from - n
	case OpMultiply:
		return from * n
	}
	return from / n
}

// expectation is what the test expects one action to add, worked out from the action sent and the
// typed states around it, never from the outcome's JSON.
type expectation struct {
	want        domain.Counts
	landedTruth int // PC-10 earners, from the start-of-turn positions
}

func expect(t *testing.T, prev, next State, seat int, pick LegalAction, out *Outcome) expectation {
	t.Helper()
	e := expectation{want: domain.Counts{}}
	a := pick.Action
	pawns := prev.Players[seat].Pawns // the mover's pawns as the steps move them
	var touched [2]bool
	lastTouched := -1
	keepers := 0
	keeperStep := func(st Step) {
		keepers++
		e.want.Add(seat, "keepers_played", 1)
		switch st.Card {
		case Curse:
			e.want.Add(*st.TargetSeat, "curses_received", 1)
		case SendToStart:
			if *st.TargetSeat == seat {
				e.want.Add(seat, "own_bumps", 1)
				pawns[*st.Pawn] = 0
				touched[*st.Pawn], lastTouched = true, *st.Pawn
			} // another seat's pawn is counted from the positions below
		default:
			n, _ := plusMinusValue(st.Card)
			op := OpAdd
			if st.Sign == "-" {
				op = OpSubtract
			}
			pawns[*st.Pawn] = stepTo(pawns[*st.Pawn], op, n)
			touched[*st.Pawn], lastTouched = true, *st.Pawn
		}
	}
	// Other seats' pawns that went from the board to Start were bumped by the mover (PC-9, PC-12, PC-13).
	for other, p := range prev.Players {
		for i, at := range p.Pawns {
			if other != seat && at != Start && next.Players[other].Pawns[i] == Start {
				e.want.Add(seat, "bumps_given", 1)
				e.want.Add(other, "bumps_taken", 1)
			}
		}
	}
	switch a.Type {
	case ActKeeper:
		keeperStep(a.keeperStep())
	case ActMove:
		e.want.Add(seat, "turns", 1)
		for _, st := range a.Steps {
			if st.isCard() {
				keeperStep(st)
				continue
			}
			e.want.Add(seat, "op_"+st.Op, 1)
			pawns[*st.Pawn] = stepTo(pawns[*st.Pawn], st.Op, st.Die)
			touched[*st.Pawn], lastTouched = true, *st.Pawn
		}
		if pick.Ends == nil {
			t.Fatalf("move entry without ends: %+v", pick)
		}
		if next.Phase == PhaseFinished {
			break // PC-6: no bump, no draw
		}
		ends := *pick.Ends // after the bump, before any card
		var truth [2]bool
		for p := range 2 {
			if pawns[p] != Start && ends[p] == Start {
				e.want.Add(seat, "own_bumps", 1) // PC-9: both own pawns on one square
			}
			if ends[p] != Start && next.Players[seat].Pawns[p] == Start {
				e.want.Add(seat, "own_bumps", 1) // an action card moved onto the other own pawn
			}
			if redPrime(ends[p]) && ends[p] != prev.Turn.StartPawns[p] {
				truth[p] = true
				e.landedTruth++
			}
		}
		drawer := -1
		if prev.Options.PrimeCards && e.landedTruth > 0 {
			switch {
			case e.landedTruth == 1 && truth[0]:
				drawer = 0
			case e.landedTruth == 1:
				drawer = 1
			case a.DrawPawn != nil:
				drawer = *a.DrawPawn
			case lastTouched >= 0:
				drawer = lastTouched
			default:
				drawer = prev.Turn.LastMoved
			}
			if len(prev.Deck)+len(prev.Discard)+keepers > 0 {
				e.want.Add(seat, "cards_drawn", 1)
			}
		}
		if (drawer >= 0) != (out.Draw != nil) || (drawer >= 0 && out.Draw.Pawn != drawer) {
			t.Fatalf("the test expected pawn %d to draw, the outcome says %+v", drawer, out.Draw)
		}
		e.want.Add(seat, "primes_landed", e.landedTruth)
	}
	return e
}

// tallyRandomGame plays a game as playRandomGame does, tallies every outcome's JSON as it comes and
// compares the counters after each action with the expected ones.
func tallyRandomGame(t *testing.T, seed uint64, seats int, opts string, greedy bool) domain.Counts {
	picker := domain.SeededRand(seed, -1)
	st, out, _, err := domain.StartRecorded(Rules, json.RawMessage(opts), seats, domain.SeededRand(seed, 0))
	if err != nil {
		t.Fatal(err)
	}
	got, want := domain.Counts{}, domain.Counts{}
	tallyJSON(t, out, got)
	if len(nonzero(got)) != 0 {
		t.Fatalf("the start counted %v", got)
	}
	for seq := int64(1); !st.Status().Finished; seq++ {
		if seq > 20000 {
			t.Fatalf("seed %d: game did not finish", seed)
		}
		prev := st.(State)
		seat := prev.Turn.Seat
		legal := prev.Legal(seat)
		pick := legal[picker.IntN(len(legal))]
		if greedy && picker.IntN(4) != 0 {
			pick = legal[Furthest(legal, picker)]
		}
		raw, err := json.Marshal(pick.Action)
		if err != nil {
			t.Fatal(err)
		}
		next, out, _, err := domain.ApplyRecorded(st, seat, raw, domain.SeededRand(seed, seq))
		if err != nil {
			t.Fatalf("seed %d: %s refused: %v", seed, raw, err)
		}
		e := expect(t, prev, next.(State), seat, pick, out.(*Outcome))
		for s, m := range e.want {
			for name, n := range m {
				want.Add(s, name, n)
			}
		}
		tallyJSON(t, out, got)
		if !sameCounts(got, want) {
			t.Fatalf("seed %d action %d %s by seat %d:\ntallied  %v\nexpected %v", seed, seq, raw, seat, nonzero(got), nonzero(want))
		}
		st = next
	}
	return got
}

// Whole random games, 1 to 4 seats, with and without cards: after every action the tallied counters
// equal those the test works out from the actions sent and the states before and after.
func TestTallyRandomGames(t *testing.T) {
	total := domain.Counts{}
	for i := range 24 {
		seats := 1 + i%4
		opts := `{"prime_cards":true}`
		if i%6 == 5 {
			opts = `{"prime_cards":false}`
		}
		c := tallyRandomGame(t, uint64(7000+i), seats, opts, i%12 != 0)
		for seat, m := range c {
			for name, v := range m {
				total.Add(seat, name, v)
			}
		}
	}
	// Every counter must have been exercised by the games.
	for _, name := range []string{"turns", "op_add", "op_subtract", "op_multiply", "op_divide", "primes_landed",
		"bumps_given", "bumps_taken", "own_bumps", "cards_drawn", "keepers_played", "curses_received"} {
		sum := 0
		for _, m := range total {
			sum += m[name]
		}
		if sum == 0 {
			t.Errorf("no game counted %s", name)
		}
	}
}

// fromTally tallies outcomes given as JSON literals.
func fromTally(t *testing.T, outcomes ...string) domain.Counts {
	t.Helper()
	c := domain.Counts{}
	for _, o := range outcomes {
		if err := Tally(json.RawMessage(o), c); err != nil {
			t.Fatalf("tally %s: %v", o, err)
		}
	}
	return c
}

func wantCounts(t *testing.T, got, want domain.Counts) {
	t.Helper()
	if !sameCounts(got, want) {
		t.Fatalf("tallied  %v\nexpected %v", nonzero(got), nonzero(want))
	}
}

// counts builds expected counters: seat, name, n, seat, name, n, ...
func counts(triples ...any) domain.Counts {
	c := domain.Counts{}
	for i := 0; i < len(triples); i += 3 {
		c.Add(triples[i].(int), triples[i+1].(string), triples[i+2].(int))
	}
	return c
}

// moveOutcome writes a stored move outcome with the given steps, bumps and draw. A move that draws
// had pawn 0 land on a new red prime (PC-10).
func moveOutcome(seat int, steps, bumps, draw string) string {
	landed := ""
	if draw != "null" {
		landed = `"primes_landed":[0],`
	}
	return fmt.Sprintf(`{"action":"move","seat":%d,"roll_off":[],"dice":[],"uses":[],"steps":[%s],"unused":[],"bumps":[%s],%s`+
		`"draw":%s,"next_seat":0,"next_cursed":false,"winner":null}`, seat, steps, bumps, landed, draw)
}

func TestTallyBumpsFromStoredOutcomes(t *testing.T) {
	step := `{"die":4,"op":"add","seat":1,"pawn":0,"from":33,"to":37,"equation":"33 + 4 = 37","home":false,"target_seat":null}`
	// Seat 1 lands on 37 where pawn 1 of seat 0 and pawn 0 of seat 2 stand (PC-9): two given, one taken each.
	given := moveOutcome(1, step, `{"seat":0,"pawn":1,"from":37},{"seat":2,"pawn":0,"from":37}`,
		`{"pawn":0,"square":37,"card":"plus_minus_3","kind":"keeper","reshuffled":false,"effect":"","moves":[],"bumps":[],"stolen":null,"pending":false}`)
	wantCounts(t, fromTally(t, given), counts(1, "turns", 1, 1, "op_add", 1, 1, "primes_landed", 1, 1, "cards_drawn", 1,
		1, "bumps_given", 2, 0, "bumps_taken", 1, 2, "bumps_taken", 1))

	// Both own pawns end on 37: the one that did not move last goes to Start (PC-9), an own bump; the
	// draw's pawn still counts as landed.
	own := moveOutcome(1, step, `{"seat":1,"pawn":1,"from":37}`,
		`{"pawn":0,"square":37,"card":null,"kind":"none","reshuffled":false,"effect":"","moves":[],"bumps":[],"stolen":null,"pending":false}`)
	wantCounts(t, fromTally(t, own), counts(1, "turns", 1, 1, "op_add", 1, 1, "primes_landed", 1, 1, "own_bumps", 1))

	// An action card's bumps count like the move's: Go to 64 onto an opponent and onto the own other pawn.
	card := moveOutcome(1, step, ``,
		`{"pawn":0,"square":37,"card":"go_to_64","kind":"action","reshuffled":false,"effect":"","moves":[{"seat":1,"pawn":0,"from":37,"to":64}],`+
			`"bumps":[{"seat":3,"pawn":1,"from":64},{"seat":1,"pawn":1,"from":64}],"stolen":null,"pending":false}`)
	wantCounts(t, fromTally(t, card), counts(1, "turns", 1, 1, "op_add", 1, 1, "primes_landed", 1, 1, "cards_drawn", 1,
		1, "bumps_given", 1, 3, "bumps_taken", 1, 1, "own_bumps", 1))

	// Send to Start played on its own, on an opponent's pawn and on an own pawn.
	send := func(target int) string {
		return fmt.Sprintf(`{"action":"keeper","seat":2,"roll_off":[],"dice":[],"uses":[],"steps":[{"card":"send_to_start","seat":%d,"pawn":1,`+
			`"from":50,"to":0,"equation":"","home":false,"target_seat":%d}],"unused":[],"bumps":[],"draw":null,"next_seat":null,"next_cursed":false,"winner":null}`,
			target, target)
	}
	wantCounts(t, fromTally(t, send(0), send(2)), counts(2, "keepers_played", 2, 2, "bumps_given", 1, 0, "bumps_taken", 1, 2, "own_bumps", 1))

	// The start, a roll and a choose (a resolved Swap: its card was counted when drawn) count nothing.
	start := `{"action":"start","seat":null,"roll_off":[{"rolls":[{"seat":0,"dice":[3,4],"total":7},{"seat":1,"dice":[9,9],"total":18}]}],` +
		`"dice":[],"uses":[],"steps":[],"unused":[],"bumps":[],"draw":null,"next_seat":1,"next_cursed":false,"winner":null}`
	roll := `{"action":"roll","seat":1,"roll_off":[],"dice":[3,3],"uses":[3,3,3,3],"steps":[],"unused":[],"bumps":[],"draw":null,"next_seat":null,"next_cursed":false,"winner":null}`
	choose := `{"action":"choose","seat":1,"roll_off":[],"dice":[],"uses":[],"steps":[],"unused":[],"bumps":[],"draw":{"pawn":0,"square":37,"card":"swap",` +
		`"kind":"action","reshuffled":false,"effect":"","moves":[{"seat":1,"pawn":0,"from":37,"to":50},{"seat":0,"pawn":0,"from":50,"to":37}],` +
		`"bumps":[],"stolen":null,"pending":false},"next_seat":0,"next_cursed":false,"winner":null}`
	wantCounts(t, fromTally(t, start, roll, choose), domain.Counts{})
}

// The same situations played through the engine, with keepers inside the move (which random games,
// driven by LegalActions, never send).
func TestTallyPlayedSituations(t *testing.T) {
	c := domain.Counts{}
	// Seat 0: 10 + 3 = 13 bumps seat 1's pawn on 13 and draws (±1, a keeper); pawn 1: 0 + 1 = 1.
	s := game([2]int{10, 0}, [2]int{13, 40}).rolled(3, 1)
	s2, out := apply(t, s, 0, `{"type":"move","steps":[{"die":3,"pawn":0,"op":"add"},{"die":1,"pawn":1,"op":"add"}]}`)
	tallyJSON(t, out, c)
	wantCounts(t, c, counts(0, "turns", 1, 0, "op_add", 2, 0, "primes_landed", 1, 0, "cards_drawn", 1,
		0, "bumps_given", 1, 1, "bumps_taken", 1))
	wantPawns(t, s2, 1, [2]int{0, 40})

	// Both pawns land newly on red primes, with a ±2 keeper inside the move: two pawns, one card.
	c = domain.Counts{}
	s = game([2]int{5, 20}, [2]int{0, 0}).holding(0, PlusMinus(2)).rolled(6, 3)
	_, out = apply(t, s, 0, `{"type":"move","steps":[{"die":6,"pawn":0,"op":"add"},{"card":"plus_minus_2","pawn":0,"sign":"+"},`+
		`{"die":3,"pawn":1,"op":"add"}],"draw_pawn":1}`)
	tallyJSON(t, out, c)
	wantCounts(t, c, counts(0, "turns", 1, 0, "op_add", 2, 0, "keepers_played", 1, 0, "primes_landed", 2, 0, "cards_drawn", 1))

	// Own bump: pawn 0 ends on pawn 1's square 13 and stays; pawn 1 goes to Start (PC-9).
	c = domain.Counts{}
	s = game([2]int{5, 13}, [2]int{0, 0}).rolled(6, 2)
	s2, out = apply(t, s, 0, `{"type":"move","steps":[{"die":6,"pawn":0,"op":"add"},{"die":2,"pawn":0,"op":"add"}]}`)
	tallyJSON(t, out, c)
	wantCounts(t, c, counts(0, "turns", 1, 0, "op_add", 2, 0, "primes_landed", 1, 0, "cards_drawn", 1, 0, "own_bumps", 1))
	wantPawns(t, s2, 0, [2]int{13, 0})

	// Back to the red square it started on inside the move: no draw, nothing landed (PC-10).
	c = domain.Counts{}
	s = game([2]int{13, 32}, [2]int{0, 0}).rolled(4, 4, 4, 4)
	_, out = apply(t, s, 0, `{"type":"move","steps":[{"die":4,"pawn":0,"op":"add"},{"die":4,"pawn":0,"op":"subtract"},`+
		`{"die":4,"pawn":1,"op":"divide"},{"die":4,"pawn":1,"op":"multiply"}]}`)
	tallyJSON(t, out, c)
	wantCounts(t, c, counts(0, "turns", 1, 0, "op_add", 1, 0, "op_subtract", 1, 0, "op_divide", 1, 0, "op_multiply", 1))

	// An action card moving onto an opponent: Go to 64 bumps seat 1's pawn there (PC-13).
	c = domain.Counts{}
	s = game([2]int{8, 0}, [2]int{64, 0}).deck(GoTo64).rolled(3, 1)
	_, out = apply(t, s, 0, `{"type":"move","steps":[{"die":3,"pawn":0,"op":"add"},{"die":1,"pawn":1,"op":"multiply"}]}`)
	tallyJSON(t, out, c)
	wantCounts(t, c, counts(0, "turns", 1, 0, "op_add", 1, 0, "op_multiply", 1, 0, "primes_landed", 1, 0, "cards_drawn", 1,
		0, "bumps_given", 1, 1, "bumps_taken", 1))

	// Keepers on their own: a Curse on seat 2, Send to Start on seat 1's pawn and on an own pawn.
	c = domain.Counts{}
	s = game([2]int{30, 40}, [2]int{50, 0}, [2]int{60, 0}).holding(0, Curse, SendToStart, SendToStart)
	for _, a := range []string{`{"type":"keeper","card":"curse","target_seat":2}`,
		`{"type":"keeper","card":"send_to_start","target_seat":1,"pawn":0}`,
		`{"type":"keeper","card":"send_to_start","target_seat":0,"pawn":1}`} {
		s, out = apply(t, s, 0, a)
		tallyJSON(t, out, c)
	}
	wantCounts(t, c, counts(0, "keepers_played", 3, 2, "curses_received", 1, 0, "bumps_given", 1, 1, "bumps_taken", 1, 0, "own_bumps", 1))
}

// PC-10: primes_landed judges each pawn from where it stood when the turn began, so a keeper played on
// its own earlier in the turn neither adds nor hides a landing.
func TestTallyPrimesLandedFromTheTurnStartPC10(t *testing.T) {
	s := game([2]int{13, 8}, [2]int{0, 0}).holding(0, PlusMinus(2)).rolled(2, 3)
	s, out := apply(t, s, 0, `{"type":"keeper","card":"plus_minus_2","pawn":0,"sign":"+"}`) // 13 → 15
	c := domain.Counts{}
	tallyJSON(t, out, c)
	// 15 − 2 = 13 (back where it started the turn: PC-10 says no draw), 8 + 3 = 11 (new: a draw).
	_, out = apply(t, s, 0, `{"type":"move","steps":[{"die":2,"pawn":0,"op":"subtract"},{"die":3,"pawn":1,"op":"add"}]}`)
	if out.Draw == nil || out.Draw.Pawn != 1 {
		t.Fatalf("draw %+v, want pawn 1's", out.Draw)
	}
	tallyJSON(t, out, c)
	// PC-10 counts one pawn: pawn 1. Pawn 0 is back on 13, where it began the turn.
	wantCounts(t, c, counts(0, "keepers_played", 1, 0, "turns", 1, 0, "op_add", 1, 0, "op_subtract", 1,
		0, "primes_landed", 1, 0, "cards_drawn", 1))

	// A pawn moved onto a red prime only by a keeper on its own still counts when it drew the card.
	s = game([2]int{9, 30}, [2]int{0, 0}).holding(0, PlusMinus(2)).rolled(2, 3)
	s, out = apply(t, s, 0, `{"type":"keeper","card":"plus_minus_2","pawn":0,"sign":"+"}`) // 9 → 11
	c = domain.Counts{}
	tallyJSON(t, out, c)
	_, out = apply(t, s, 0, `{"type":"move","steps":[{"die":2,"pawn":1,"op":"add"},{"die":3,"pawn":1,"op":"add"}]}`) // 30 → 35
	tallyJSON(t, out, c)
	wantCounts(t, c, counts(0, "keepers_played", 1, 0, "turns", 1, 0, "op_add", 2, 0, "primes_landed", 1, 0, "cards_drawn", 1))

	// So does one that the move takes off that square and back: 9 → 11 by the keeper, then 11 + 3 − 3.
	s = game([2]int{9, 30}, [2]int{0, 0}).holding(0, PlusMinus(2)).rolled(3, 3, 3, 3)
	s, out = apply(t, s, 0, `{"type":"keeper","card":"plus_minus_2","pawn":0,"sign":"+"}`)
	c = domain.Counts{}
	tallyJSON(t, out, c)
	_, out = apply(t, s, 0, `{"type":"move","steps":[{"die":3,"pawn":0,"op":"add"},{"die":3,"pawn":0,"op":"subtract"},`+
		`{"die":3,"pawn":1,"op":"add"},{"die":3,"pawn":1,"op":"subtract"}]}`)
	if out.Draw == nil || out.Draw.Pawn != 0 {
		t.Fatalf("draw %+v, want pawn 0's", out.Draw)
	}
	tallyJSON(t, out, c)
	wantCounts(t, c, counts(0, "keepers_played", 1, 0, "turns", 1, 0, "op_add", 2, 0, "op_subtract", 2, 0, "primes_landed", 1, 0, "cards_drawn", 1))
}

func TestTallyRefusesWhatIsNotAPrimeClimbOutcome(t *testing.T) {
	ok := moveOutcome(0, `{"die":4,"op":"add","seat":0,"pawn":0,"from":3,"to":7,"equation":"","home":false,"target_seat":null}`, ``, `null`)
	if err := Tally(json.RawMessage(ok), domain.Counts{}); err != nil {
		t.Fatalf("a valid outcome refused: %v", err)
	}
	for _, raw := range []string{
		`{"action":"move"`, ok + ` {}`, // and what is no outcome of any kind: gametest
		`{"action":"jump","seat":0}`,
		`{"action":"move","seat":null,"steps":[]}`,
		`{"action":"move","seat":4,"steps":[]}`,
		`{"action":"move","seat":-1,"steps":[]}`,
		`{"action":"start","seat":0}`,
		`{"action":"move","seat":0,"surprise":1}`,
		`{"action":"move","seat":0,"steps":[{"die":4,"op":"power","seat":0,"pawn":0,"from":3,"to":7}]}`,
		`{"action":"move","seat":0,"steps":[{"die":11,"op":"add","seat":0,"pawn":0,"from":3,"to":14}]}`,
		`{"action":"move","seat":0,"steps":[{"die":4,"op":"add","seat":0,"pawn":2,"from":3,"to":7}]}`,
		`{"action":"move","seat":0,"steps":[{"die":4,"op":"add","seat":0,"pawn":0,"from":3,"to":107}]}`,
		`{"action":"move","seat":0,"steps":[{"die":4,"op":"add","seat":0,"pawn":0,"from":null,"to":7}]}`,
		`{"action":"move","seat":0,"steps":[{"seat":0,"pawn":0,"from":3,"to":7}]}`,
		`{"action":"move","seat":0,"steps":[{"card":"go_to_64","seat":0,"pawn":0,"from":3,"to":64}]}`,
		`{"action":"move","seat":0,"steps":[{"card":"curse","seat":1,"pawn":null,"target_seat":null}]}`,
		`{"action":"move","seat":0,"steps":[{"card":"curse","seat":0,"pawn":null,"target_seat":0}]}`,
		`{"action":"keeper","seat":0,"steps":[{"card":"send_to_start","seat":9,"pawn":0,"from":5,"to":0,"target_seat":9}]}`,
		`{"action":"keeper","seat":0,"steps":[]}`,
		`{"action":"keeper","seat":0,"steps":[{"die":4,"op":"add","seat":0,"pawn":0,"from":3,"to":7}]}`,
		`{"action":"roll","seat":0,"steps":[{"die":4,"op":"add","seat":0,"pawn":0,"from":3,"to":7}]}`,
		`{"action":"move","seat":0,"bumps":[{"seat":7,"pawn":0,"from":5}]}`,
		`{"action":"move","seat":0,"bumps":[{"seat":1,"pawn":3,"from":5}]}`,
		`{"action":"move","seat":0,"draw":{"pawn":5,"square":13}}`,
		`{"action":"move","seat":0,"draw":{"pawn":0,"square":13,"card":"joker"}}`,
		`{"action":"move","seat":0,"draw":{"pawn":0,"square":13,"bumps":[{"seat":-2,"pawn":0,"from":5}]}}`,
	} {
		c := domain.Counts{}
		if err := Tally(json.RawMessage(raw), c); err == nil {
			t.Errorf("%s: accepted", raw)
		} else if domain.ErrorCode(err) != "invalid_outcome" {
			t.Errorf("%s: code %q (%v)", raw, domain.ErrorCode(err), err)
		}
		if len(c) != 0 {
			t.Errorf("%s: refused but counted %v", raw, c)
		}
	}
}
