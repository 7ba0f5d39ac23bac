package primed

import (
	"context"
	_ "embed"
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"primegames/domain"
)

//go:embed schemas.yaml
var schemasYAML []byte

// loadSchemas wraps the fragment into a minimal OpenAPI document, as the service merges it.
func loadSchemas(t *testing.T) openapi3.Schemas {
	t.Helper()
	doc := append([]byte("openapi: 3.1.0\ninfo: {title: primed, version: \"1\"}\npaths: {}\n"), schemasYAML...)
	spec, err := openapi3.NewLoader().LoadFromData(doc)
	if err != nil {
		t.Fatalf("schemas.yaml does not load: %v", err)
	}
	if err := spec.Validate(context.Background()); err != nil {
		t.Fatalf("schemas.yaml is not valid OpenAPI 3.1 (examples included): %v", err)
	}
	return spec.Components.Schemas
}

func conforms(t *testing.T, schemas openapi3.Schemas, name string, v any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var decoded any
	if err := json.Unmarshal(b, &decoded); err != nil {
		t.Fatal(err)
	}
	ref, ok := schemas[name]
	if !ok {
		t.Fatalf("no schema %s", name)
	}
	// Without details the check is several times faster; a failure is checked again to explain it.
	if ref.Value.VisitJSON(decoded, openapi3.DisableSchemaErrorDetails()) != nil {
		err := ref.Value.VisitJSON(decoded)
		t.Fatalf("%s does not match its schema: %v\n%s", name, err, b)
	}
}

// Every shape the engine marshals, for every kind of viewer, matches schemas.yaml.
func TestSchemasMatchMarshalledJSON(t *testing.T) {
	schemas := loadSchemas(t)
	conforms(t, schemas, "PrimedOptions", DefaultOptions())
	for _, a := range []Action{{Type: ActionPlay, Cards: []int{1, 17}}, {Type: ActionDraw}, {Type: ActionPass}} {
		conforms(t, schemas, "PrimedAction", a)
	}
	for _, o := range allVariants(2) {
		seats := o.Seats().Max
		s, out, err := Start(o.Canonical(), seats, domain.SeededRand(5, 0))
		if err != nil {
			t.Fatal(err)
		}
		viewers := []domain.Viewer{domain.Public, domain.Full}
		for seat := range seats {
			viewers = append(viewers, domain.Player(seat))
		}
		pick := rand.New(rand.NewPCG(5, 5))
		for i := 1; ; i++ {
			for _, v := range viewers {
				conforms(t, schemas, "PrimedView", s.View(v))
				conforms(t, schemas, "PrimedOutcome", out.Redact(v))
			}
			conforms(t, schemas, "PrimedOutcome", out)
			conforms(t, schemas, "PrimedScores", s.Scores())
			conforms(t, schemas, "PrimedOptions", s.Options())
			for seat := range seats {
				conforms(t, schemas, "PrimedLegalActions", s.LegalActions(seat))
			}
			if s.Status().Finished {
				break
			}
			next, o2, err := s.Apply(s.Turn(), bot(s, pick), domain.SeededRand(5, int64(i)))
			if err != nil {
				t.Fatal(err)
			}
			s, out = next.(*State), o2.(*Outcome)
		}
	}
	// The rarer parts: a reshuffle, a PR-6 pass and a blocked round.
	c := crafted(t, primes, 1, [][]int{{1}, noPlayOn13}, []int{13}, nil, fillPrimed)
	_, out := apply(t, c, 1, DrawAction(), domain.SeededRand(3, 1))
	conforms(t, schemas, "PrimedOutcome", out)
	b, _ := apply(t, blockable(t, 1), 1, DrawAction(), noRand{t})
	b, out = apply(t, b, 0, DrawAction(), noRand{t})
	for _, v := range []domain.Viewer{domain.Public, domain.Full, domain.Player(0)} {
		conforms(t, schemas, "PrimedOutcome", out.Redact(v))
		conforms(t, schemas, "PrimedView", b.View(v))
	}
}

// The schemas are strict enough to catch a wrong shape.
func TestSchemasRejectWrongShapes(t *testing.T) {
	schemas := loadSchemas(t)
	for name, raw := range map[string]string{
		"PrimedAction":  `{"type":"play"}`,
		"PrimedOptions": `{"deck":"tarot"}`,
		"PrimedPlayed":  `{"seat":1,"cards":[4],"total":17,"equation":"x"}`,
		"PrimedDrew":    `{"seat":1,"card":null,"can_play":true}`,
		"PrimedScores":  `{"rounds":[],"totals":[],"finished":false,"winners":[],"extra":1}`,
	} {
		var v any
		if err := json.Unmarshal([]byte(raw), &v); err != nil {
			t.Fatal(err)
		}
		if schemas[name].Value.VisitJSON(v) == nil {
			t.Errorf("%s accepts %s", name, raw)
		}
	}
}
