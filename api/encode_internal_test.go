package api

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"primegames/api/openapi"
)

// The responses of the hot paths are encoded through mirrors, not the generated map-and-sort
// MarshalJSON; otherwise verifyEncodings, which every api test runs with, would check nothing.
func TestResponseTypesAreMirrored(t *testing.T) {
	t.Parallel()
	for _, v := range []any{
		openapi.Game{}, &openapi.Game{}, openapi.ActionResult{}, openapi.LegalActions{}, openapi.HistoryEntry{},
		openapi.HistoryPage{}, openapi.Scores{}, openapi.GameEvent{}, openapi.CreatedGame{}, openapi.JoinedGame{},
	} {
		if reflect.TypeOf(mirrorOf(v)) == reflect.TypeOf(v) {
			t.Errorf("%T is encoded by its generated MarshalJSON", v)
		}
	}
	if got := mirrorOf(openapi.Seat{}); reflect.TypeOf(got) != reflect.TypeFor[openapi.Seat]() {
		t.Errorf("a type holding no oneOf type is mirrored as %T", got)
	}
}

// The generated encoding's corners: keys in byte order, a nil slice left out where the generated
// code checks for nil and written as null where it does not, an empty slice kept, raw JSON with
// spaces and HTML characters compacted and escaped, nested oneOf types, indentation (?pretty).
func TestMirrorEncodingIsTheGeneratedEncoding(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 12, 1, 19, 0, 0, 123, time.UTC)
	detail := "no <moves> & \u2028 left"
	legal := &openapi.LegalActions{
		Actions: json.RawMessage(` [ {"kind" : "roll"} ] `), Detail: &detail, Game: "prime-climb", Seat: 1,
		ToAct: []int{}, Version: 7,
	}
	games := []openapi.Game{
		{},
		{
			CreatedAt: at, FinishedAt: &at, Game: "primed", Id: uuid.New(), LegalActions: legal,
			Options: json.RawMessage(`{"b": 1, "a": "<&>"}`), Rematch: ptr(uuid.New()), SeatCount: 2,
			Seats: []openapi.Seat{{Seat: 0, Name: "Zoë <script>", JoinedAt: at, Bot: ptr(openapi.BotLevel("easy"))}},
			State: json.RawMessage("{\"z\":[1, 2],\n \"a\":null}"), Status: "finished",
			Turn: &openapi.Turn{Phase: "roll", ToAct: nil}, UpdatedAt: at, Version: 12, Winners: []int{},
			You: openapi.Caller{Creator: true, Seat: ptr(0)},
		},
	}
	entries := []openapi.HistoryEntry{{}, {
		Action: json.RawMessage(`{"kind":"move"}`), Bot: ptr(openapi.BotLevel("hard")), CreatedAt: at, Game: "prime-climb",
		Outcome: json.RawMessage(`{"x" : "&"}`), Random: ptr([]int{}), Seat: ptr(1), Seq: 3,
	}}
	values := []any{
		legal, *legal, openapi.LegalActions{},
		openapi.Scores{}, openapi.Scores{Game: "primed", Scores: json.RawMessage(`[1]`), Status: "active", Winners: []int{0}},
		openapi.HistoryPage{Items: entries}, openapi.HistoryPage{},
		openapi.GameEvent{Entry: entries[1], Status: "active"},
		map[string]openapi.Game{"a": games[1]}, []*openapi.Game{nil, &games[1]},
	}
	for _, g := range games {
		values = append(values, g, openapi.ActionResult{Game: g, Entry: entries[1]}, openapi.JoinedGame{Game: g})
	}
	for _, e := range entries {
		values = append(values, e)
	}
	for _, v := range values {
		for _, indent := range []string{"", "  "} {
			var generated, mirrored bytes.Buffer
			for buf, value := range map[*bytes.Buffer]any{&generated: v, &mirrored: mirrorOf(v)} {
				enc := json.NewEncoder(buf)
				enc.SetIndent("", indent)
				if err := enc.Encode(value); err != nil {
					t.Fatal(err)
				}
			}
			if !bytes.Equal(generated.Bytes(), mirrored.Bytes()) {
				t.Errorf("%T: mirror wrote\n%s\ngenerated\n%s", v, mirrored.Bytes(), generated.Bytes())
			}
		}
	}
}

// go test ./api -run '^$' -bench EncodeGame -benchmem
func BenchmarkEncodeGame(b *testing.B) {
	at := time.Now()
	g := openapi.Game{
		CreatedAt: at, Game: "prime-climb", Id: uuid.New(), Options: json.RawMessage(`{"prime_cards":true}`),
		Seats: []openapi.Seat{{Name: "A", JoinedAt: at}, {Seat: 1, Name: "B", JoinedAt: at}}, SeatCount: 2,
		State: json.RawMessage(`{"board":[` + strings.Repeat(`{"pawns":[[1,2],[3,4]],"cards":[]},`, 30) + `{}]}`), Status: "active",
		LegalActions: &openapi.LegalActions{Actions: json.RawMessage(`[{"kind":"roll"}]`), Game: "prime-climb", ToAct: []int{0}},
		Turn:         &openapi.Turn{Phase: "roll", ToAct: []int{0}}, UpdatedAt: at, Winners: []int{}, You: openapi.Caller{Seat: ptr(0)},
	}
	for name, v := range map[string]func() any{"generated": func() any { return g }, "mirror": func() any { return mirrorOf(g) }} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				if _, err := json.Marshal(v()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// omitzero asks a type with an IsZero method whether it is zero; a oneOf type whose generated code
// leaves such a field out only when nil (a *time.Time) cannot be mirrored with it.
func TestNoMirrorWhereOmitzeroWouldAskIsZero(t *testing.T) {
	t.Parallel()
	if !hasIsZero(reflect.TypeFor[*time.Time]()) || hasIsZero(reflect.TypeFor[*uuid.UUID]()) || hasIsZero(reflect.TypeFor[[]int]()) {
		t.Fatal("hasIsZero is wrong")
	}
	for _, v := range []any{openapi.Game{}, openapi.HistoryEntry{}, openapi.LegalActions{}, openapi.Scores{}} {
		m := mirrorFor(reflect.TypeOf(v))
		if m == nil {
			t.Fatalf("%T is not mirrored", v)
		}
		for i := range m.typ.NumField() {
			if f := m.typ.Field(i); strings.Contains(string(f.Tag), "omitzero") && hasIsZero(f.Type) {
				t.Errorf("%T.%s is omitzero and has IsZero", v, f.Name)
			}
		}
	}
}
