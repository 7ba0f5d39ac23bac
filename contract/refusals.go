package contract

import (
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// A refusal's facts are declared by schemas that name the codes they serve in x-refusal-codes: the
// contract's own (for the application's refusals and the codes every kind shares) and each kind's
// (its rules' refusals). The merge writes RefusalFacts, the union of them all, with the table from
// code to schema that a client needs to read a problem's facts.

// factsSchema is one schema declared for the facts of some refusal codes.
type factsSchema struct {
	name  string
	kind  string // "" for the contract's own
	codes []string
}

// factsSchemas lists the schemas of one components/schemas document that declare x-refusal-codes.
func factsSchemas(doc []byte, kind string) ([]factsSchema, error) {
	var parsed struct {
		Components struct {
			Schemas map[string]struct {
				Codes []string `yaml:"x-refusal-codes"`
			} `yaml:"schemas"`
		} `yaml:"components"`
	}
	if err := yaml.Unmarshal(doc, &parsed); err != nil {
		return nil, fmt.Errorf("reading the refusal facts of %q: %w", kindLabel(kind), err)
	}
	var out []factsSchema
	for name, s := range parsed.Components.Schemas {
		if len(s.Codes) > 0 {
			out = append(out, factsSchema{name: name, kind: kind, codes: s.Codes})
		}
	}
	slices.SortFunc(out, func(a, b factsSchema) int { return strings.Compare(a.name, b.name) })
	return out, nil
}

func kindLabel(kind string) string {
	if kind == "" {
		return "the contract"
	}
	return kind
}

// refusalFactsPart writes the RefusalFacts union over schemas, described by its code table.
func refusalFactsPart(schemas []factsSchema) (string, error) {
	type row struct{ code, schema, kind string }
	var rows []row
	seen := map[string]string{} // code and kind → schema
	for _, s := range schemas {
		for _, code := range s.codes {
			key := code + " " + s.kind
			if other, dup := seen[key]; dup {
				return "", fmt.Errorf("%s declares both %s and %s for the facts of %q", kindLabel(s.kind), other, s.name, code)
			}
			seen[key] = s.name
			rows = append(rows, row{code, s.name, s.kind})
		}
	}
	slices.SortFunc(rows, func(a, b row) int {
		if c := strings.Compare(a.code, b.code); c != 0 {
			return c
		}
		return strings.Compare(a.kind, b.kind)
	})
	var b strings.Builder
	b.WriteString("    RefusalFacts:\n")
	b.WriteString("      description: |\n")
	b.WriteString("        The numbers behind a refusal, for programs (a dashboard, a translation): the `facts` of a\n")
	b.WriteString("        problem document and of a stored attempt. Their shape is set by the problem's `code` and, for\n")
	b.WriteString("        a game's rules, the game's kind (every schema lists its codes in `x-refusal-codes`):\n\n")
	b.WriteString("        | code | facts | game |\n        |---|---|---|\n")
	for _, r := range rows {
		game := "any"
		if r.kind != "" {
			game = "`" + r.kind + "`"
		}
		fmt.Fprintf(&b, "        | `%s` | `%s` | %s |\n", r.code, r.schema, game)
	}
	b.WriteString("      x-go-type: json.RawMessage\n")
	if len(schemas) == 0 {
		b.WriteString("      type: object\n")
		return b.String(), nil
	}
	b.WriteString("      anyOf:\n")
	for _, s := range schemas {
		fmt.Fprintf(&b, "        - $ref: \"#/components/schemas/%s\"\n", s.name)
	}
	return b.String(), nil
}
