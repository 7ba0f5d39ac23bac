package primegames_test

import (
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"primegames"
	"primegames/domain"
	"primegames/domain/games"
)

// openapi.yaml carries exactly the schemas of the service's game kinds and the unions over them, as
// `go generate ./api/openapi` merges them.
func TestOpenAPICarriesTheKindsSchemas(t *testing.T) {
	merged, err := primegames.Contract(games.All().Kinds())
	if err != nil {
		t.Fatal(err)
	}
	if string(merged) != string(primegames.OpenAPI) {
		t.Error("openapi.yaml differs from the schemas of the kinds in domain/games; run go generate ./api/openapi")
	}
}

func TestMergeNamesEveryKindInTheUnions(t *testing.T) {
	extra := fakeKind("dice-race", rolesOf("DiceRace", "Options", "Action", "View", "Outcome", "LegalActions", "Scores"))
	merged, err := primegames.Contract(append(games.All().Kinds(), extra))
	if err != nil {
		t.Fatal(err)
	}
	spec, err := openapi3.NewLoader().LoadFromData(merged)
	if err != nil {
		t.Fatal(err)
	}
	if enum := spec.Components.Schemas["GameKind"].Value.Enum; len(enum) != 3 || enum[2] != "dice-race" {
		t.Errorf("GameKind enum = %v, want the service's kinds and dice-race", enum)
	}
	refs := func(union string) (out []string) {
		s := spec.Components.Schemas[union].Value
		// A union of one kind is an allOf of one, which linters prefer to an anyOf of one.
		for _, r := range append(s.AnyOf, s.AllOf...) {
			out = append(out, strings.TrimPrefix(r.Ref, "#/components/schemas/"))
		}
		return out
	}
	if got := refs("GameView"); len(got) != 3 || got[2] != "DiceRaceView" {
		t.Errorf("GameView = anyOf %v, want every kind's view", got)
	}
	if got := refs("GameBoard"); len(got) != 1 || got[0] != "PrimeClimbBoard" {
		t.Errorf("GameBoard = %v, want only the kinds with a board", got)
	}
}

func TestMergeRefusesAKindWithoutOneOfItsSchemas(t *testing.T) {
	for name, kind := range map[string]domain.GameKind{
		"no scores":          fakeKind("dice-race", rolesOf("DiceRace", "Options", "Action", "View", "Outcome", "LegalActions")),
		"no board":           withBoard(fakeKind("dice-race", rolesOf("DiceRace", "Options", "Action", "View", "Outcome", "LegalActions", "Scores"))),
		"no schemas section": fakeKind("dice-race", "components: {}\n"),
	} {
		if _, err := primegames.Contract([]domain.GameKind{kind}); err == nil {
			t.Errorf("%s: merged, want an error", name)
		}
	}
}

func rolesOf(prefix string, roles ...string) string {
	s := "components:\n  schemas:\n"
	for _, role := range roles {
		s += "    " + prefix + role + ":\n      type: object\n"
	}
	return s
}

type namedRules struct {
	domain.Rules
	name string
}

func (r namedRules) Name() string { return r.name }

func fakeKind(name, schemas string) domain.GameKind {
	return domain.GameKind{Rules: namedRules{name: name}, Schemas: []byte(schemas)}
}

func withBoard(k domain.GameKind) domain.GameKind {
	k.Board = struct{}{}
	return k
}
