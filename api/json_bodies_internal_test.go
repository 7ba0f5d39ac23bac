package api

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"primegames/api/openapi"
	"primegames/domain/games"
	"primegames/play"
	"primegames/play/i18n"
	"primegames/repo/repotest"
)

// The bodies written by json_bodies.go are byte for byte what echo's serializer (encoding/json)
// writes, for real games of every kind seen by every caller, with names that encoding/json escapes.
func TestBodiesEncodeAsEncodingJSON(t *testing.T) {
	t.Parallel()
	callers := []play.Caller{{Seat: 0}, {Seat: 1, Creator: true}, play.AnonymousCaller, {Seat: -1, Teacher: true}}
	bodies, finished := 0, 0
	for _, kind := range []string{"prime-climb", "primed"} {
		// The games of TestEngineJSONAsEncodingJSON's first seed, played once for both.
		moves := map[string]int{"prime-climb": 400, "primed": 100_000}[kind] // Primed's game to its end, so that a finished game is compared
		for _, p := range playRecorded(t, kind, []string{"Zoë <&>", `Ben "B" \ 1`}, 0, moves) {
			for _, legal := range []bool{false, true} {
				checkSameEncoding(t, p.actionResult(t, legal))
				bodies++
			}
			for _, caller := range callers {
				game, err := gameBody(p.acted.Game, caller)
				if err != nil {
					t.Fatal(err)
				}
				if err := includeLegalActions(&game, true, p.acted.Game, caller, i18n.English); err != nil {
					t.Fatal(err)
				}
				checkSameEncoding(t, game)
				if caller.HasSeat() {
					checkSameEncoding(t, *game.LegalActions)
				}
				bodies++
			}
			if p.acted.Game.Status.Over() {
				finished++
			}
		}
	}
	service := play.New(repotest.NewDB(t).Games().Stores(), games.All())
	lobby, err := service.Create(context.Background(), play.NewGame{Kind: "primed", OpenSeats: 3}, play.Nobody, nil)
	if err != nil {
		t.Fatal(err)
	}
	game, err := gameBody(lobby.Game, lobby.Creator)
	if err != nil {
		t.Fatal(err)
	}
	checkSameEncoding(t, game)
	if bodies < 100 || finished == 0 {
		t.Errorf("only %d bodies compared, %d of a finished game", bodies, finished)
	}
}

// Raw fields are written as encoding/json writes them however they are spaced and whatever their
// strings hold. (Unlike encoding/json, bodyWriter does not refuse a raw field that is not JSON; no
// raw field is one.)
func TestRawFieldsEncodeAsEncodingJSON(t *testing.T) {
	t.Parallel()
	raws := []string{
		`{"a":1}`, ` {"a":1}`, `{"a":1} `, "{\"a\":\n1}", `{"a" : [1, 2]}`, `{"a b":"c, d: e"}`,
		`"<b>&amp;</b>"`, `"\u003c"`, "\"\u2028\u2029\"", "\"\u2027\u202a\"", `"a\"b"`, `"a\\"`, `"a\\" `,
		`"\\\"<"`, `[]`, `null`, `1.50`, `"é ÷ −"`, "\"\xff\"",
	}
	for _, raw := range raws {
		entry := openapi.HistoryEntry{Game: "primed", Action: json.RawMessage(raw), Outcome: json.RawMessage(raw)}
		checkSameEncoding(t, entry)
		checkSameEncoding(t, openapi.LegalActions{Game: "<k>", Actions: json.RawMessage(raw)})
	}
	checkSameEncoding(t, openapi.HistoryEntry{Game: "primed"})                                          // nil: null
	checkSameEncoding(t, openapi.HistoryEntry{Game: "primed", Action: json.RawMessage{}, Outcome: nil}) // empty: refused
}

