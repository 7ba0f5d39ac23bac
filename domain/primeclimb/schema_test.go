package primeclimb

import (
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"primegames/domain"
)

// loadSchemas reads schemas.yaml as the components of a minimal OpenAPI 3.1 document.
func loadSchemas(t *testing.T) openapi3.Schemas {
	t.Helper()
	fragment, err := os.ReadFile("schemas.yaml")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := openapi3.NewLoader().LoadFromData(append([]byte("openapi: 3.1.0\ninfo: {title: prime-climb, version: '1'}\npaths: {}\n"), fragment...))
	if err != nil {
		t.Fatal(err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("schemas.yaml: %v", err)
	}
	return doc.Components.Schemas
}

func validate(t *testing.T, schemas openapi3.Schemas, name string, v any) {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var generic any
	if err := json.Unmarshal(raw, &generic); err != nil {
		t.Fatal(err)
	}
	ref, ok := schemas[name]
	if !ok {
		t.Fatalf("no schema %s", name)
	}
	// Without details the check is several times faster; a failure is checked again to explain it.
	if ref.Value.VisitJSON(generic, openapi3.DisableSchemaErrorDetails()) != nil {
		err := ref.Value.VisitJSON(generic)
		t.Fatalf("%s does not match %s: %v", raw, name, err)
	}
}

// TestSchemasMatchMarshalledJSON checks every shape the service returns against schemas.yaml, over a
// few whole games.
func TestSchemasMatchMarshalledJSON(t *testing.T) {
	schemas := loadSchemas(t)
	canon, _, _ := Rules.Options(nil)
	validate(t, schemas, "PrimeClimbOptions", json.RawMessage(canon))
	validate(t, schemas, "PrimeClimbBoard", Kind.Board)
	for seed := uint64(1); seed <= 12; seed++ {
		picker := domain.SeededRand(seed, -1)
		st, out, err := Rules.Start(nil, int(seed%4)+1, domain.SeededRand(seed, 0))
		if err != nil {
			t.Fatal(err)
		}
		validate(t, schemas, "PrimeClimbOutcome", out.Redact(domain.Public))
		for seq := int64(1); ; seq++ {
			s := st.(State)
			validate(t, schemas, "PrimeClimbView", s.View(domain.Public))
			validate(t, schemas, "PrimeClimbView", s.View(domain.Full))
			validate(t, schemas, "PrimeClimbScores", s.Scores())
			if s.Status().Finished {
				break
			}
			validate(t, schemas, "PrimeClimbLegalActions", s.LegalActions(s.Turn.Seat))
			legal := s.Legal(s.Turn.Seat)
			for _, la := range legal {
				validate(t, schemas, "PrimeClimbLegalAction", la)
				validate(t, schemas, "PrimeClimbAction", la.Action)
			}
			pick := legal[Furthest(legal, picker)]
			raw, _ := json.Marshal(pick.Action)
			st, out, err = st.Apply(s.Turn.Seat, raw, domain.SeededRand(seed, seq))
			if err != nil {
				t.Fatal(err)
			}
			validate(t, schemas, "PrimeClimbOutcome", out.Redact(domain.Player(0)))
		}
	}
}

// TestSchemasMatchRareShapes covers what random games rarely reach: a pending Swap, a steal, curses.
func TestSchemasMatchRareShapes(t *testing.T) {
	schemas := loadSchemas(t)
	s := drawAt(37, Swap, [2]int{80, 5})
	s.Players[0].Pawns[1] = 20
	s.Turn.StartPawns[1] = 20
	pending, out := apply(t, s, 0, moveTo)
	validate(t, schemas, "PrimeClimbOutcome", out)
	validate(t, schemas, "PrimeClimbView", pending.View(domain.Public))
	for _, la := range pending.Legal(0) {
		validate(t, schemas, "PrimeClimbLegalAction", la)
	}
	_, out = apply(t, drawAt(37, Steal, [2]int{0, 0}).holding(1, Curse), 0, moveTo)
	validate(t, schemas, "PrimeClimbOutcome", out)
	c := game([2]int{40, 0}, [2]int{30, 0}).holding(0, Curse, SendToStart)
	for _, la := range c.Legal(0) {
		validate(t, schemas, "PrimeClimbLegalAction", la)
	}
	_, out = apply(t, c, 0, `{"type":"keeper","card":"curse","target_seat":1}`)
	validate(t, schemas, "PrimeClimbOutcome", out)
	_, out = apply(t, c, 0, `{"type":"keeper","card":"send_to_start","target_seat":1,"pawn":0}`)
	validate(t, schemas, "PrimeClimbOutcome", out)
}
