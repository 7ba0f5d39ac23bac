package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"testing"

	"primegames/domain"
)

// marshalEngine writes what json.Marshal writes of every view, legal actions, outcome and scores of
// games of every kind (Primed's to their end, Prime Climb's for 400 actions), for every viewer, and of values that need
// escaping. It does not for a float below 1e-6 (1e-07, not 1e-7), which no engine value holds.
func TestEngineJSONAsEncodingJSON(t *testing.T) {
	t.Parallel()
	values, finished := 0, 0
	check := func(what string, v any) {
		t.Helper()
		want, wantErr := json.Marshal(v)
		got, err := marshalEngine(v)
		if (err != nil) != (wantErr != nil) || !bytes.Equal(got, want) {
			t.Fatalf("%s encodes as\n%s (%v)\nnot as encoding/json does:\n%s (%v)", what, got, err, want, wantErr)
		}
		values++
	}
	// Primed's games are played to their end (they always end, in some hundreds of moves), so that
	// finished games are compared; Prime Climb's for 400 moves, where many end.
	movesOf := map[string]int{"prime-climb": 400, "primed": 100_000}
	viewers := []domain.Viewer{domain.Full, domain.Public, domain.Player(0), domain.Player(1), domain.Player(2)}
	// The games are played side by side first: each waits on Postgres at every action.
	t.Run("play", func(t *testing.T) {
		for _, kind := range []string{"prime-climb", "primed"} {
			for seed := range uint64(2) {
				t.Run(fmt.Sprintf("%s-%d", kind, seed), func(t *testing.T) {
					t.Parallel()
					playRecorded(t, kind, []string{"Zoë <&>", `Ben "B" \ 1`, "Cy"}[:2+int(seed)], seed, movesOf[kind])
				})
			}
		}
	})
	for _, kind := range []string{"prime-climb", "primed"} {
		for seed := range uint64(2) {
			names := []string{"Zoë <&>", `Ben "B" \ 1`, "Cy"}[:2+int(seed)]
			for _, p := range playRecorded(t, kind, names, seed, movesOf[kind]) {
				g := p.acted.Game
				outcome, err := g.Rules.DecodeOutcome(p.acted.Entry.Outcome)
				if err != nil {
					t.Fatal(err)
				}
				for _, viewer := range viewers[:2+len(names)] {
					check("view", g.State.View(viewer))
					check("outcome", outcome.Redact(viewer))
				}
				for seat := range names {
					check("legal actions", g.ChoicesOf(seat).Actions)
				}
				check("scores", g.State.Scores())
				if g.Status.Over() {
					finished++
				}
			}
		}
	}
	check("text", []string{"<&>", "\u2028\u2029", "\xff\xfe", "\x00\x1f", "é−÷", `"\`})
	check("maps", map[string]any{"b": 1, "a": []int(nil), "c": map[int]string{10: "x", 2: "y"}, "d": json.RawMessage(` {"z" : 1} `)})
	check("numbers", []any{0.1, 1e21, 1e-6, math.Copysign(0, -1), 123456789.0, float32(0.1), int64(-1 << 63), uint64(1<<64 - 1)})
	if small, _ := marshalEngine(1e-7); string(small) != "1e-07" {
		t.Errorf("marshalEngine(1e-7) = %s; if it is 1e-7 now, as json.Marshal writes it, say so above", small)
	}
	if finished < 2 {
		t.Errorf("%d games finished", finished)
	}
	t.Logf("%d values compared", values)
}
