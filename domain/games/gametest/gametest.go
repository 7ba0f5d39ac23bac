// Package gametest is the kit of what every kind of game must satisfy, whatever its rules: random
// games end; every listed legal action is accepted and only the seats to act have any; the fold of
// the recorded history is the state (G-2); a finished game takes no action; snapshots encode as
// json.Marshal does and decode back; tallies count only seats of the game, never below zero, and
// refuse what is not one of the kind's outcomes; pictures are valid SVG with text, player names
// escaped. domain/games runs it for every kind of the catalogue and the test-only tiny game; each
// engine's own tests keep only its rules.
package gametest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"primegames/domain"
	"primegames/domain/players"
	"primegames/domain/svg/svgtest"
)

// Check runs the kit on kind: games random games over every number of seats it takes, with its
// default options and each of variants in turn; then the tally's refusals of others' outcomes (the
// start outcomes of others) and the pictures.
func Check(t *testing.T, kind domain.GameKind, games int, others []domain.GameKind, variants ...string) {
	t.Run("random games", func(t *testing.T) {
		t.Parallel()
		total := domain.Counts{}
		for game := range games {
			var raw json.RawMessage
			if k := game % (len(variants) + 1); k > 0 {
				raw = json.RawMessage(variants[k-1])
			}
			options, seats, err := kind.Rules.Options(raw)
			if err != nil {
				t.Fatalf("options %s: %v", raw, err)
			}
			n := seats.Min + (game/(len(variants)+1))%(seats.Max-seats.Min+1)
			playChecked(t, kind, options, n, uint64(game), total)
		}
		if kind.Measures != nil {
			sums := map[string]int{}
			for _, m := range total {
				for name, v := range m {
					sums[name] += v
				}
			}
			for name, v := range kind.Measures(sums) {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Errorf("measure %s of %v is %v", name, sums, v)
				}
			}
		}
	})
	t.Run("tally refuses what is not an outcome", func(t *testing.T) {
		t.Parallel()
		foreign := []string{``, `null`, `[]`, `{}`, `42`, `"start"`}
		for _, other := range others {
			if other.Name() == kind.Name() {
				continue
			}
			options, seats, err := other.Rules.Options(nil)
			if err != nil {
				t.Fatal(err)
			}
			_, out, err := other.Rules.Start(options, seats.Min, domain.SeededRand(1, 0))
			if err != nil {
				t.Fatal(err)
			}
			foreign = append(foreign, string(encode(t, out)))
		}
		for _, raw := range foreign {
			c := domain.Counts{}
			if err := kind.Tally(json.RawMessage(raw), c); domain.ErrorCode(err) != "invalid_outcome" {
				t.Errorf("tally of %s: %v, want invalid_outcome", raw, err)
			}
			if len(c) != 0 {
				t.Errorf("tally of %s refused, but counted %v", raw, c)
			}
		}
	})
	if kind.Picture != nil {
		t.Run("pictures", func(t *testing.T) {
			t.Parallel()
			checkPictures(t, kind)
		})
	}
}

// playChecked plays one game with the kind's greedy strategy three times out of four, checking every
// state on the way, and adds its tally to total.
func playChecked(t *testing.T, kind domain.GameKind, options json.RawMessage, seats int, seed uint64, total domain.Counts) {
	t.Helper()
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("%s, %d seats, seed %d: %s", kind.Name(), seats, seed, fmt.Sprintf(format, args...))
	}
	player := players.Mostly(players.Greedy(kind), 75)
	state, out, values, err := domain.StartRecorded(kind.Rules, options, seats, domain.SeededRand(seed, 0))
	if err != nil {
		fail("start: %v", err)
	}
	setup := domain.Setup{Options: options, Seats: seats, Random: values}
	var records []domain.Record
	counts := domain.Counts{}
	tally(t, kind, seats, out, counts, fail)
	var last json.RawMessage
	for step := int64(1); !state.Status().Finished; step++ {
		if step > 20000 {
			fail("not finished after %d actions", step-1)
		}
		checkState(t, kind, state, seats, fail)
		seat := state.Status().ToAct[0]
		legal := entries(t, state, seat)
		if len(legal) == 0 {
			fail("step %d: seat %d is to act but has no legal action", step, seat)
		}
		// Every listed action is accepted: all of them now and then, one picked every step.
		if step%7 == 1 {
			for _, e := range legal {
				if _, _, err := state.Apply(seat, actionOf(t, e), domain.SeededRand(seed, -step)); err != nil {
					fail("step %d: listed action %s refused: %v", step, actionOf(t, e), err)
				}
			}
		}
		i, err := player(legal, domain.SeededRand(seed, -step))
		if err != nil {
			fail("step %d: %v", step, err)
		}
		last = actionOf(t, legal[i])
		next, out, values, err := domain.ApplyRecorded(state, seat, last, domain.SeededRand(seed, step))
		if err != nil {
			fail("step %d: listed action %s refused: %v", step, last, err)
		}
		records = append(records, domain.Record{Seat: seat, Action: last, Random: values})
		tally(t, kind, seats, out, counts, fail)
		state = next
	}
	checkState(t, kind, state, seats, fail)
	st := state.Status()
	if len(st.Winners) == 0 || len(st.ToAct) != 0 {
		fail("finished with winners %v, to act %v", st.Winners, st.ToAct)
	}
	for _, w := range st.Winners {
		if w < 0 || w >= seats {
			fail("winner %d of %d seats", w, seats)
		}
	}
	if _, _, err := state.Apply(st.Winners[0], last, domain.SeededRand(seed, 0)); domain.ErrorCode(err) != "game_over" {
		fail("a finished game answered an action with %v, want game_over", err)
	}
	folded, err := domain.Fold(kind.Rules, setup, records)
	if err != nil {
		fail("G-2: fold of %d records: %v", len(records), err)
	}
	if a, b := encode(t, state), encode(t, folded); !bytes.Equal(a, b) {
		fail("G-2: the fold of the history differs from the state:\nplayed %s\nfolded %s", a, b)
	}
	for seat, m := range counts {
		for name, v := range m {
			total.Add(seat, name, v)
		}
	}
}

