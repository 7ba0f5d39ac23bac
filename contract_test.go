package primegames_test

import (
	"context"
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
	if err := spec.Validate(context.Background()); err != nil {
		t.Fatalf("the merged contract is not valid: %v", err)
	}
	if enum := spec.Components.Schemas["GameKind"].Value.Enum; len(enum) != 3 || enum[2] != "dice-race" {
		t.Errorf("GameKind enum = %v, want the service's kinds and dice-race", enum)
	}
	refs := func(union string) (out []string) {
		s := spec.Components.Schemas[union].Value
		for _, r := range append(s.AnyOf, s.OneOf...) {
			out = append(out, strings.TrimPrefix(r.Ref, "#/components/schemas/"))
		}
		return out
	}
	if got := refs("GameView"); len(got) != 3 || got[2] != "DiceRaceView" {
		t.Errorf("GameView = oneOf %v, want every kind's view", got)
	}
	if got := spec.Components.Schemas["GameView"].Value.Discriminator.Mapping["dice-race"].Ref; got != "#/components/schemas/DiceRaceView" {
		t.Errorf("GameView maps dice-race to %q, want its view", got)
	}
	// Every object with kind-dependent fields is told apart by its game, the third kind's included.
	for _, base := range []string{"Game", "HistoryEntry", "LegalActions", "Scores"} {
		if got := refs(base + "OfKind"); len(got) != 3 || got[2] != base+"OfDiceRace" {
			t.Errorf("%sOfKind = oneOf %v, want a part per kind", base, got)
		}
		if got := spec.Components.Schemas[base+"OfKind"].Value.Discriminator.Mapping["dice-race"].Ref; got != "#/components/schemas/"+base+"OfDiceRace" {
			t.Errorf("%sOfKind maps dice-race to %q", base, got)
		}
		if game := spec.Components.Schemas[base+"OfDiceRace"].Value.Properties["game"].Value; len(game.Enum) != 1 || game.Enum[0] != "dice-race" {
			t.Errorf("%sOfDiceRace.game = %v, want the kind's name alone", base, game.Enum)
		}
	}
	if got := refs("GameBoard"); len(got) != 1 || got[0] != "PrimeClimbBoard" {
		t.Errorf("GameBoard = anyOf %v, want only the kinds with a board", got)
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
