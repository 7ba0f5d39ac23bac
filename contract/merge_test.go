package contract_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"primegames"
	"primegames/contract"
	"primegames/domain"
	"primegames/domain/games"
)

// openapi.yaml carries exactly the schemas of the service's game kinds and the unions over them, as
// `go generate ./api/openapi` merges them.
func TestOpenAPICarriesTheKindsSchemas(t *testing.T) {
	merged, err := contract.ForKinds(games.All().Kinds())
	if err != nil {
		t.Fatal(err)
	}
	if string(merged) != string(primegames.OpenAPI) {
		t.Error("openapi.yaml differs from the schemas of the kinds in domain/games; run go generate ./api/openapi")
	}
}

func TestMergeNamesEveryKindInTheUnions(t *testing.T) {
	extra := fakeKind("dice-race", rolesOf("DiceRace", "Options", "Action", "View", "Outcome", "LegalActions", "Scores"))
	merged, err := contract.ForKinds(append(games.All().Kinds(), extra))
	if err != nil {
		t.Fatal(err)
	}
	spec, err := openapi3.NewLoader().LoadFromData(merged)
	if err != nil {
		t.Fatal(err)
	}
	if err := spec.Validate(context.Background(), openapi3.DisableExamplesValidation()); err != nil {
		t.Fatalf("the merged contract is not valid: %v", err)
	}
	if enum := spec.Components.Schemas["GameKind"].Value.Enum; len(enum) != 3 || enum[2] != "dice-race" {
		t.Errorf("GameKind enum = %v, want the service's kinds and dice-race", enum)
	}
	refs := func(union string) (out []string) {
		s := spec.Components.Schemas[union].Value
		// A union of one kind is an allOf of one, which linters prefer to an anyOf of one.
		for _, r := range append(append(s.AnyOf, s.OneOf...), s.AllOf...) {
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
	// Every object with kind-dependent fields is oneOf a schema per kind told apart by its game, the
	// third kind's included, each the fields every kind has and the kind's own.
	for _, base := range []string{"Game", "HistoryEntry", "LegalActions", "Scores"} {
		if got := refs(base); len(got) != 3 || got[2] != base+"OfDiceRace" {
			t.Errorf("%s = oneOf %v, want a schema per kind", base, got)
		}
		if got := spec.Components.Schemas[base].Value.Discriminator.Mapping["dice-race"].Ref; got != "#/components/schemas/"+base+"OfDiceRace" {
			t.Errorf("%s maps dice-race to %q", base, got)
		}
		variant := spec.Components.Schemas[base+"OfDiceRace"].Value
		if len(variant.AllOf) != 2 || variant.AllOf[0].Ref != "#/components/schemas/"+base+"Base" {
			t.Fatalf("%sOfDiceRace = allOf %v, want %sBase and the kind's fields", base, variant.AllOf, base)
		}
		if game := variant.AllOf[1].Value.Properties["game"].Value; len(game.Enum) != 1 || game.Enum[0] != "dice-race" {
			t.Errorf("%sOfDiceRace.game = %v, want the kind's name alone", base, game.Enum)
		}
	}
	if got := refs("GameBoard"); len(got) != 1 || got[0] != "PrimeClimbBoard" {
		t.Errorf("GameBoard = %v, want only the kinds with a board", got)
	}
}

// Every kind's options take the options the service shares (a computer player's delay, hints),
// from one definition: a kind's schemas.yaml does not repeat them, whether its options declare
// properties of their own or none.
func TestMergeGivesEveryKindTheSharedOptions(t *testing.T) {
	withOwn := strings.Replace(rolesOf("DiceRace", "Options", "Action", "View", "Outcome", "LegalActions", "Scores"),
		"    DiceRaceOptions:\n      type: object\n",
		"    DiceRaceOptions:\n      type: object\n      additionalProperties: false\n      properties:\n        laps: {type: integer}\n      example: {laps: 2}\n", 1)
	bare := rolesOf("DiceRace", "Options", "Action", "View", "Outcome", "LegalActions", "Scores")
	for name, schemas := range map[string]string{"own options": withOwn, "no options": bare} {
		t.Run(name, func(t *testing.T) {
			merged, err := contract.ForKinds(append(games.All().Kinds(), fakeKind("dice-race", schemas)))
			if err != nil {
				t.Fatal(err)
			}
			spec, err := openapi3.NewLoader().LoadFromData(merged)
			if err != nil {
				t.Fatal(err)
			}
			if err := spec.Validate(context.Background(), openapi3.DisableExamplesValidation()); err != nil {
				t.Fatalf("the merged contract is not valid: %v", err)
			}
			for _, options := range []string{"PrimeClimbOptions", "PrimedOptions", "DiceRaceOptions"} {
				props := spec.Components.Schemas[options].Value.Properties
				for property, schema := range map[string]string{"bot_delay_ms": "BotDelayOption", "hints": "HintsOption"} {
					if p := props[property]; p == nil || p.Ref != "#/components/schemas/"+schema {
						t.Errorf("%s.%s = %+v, want a reference to %s", options, property, p, schema)
					}
				}
			}
			if name == "own options" && spec.Components.Schemas["DiceRaceOptions"].Value.Properties["laps"] == nil {
				t.Error("the kind's own option is lost")
			}
			// The options a game has, as the server returns them: its kind's own and the shared ones
			// every game has; a turn clock only some games have.
			want := []string{"bot_delay_ms", "hints"}
			if name == "own options" {
				want = []string{"laps", "bot_delay_ms", "hints"}
			}
			if got := spec.Components.Schemas["DiceRaceSettings"].Value.Required; !slices.Equal(got, want) {
				t.Errorf("DiceRaceSettings requires %v, want %v", got, want)
			}
			if delay := spec.Components.Schemas["BotDelayOption"].Value; *delay.Max != 60000 || *delay.Min != 0 {
				t.Errorf("bot_delay_ms ranges over %v..%v, want 0..60000", *delay.Min, *delay.Max)
			}
		})
	}
}

// An option with a `default` would be required in requests by generators that read a default as
// "always present" (openapi-typescript does by default), so a kind says its defaults in words.
func TestMergeRefusesAnOptionWithADefault(t *testing.T) {
	schemas := strings.Replace(rolesOf("DiceRace", "Options", "Action", "View", "Outcome", "LegalActions", "Scores"),
		"    DiceRaceOptions:\n      type: object\n",
		"    DiceRaceOptions:\n      type: object\n      properties:\n        laps: {type: integer, default: 3}\n", 1)
	if _, err := contract.ForKinds([]domain.GameKind{fakeKind("dice-race", schemas)}); err == nil || !strings.Contains(err.Error(), "default") {
		t.Errorf("merged an option with a default: %v", err)
	}
}

func TestMergeRefusesAKindWithoutOneOfItsSchemas(t *testing.T) {
	for name, kind := range map[string]domain.GameKind{
		"no scores":          fakeKind("dice-race", rolesOf("DiceRace", "Options", "Action", "View", "Outcome", "LegalActions")),
		"no board":           withBoard(fakeKind("dice-race", rolesOf("DiceRace", "Options", "Action", "View", "Outcome", "LegalActions", "Scores"))),
		"no schemas section": fakeKind("dice-race", "components: {}\n"),
	} {
		if _, err := contract.ForKinds([]domain.GameKind{kind}); err == nil {
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

// A third kind declares the facts of its own refusal codes in its schemas; the merge adds them to
// RefusalFacts and to its table of codes, next to the codes every kind shares.
func TestMergeAddsAKindsRefusalFacts(t *testing.T) {
	schemas := rolesOf("DiceRace", "Options", "Action", "View", "Outcome", "LegalActions", "Scores") +
		"    DiceRaceOvershootFacts:\n      type: object\n      x-refusal-codes: [overshoot, wrong_phase]\n"
	merged, err := contract.ForKinds(append(games.All().Kinds(), fakeKind("dice-race", schemas)))
	if err != nil {
		t.Fatal(err)
	}
	spec, err := openapi3.NewLoader().LoadFromData(merged)
	if err != nil {
		t.Fatal(err)
	}
	union := spec.Components.Schemas["RefusalFacts"].Value
	var refs []string
	for _, r := range union.AnyOf {
		refs = append(refs, strings.TrimPrefix(r.Ref, "#/components/schemas/"))
	}
	for _, want := range []string{"DiceRaceOvershootFacts", "PrimedSumFacts", "PrimeClimbIllegalStepFacts", "VersionMismatchFacts"} {
		if !slices.Contains(refs, want) {
			t.Errorf("RefusalFacts = anyOf %v, want %s among them", refs, want)
		}
	}
	for _, row := range []string{"| `overshoot` | `DiceRaceOvershootFacts` | `dice-race` |", "| `wrong_phase` | `DiceRaceOvershootFacts` | `dice-race` |",
		"| `not_prime` | `PrimedSumFacts` | `primed` |", "| `version_mismatch` | `VersionMismatchFacts` | any |"} {
		if !strings.Contains(union.Description, row) {
			t.Errorf("RefusalFacts' table has no row %q:\n%s", row, union.Description)
		}
	}
	if problem := spec.Components.Schemas["Problem"].Value.Properties["facts"]; problem == nil || problem.Ref != "#/components/schemas/RefusalFacts" {
		t.Errorf("Problem.facts = %+v, want RefusalFacts", problem)
	}
}

func TestMergeRefusesTwoFactsSchemasForOneCodeOfOneKind(t *testing.T) {
	schemas := rolesOf("DiceRace", "Options", "Action", "View", "Outcome", "LegalActions", "Scores") +
		"    DiceRaceAFacts:\n      type: object\n      x-refusal-codes: [overshoot]\n" +
		"    DiceRaceBFacts:\n      type: object\n      x-refusal-codes: [overshoot]\n"
	if _, err := contract.ForKinds([]domain.GameKind{fakeKind("dice-race", schemas)}); err == nil {
		t.Error("merged a kind that declares two schemas for the facts of one code, want an error")
	}
}

// What generators read plainly (issue 27): no 3.0 `nullable` (a 3.1 field says null among its
// types, or oneOf its schema and null), and every union of actions or of a kind's objects has a
// discriminator whose mapping names each of its branches.
func TestContractIsShapedForGenerators(t *testing.T) {
	t.Parallel()
	spec, err := contract.Load(primegames.OpenAPI)
	if err != nil {
		t.Fatal(err)
	}
	for name, ref := range spec.Components.Schemas {
		_ = ref.WalkSubtree(func(path string, s *openapi3.SchemaRef) error {
			if s.Value != nil && s.Value.Nullable {
				t.Errorf("%s%s says nullable, which 3.1 replaced with a null type", name, path)
			}
			return nil
		})
	}
	for _, union := range []string{"Game", "HistoryEntry", "LegalActions", "Scores", "PrimeClimbAction", "PrimeClimbKeeperAction", "PrimeClimbKeeperStep", "PrimedAction"} {
		s := spec.Components.Schemas[union].Value
		if s.Discriminator == nil {
			t.Errorf("%s has no discriminator", union)
			continue
		}
		mapped := map[string]bool{}
		for _, ref := range s.Discriminator.Mapping {
			mapped[ref.Ref] = true
		}
		for _, branch := range s.OneOf {
			if !mapped[branch.Ref] {
				t.Errorf("%s's discriminator maps nothing to %s", union, branch.Ref)
			}
		}
	}
	// Answers carry every option; requests may leave any out, so no option schema has a default.
	for _, name := range []string{"PrimeClimbOptions", "PrimedOptions", "BotDelayOption", "HintsOption"} {
		_ = spec.Components.Schemas[name].WalkSubtree(func(path string, s *openapi3.SchemaRef) error {
			if s.Value != nil && s.Value.Default != nil {
				t.Errorf("%s%s has a default", name, path)
			}
			return nil
		})
	}
	if got := spec.Components.Schemas["PrimedSettings"].Value.Required; !slices.Contains(got, "rounds") || !slices.Contains(got, "hints") {
		t.Errorf("PrimedSettings requires %v, want every option a game always has", got)
	}
}

func TestLoadContractRefusesKeywordsItsValidatorIgnores(t *testing.T) {
	t.Parallel()
	for keyword, schema := range map[string]string{
		"const": "{type: string, const: x}",
		"if":    "{type: object, if: {required: [a]}, then: {required: [b]}}",
	} {
		doc := "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n    X: " + schema + "\n"
		if _, err := contract.Load([]byte(doc)); err == nil || !strings.Contains(err.Error(), "keyword") {
			t.Errorf("%s: loaded, want a refusal: %v", keyword, err)
		}
	}
}

// LoadContract leaves examples out of its validation (they cost seconds as 3.1), and so do the
// merge tests (the merge adds no example); they are checked here, once, as 3.1 has them.
func TestContractExamplesMatchTheirSchemas(t *testing.T) {
	t.Parallel()
	spec, err := openapi3.NewLoader().LoadFromData(primegames.OpenAPI)
	if err != nil {
		t.Fatal(err)
	}
	if err := spec.Validate(context.Background()); err != nil {
		t.Fatalf("openapi.yaml: %v", err)
	}
}