// checkState checks what every state of every kind must meet: a status that names seats of the
// game, only those seats with legal actions, and a snapshot that is json.Marshal's bytes and decodes
// back to the same.
func checkState(t *testing.T, kind domain.GameKind, state domain.State, seats int, fail func(string, ...any)) {
	t.Helper()
	st := state.Status()
	if !st.Finished && len(st.ToAct) == 0 {
		fail("a running game with no seat to act: %+v", st)
	}
	for _, s := range st.ToAct {
		if s < 0 || s >= seats {
			fail("seat %d to act of %d", s, seats)
		}
	}
	for seat := range seats {
		toAct := !st.Finished && contains(st.ToAct, seat)
		if n := len(entries(t, state, seat)); !toAct && n != 0 {
			fail("seat %d is not to act (status %+v) but has %d legal actions", seat, st, n)
		}
	}
	snapshot, err := domain.EncodeSnapshot(state)
	if err != nil {
		fail("snapshot: %v", err)
	}
	if want := encode(t, state); !bytes.Equal(snapshot, want) {
		fail("the snapshot is\n%s\nwhere json.Marshal writes\n%s", snapshot, want)
	}
	back, err := kind.Rules.Decode(snapshot)
	if err != nil {
		fail("decode of its own snapshot: %v", err)
	}
	if again := encode(t, back); !bytes.Equal(again, snapshot) {
		fail("the snapshot decodes to\n%s\nnot\n%s", again, snapshot)
	}
}

// tally counts one outcome as stored (its JSON) into counts: only seats of the game, never below zero.
func tally(t *testing.T, kind domain.GameKind, seats int, out domain.Outcome, counts domain.Counts, fail func(string, ...any)) {
	t.Helper()
	raw := encode(t, out)
	if err := kind.Tally(raw, counts); err != nil {
		fail("tally of its own outcome %s: %v", raw, err)
	}
	for seat, m := range counts {
		if seat < 0 || seat >= seats {
			fail("tally of %s counted seat %d of %d", raw, seat, seats)
		}
		for name, v := range m {
			if v < 0 {
				fail("tally of %s: seat %d's %s fell to %d", raw, seat, name, v)
			}
		}
	}
}

// checkPictures draws steps of a played game for every viewer in every layout: each a valid SVG
// document with text; and names that look like markup are written as text.
func checkPictures(t *testing.T, kind domain.GameKind) {
	_, seats, err := kind.Rules.Options(nil)
	if err != nil {
		t.Fatal(err)
	}
	steps, err := players.Playout(kind, seats.Min, players.Mostly(players.Greedy(kind), 75), 5, 5000)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{`<script>alert("x")</script>`, `Bob & "Al" <b>`, "Cy", "Di", "Ed", "Flo"}[:seats.Min]
	viewers := []domain.Viewer{domain.Public, domain.Full}
	for seat := range seats.Min {
		viewers = append(viewers, domain.Player(seat))
	}
	for i, step := range steps {
		if i%10 != 0 && i != len(steps)-1 {
			continue
		}
		for _, viewer := range viewers {
			pos := domain.Position{View: encode(t, step.State.View(viewer)), Last: encode(t, step.Outcome.Redact(viewer)), Players: names, Seq: int64(i)}
			if viewer.Role == domain.RolePlayer {
				pos.You = &viewer.Seat
			}
			for _, layout := range domain.Layouts {
				s, err := kind.Picture.Still(layout, pos)
				if err != nil {
					t.Fatalf("step %d, viewer %+v, %s: %v", i, viewer, layout, err)
				}
				doc := s.SVG()
				root := svgtest.Parse(t, doc)
				if len(root.Texts()) == 0 {
					t.Errorf("step %d, viewer %+v, %s: a picture without text", i, viewer, layout)
				}
				if strings.Contains(string(doc), "<script") || strings.Contains(string(doc), "<b>") {
					t.Fatalf("step %d: a player's name came out as markup:\n%s", i, doc)
				}
				if i == 0 && !strings.Contains(strings.Join(root.Texts(), " "), `<script>alert("x")</script>`) {
					t.Errorf("step %d, viewer %+v, %s: the first player's name is not shown as text: %q", i, viewer, layout, root.Texts())
				}
			}
		}
	}
}

