package contract

import (
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"primegames/domain/games"
)

// mergedContract is openapi.yaml merged with the kinds of game the service hosts.
func mergedContract(t testing.TB) *openapi3.T {
	t.Helper()
	text, err := ForKinds(games.All().Kinds())
	if err != nil {
		t.Fatal(err)
	}
	spec, err := Load(text)
	if err != nil {
		t.Fatal(err)
	}
	return spec
}

func actionSchema(t testing.TB) *openapi3.Schema {
	t.Helper()
	return mergedContract(t).Components.Schemas["Action"].Value
}

// worstMove is the costliest action body bodyGate lets through: as many steps as 1,000 values
// allow, each of which every step schema is tried on, all good but the last.
func worstMove() []byte {
	const steps = 249 // 4 values a step, and the object, its type and its steps array
	var b strings.Builder
	b.WriteString(`{"type":"move","steps":[`)
	for i := range steps {
		if i > 0 {
			b.WriteByte(',')
		}
		op := "add"
		if i == steps-1 {
			op = "plus"
		}
		b.WriteString(`{"die":3,"pawn":0,"op":"` + op + `"}`)
	}
	b.WriteString(`]}`)
	return []byte(b.String())
}

// The worst body the deep-JSON guard admits is explained within the visit budget, and a walk
// that runs out of budget still ends, with nothing or the deepest mismatch found so far.
func TestFindMismatchIsBounded(t *testing.T) {
	t.Parallel()
	schema := actionSchema(t)
	body := worstMove()
	w := &mismatchWalk{budget: mismatchBudget}
	m := w.checkFromBody(t, schema, body)
	if m == nil || m.Pointer != "/steps/248/op" {
		t.Fatalf("worst move: %+v, want the last step's op", m)
	}
	used := mismatchBudget - w.budget
	t.Logf("the worst move used %d of %d visits", used, mismatchBudget)
	if used > mismatchBudget {
		t.Errorf("used %d visits, more than the budget of %d", used, mismatchBudget)
	}
	small := &mismatchWalk{budget: 100}
	if m := small.checkFromBody(t, schema, body); m != nil && m.Pointer == "/steps/248/op" {
		t.Errorf("a budget of 100 visits reached the last step: %+v", m)
	}
}

func (w *mismatchWalk) checkFromBody(t testing.TB, schema *openapi3.Schema, body []byte) *mismatch {
	t.Helper()
	v, err := decodeForMismatch(body)
	if err != nil {
		t.Fatal(err)
	}
	return w.check(schema, v, nil)
}

func BenchmarkFindMismatchWorstMove(b *testing.B) {
	schema := actionSchema(b)
	body := worstMove()
	for b.Loop() {
		if findMismatch(schema, body) == nil {
			b.Fatal("no mismatch")
		}
	}
}
