package primegames

import (
	"bytes"
	"fmt"
	"strings"

	"primegames/domain"
)

// The part of openapi.yaml between these markers is made from the game kinds: each kind's own
// schemas, then the schemas that stand for any kind (GameKind, GameOptions, Action, GameView, …),
// to which the rest of the contract refers. `go generate ./api/openapi` writes the service's kinds
// there; a server hosting other kinds (a test's) merges its own at start.
const (
	kindsBegin = "    # ENGINE-SCHEMAS-BEGIN"
	kindsEnd   = "    # ENGINE-SCHEMAS-END"
)

// roleUnions are the schemas that stand for one role of every kind: anyOf the kinds' <Prefix><Role>.
var roleUnions = []struct {
	name, role, description string
	optional                bool // only the kinds that have it (a board)
}{
	{"GameOptions", "Options", "The options of one kind of game.", false},
	{"Action", "Action", "One action of the game's kind.", false},
	{"GameView", "View", "A game as one caller may see it.", false},
	{"GameOutcome", "Outcome", "What one action (or the start) did.", false},
	{"GameLegalActions", "LegalActions", "What one seat may do now.", false},
	{"GameScores", "Scores", "The standing of every seat.", false},
	{"GameBoard", "Board", "Reference data about one kind of game.", true},
}

// Contract is openapi.yaml as a server hosting kinds serves it: for the service's own kinds
// (domain/games.All), openapi.yaml itself.
func Contract(kinds []domain.GameKind) ([]byte, error) { return MergeKinds(OpenAPI, kinds) }

// MergeKinds returns the contract base with its generated part made anew from kinds.
func MergeKinds(base []byte, kinds []domain.GameKind) ([]byte, error) {
	begin := bytes.Index(base, []byte(kindsBegin))
	end := bytes.Index(base, []byte(kindsEnd))
	if begin < 0 || end < begin {
		return nil, fmt.Errorf("the contract has no %q … %q part", strings.TrimSpace(kindsBegin), strings.TrimSpace(kindsEnd))
	}
	end += len(kindsEnd)
	if nl := bytes.IndexByte(base[end:], '\n'); nl >= 0 {
		end += nl + 1
	}
	own, err := factsSchemas(append(append([]byte(nil), base[:begin]...), base[end:]...), "")
	if err != nil {
		return nil, err
	}
	block, err := kindsPart(kinds, own)
	if err != nil {
		return nil, err
	}
	out := append([]byte(nil), base[:begin]...)
	out = append(out, block...)
	return append(out, base[end:]...), nil
}

func kindsPart(kinds []domain.GameKind, facts []factsSchema) (string, error) {
	if len(kinds) == 0 {
		return "", fmt.Errorf("a contract needs at least one game kind")
	}
	var b strings.Builder
	b.WriteString(kindsBegin + " (made by `go generate ./api/openapi` from the kinds in domain/games: edit their schemas.yaml)\n")
	defined := map[string]bool{}
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = k.Name()
		_, schemas, ok := strings.Cut(string(k.Schemas), "\n  schemas:\n")
		if !ok {
			return "", fmt.Errorf("the schemas of %q have no components/schemas", k.Name())
		}
		fmt.Fprintf(&b, "    # %s\n%s", k.Name(), strings.TrimRight(schemas, "\n")+"\n")
		kindFacts, err := factsSchemas(k.Schemas, k.Name())
		if err != nil {
			return "", err
		}
		facts = append(facts, kindFacts...)
		for _, u := range roleUnions {
			name := k.SchemaPrefix() + u.role
			defined[name] = strings.Contains("\n"+schemas, "\n    "+name+":")
			if !defined[name] && (!u.optional || k.Board != nil) {
				return "", fmt.Errorf("the schemas of %q do not define %s", k.Name(), name)
			}
		}
	}
	b.WriteString("    # any kind\n")
	fmt.Fprintf(&b, "    GameKind:\n      type: string\n      description: A kind of game.\n      enum: [%s]\n", strings.Join(names, ", "))
	for _, u := range roleUnions {
		fmt.Fprintf(&b, "    %s:\n      description: %s\n      x-go-type: json.RawMessage\n", u.name, u.description)
		var refs []string
		for _, k := range kinds {
			if name := k.SchemaPrefix() + u.role; defined[name] && (!u.optional || k.Board != nil) {
				refs = append(refs, "        - $ref: \"#/components/schemas/"+name+"\"\n")
			}
		}
		if len(refs) == 0 {
			b.WriteString("      type: object\n")
			continue
		}
		composition := "anyOf" // of a single schema, linters ask for allOf
		if len(refs) == 1 {
			composition = "allOf"
		}
		b.WriteString("      " + composition + ":\n" + strings.Join(refs, ""))
	}
	refusals, err := refusalFactsPart(facts)
	if err != nil {
		return "", err
	}
	b.WriteString(refusals)
	b.WriteString(kindsEnd + "\n")
	return b.String(), nil
}