// entries are the legal-action entries of seat as GET /legal-actions lists them.
func entries(t *testing.T, state domain.State, seat int) []json.RawMessage {
	t.Helper()
	var out []json.RawMessage
	if err := json.Unmarshal(encode(t, state.LegalActions(seat)), &out); err != nil {
		t.Fatalf("legal actions of seat %d: %v", seat, err)
	}
	return out
}

func actionOf(t *testing.T, entry json.RawMessage) json.RawMessage {
	t.Helper()
	var e struct {
		Action json.RawMessage `json:"action"`
	}
	if err := json.Unmarshal(entry, &e); err != nil || len(e.Action) == 0 {
		t.Fatalf("legal entry %s has no action: %v", entry, err)
	}
	return e.Action
}

func contains(seats []int, seat int) bool {
	for _, s := range seats {
		if s == seat {
			return true
		}
	}
	return false
}

func encode(t *testing.T, v any) []byte {
	t.Helper()
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Decision is one position an advisor was asked about, as a seat sees it, and the action played.
type Decision struct {
	View   json.RawMessage
	Legal  []json.RawMessage
	Played json.RawMessage
}

// AdvisedGame plays a whole game of kind with options (nil: its defaults) over seats seats, seat 0
// choosing as the expert and the others greedily, each with the kind's advisor from what the seat
// sees, and returns every decision of a seat with a choice (an only legal action is not one).
func AdvisedGame(tb testing.TB, kind domain.GameKind, options json.RawMessage, seats int, seed uint64) []Decision {
	tb.Helper()
	if kind.Advisor == nil {
		tb.Fatalf("%s has no advisor", kind.Name())
	}
	canonical, _, err := kind.Rules.Options(options)
	if err != nil {
		tb.Fatal(err)
	}
	state, _, err := kind.Rules.Start(canonical, seats, domain.SeededRand(seed, 0))
	if err != nil {
		tb.Fatal(err)
	}
	var decisions []Decision
	for step := int64(1); !state.Status().Finished; step++ {
		if step > 20000 {
			tb.Fatalf("%s: not finished after %d actions", kind.Name(), step-1)
		}
		seat := state.Status().ToAct[0]
		view, err := json.Marshal(state.View(domain.Player(seat)))
		if err != nil {
			tb.Fatal(err)
		}
		raw, err := json.Marshal(state.LegalActions(seat))
		if err != nil {
			tb.Fatal(err)
		}
		var legal []json.RawMessage
		if err := json.Unmarshal(raw, &legal); err != nil {
			tb.Fatal(err)
		}
		level := domain.LevelGreedy
		if seat == 0 {
			level = domain.LevelExpert
		}
		advice, err := kind.Advisor.Choose(view, legal, level, domain.SeededRand(seed, -step))
		if err != nil {
			tb.Fatalf("%s step %d: %v", kind.Name(), step, err)
		}
		action, err := advice.ActionIn(legal)
		if err != nil {
			tb.Fatal(err)
		}
		if len(legal) > 1 {
			decisions = append(decisions, Decision{View: view, Legal: legal, Played: action})
		}
		if state, _, err = state.Apply(seat, action, domain.SeededRand(seed, step)); err != nil {
			tb.Fatalf("%s step %d: the advisor's %s refused: %v", kind.Name(), step, action, err)
		}
	}
	return decisions
}

// BenchmarkReview reviews every decision of an advised game of kind, as the move review of a
// finished game does (target: ≤ 200 ms a game).
func BenchmarkReview(b *testing.B, kind domain.GameKind, options json.RawMessage, seats int, seed uint64) {
	game := AdvisedGame(b, kind, options, seats, seed)
	for b.Loop() {
		for _, d := range game {
			if _, err := kind.Advisor.Review(d.View, d.Legal, d.Played); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(len(game)), "actions")
}