// The bodies json_bodies.go writes have the fields it knows of, in that order: a field added to one
// of them in the contract must be written there too.
func TestBodiesHaveTheFieldsWritten(t *testing.T) {
	for body, want := range map[reflect.Type][]string{
		reflect.TypeFor[openapi.Game]():         {"GameBase", "Game", "Options", "State"},
		reflect.TypeFor[openapi.HistoryEntry](): {"HistoryEntryBase", "Game", "Action", "Outcome"},
		reflect.TypeFor[openapi.LegalActions](): {"LegalActionsBase", "Game", "Actions"},
		reflect.TypeFor[openapi.ActionResult](): {"Entry", "Game"},
	} {
		var got []string
		for f := range body.Fields() {
			got = append(got, f.Name)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%v has the fields %v; json_bodies.go writes %v", body, got, want)
		}
	}
	var raws []string
	for _, t := range []reflect.Type{reflect.TypeFor[openapi.GameBase](), reflect.TypeFor[openapi.HistoryEntryBase](), reflect.TypeFor[openapi.LegalActionsBase]()} {
		for f := range t.Fields() {
			if f.Type == reflect.TypeFor[json.RawMessage]() || f.Type == reflect.TypeFor[*openapi.LegalActions]() {
				raws = append(raws, f.Name)
			}
		}
	}
	if want := []string{"LegalActions"}; !reflect.DeepEqual(raws, want) {
		t.Errorf("the bases have %v with raw JSON; json_bodies.go writes %v apart", raws, want)
	}
}

// checkSameEncoding compares what c.JSON writes of body with echo's serializer and with
// bodySerializer, and json.Marshal with marshalBody.
func checkSameEncoding(t *testing.T, body any) {
	t.Helper()
	want, wantErr := serialize(echo.DefaultJSONSerializer{}, body)
	got, err := serialize(bodySerializer{}, body)
	if (err != nil) != (wantErr != nil) || !bytes.Equal(got, want) {
		t.Fatalf("%T encodes as\n%s (%v)\nnot as encoding/json does:\n%s (%v)", body, got, err, want, wantErr)
	}
	marshalled, err := marshalBody(body)
	if wantErr == nil && (err != nil || !bytes.Equal(append(marshalled, '\n'), want)) {
		t.Fatalf("marshalBody(%T) = %s (%v), not %s", body, marshalled, err, want)
	}
}

func serialize(serializer echo.JSONSerializer, body any) ([]byte, error) {
	e := echo.New()
	e.JSONSerializer = serializer
	rec := httptest.NewRecorder()
	c := e.NewContext(httptest.NewRequest(http.MethodGet, "/", nil), rec)
	err := c.JSON(http.StatusOK, body)
	return rec.Body.Bytes(), err
}

// isCompactAndEscaped tells exactly whether encoding/json would leave raw JSON as it is, over random
// documents of strings that hold what it escapes, spaces and escapes, spaced and not.
func TestIsCompactAndEscaped(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	pieces := []string{"a", "bc", " ", "  ", `\"`, `\\`, `\n`, `\u2028`, "<", ">", "&", "\u2028", "\u2029", "\u2027", "−", "÷", "é", "\xe2", `"`}
	var value func(depth int) string
	value = func(depth int) string {
		space := func() string { return []string{"", "", "", "", " ", "\n", "\t"}[rng.IntN(7)] }
		switch n := rng.IntN(6); {
		case n == 0 && depth < 4:
			items := make([]string, rng.IntN(4))
			for i := range items {
				items[i] = space() + value(depth+1) + space()
			}
			return "[" + strings.Join(items, ",") + "]"
		case n == 1 && depth < 4:
			members := make([]string, rng.IntN(4))
			for i := range members {
				members[i] = value(5) + space() + ":" + space() + value(depth+1)
			}
			return "{" + strings.Join(members, ","+space()) + "}"
		case n == 2:
			return []string{"1", "-2.5e3", "true", "null"}[rng.IntN(4)]
		default:
			var s strings.Builder
			for range rng.IntN(12) {
				if p := pieces[rng.IntN(len(pieces))]; p != `"` {
					s.WriteString(p)
				}
			}
			return `"` + s.String() + `"`
		}
	}
	clean := 0
	for range 20000 {
		raw := value(0)
		want := false
		if compacted, err := json.Marshal(json.RawMessage(raw)); err == nil {
			want = string(compacted) == raw
		} else if !utf8.ValidString(raw) || !json.Valid([]byte(raw)) {
			continue
		}
		if got := isCompactAndEscaped([]byte(raw)); got != want {
			t.Fatalf("isCompactAndEscaped(%q) = %v, want %v", raw, got, want)
		}
		if want {
			clean++
		}
	}
	if clean < 2000 {
		t.Errorf("only %d clean documents", clean)
	}
}
