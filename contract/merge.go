// Package contract is the service's engine for openapi.yaml: it merges the game kinds' schemas and
// the refusal rows into the contract (merge.go, refusals.go), loads and parses it (load.go,
// cache.go), checks request bodies and requests against it (json.go, validate.go) and explains a
// body it refuses (mismatch.go). api uses it; it knows no handler.
package contract

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"primegames"
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

// roles are the schemas every kind defines, named <Prefix><Role>.
var roles = []struct {
	role     string
	optional bool // only the kinds that have it (a board)
}{{"Options", false}, {"Action", false}, {"View", false}, {"Outcome", false}, {"LegalActions", false}, {"Scores", false}, {"Board", true}}

// roleUnions are the schemas that stand for one role of any kind: anyOf the kinds' <Prefix><Role>, or,
// when discriminated, oneOf them told apart by their required "game" field.
var roleUnions = []struct {
	name, role, description string
	optional                bool // only the kinds that have it (a board)
	discriminated           bool // every kind's schema carries "game", its name
}{
	{"GameOptions", "Options", "The options of one kind of game.", false, false},
	// Kinds may share action types (a "roll" of two games): an action is told apart by its game's kind,
	// which the request's path names.
	{"Action", "Action", "One action of the game's kind.", false, false},
	{"GameView", "View", "A game as one caller may see it; `game` names its kind.", false, true},
	{"GameBoard", "Board", "Reference data about one kind of game.", true, false},
}

// kindParts are the objects of the contract whose fields depend on the game's kind: each, <Base>, is
// oneOf <Base>Of<Prefix> per kind, told apart by its "game" field, and each of those is allOf the
// fields every kind has (<Base>Base, in the contract's own part) and the kind's own, so that a
// generator that reads discriminators makes one type per kind, with every field.
var kindParts = []struct {
	base, description string
	props             []kindProp
}{
	{"Game", "A game as the caller may see it: the fields of `GameBase`, and the options and state of its kind, which `game` names.", []kindProp{
		{name: "options", role: "Settings", description: "The game's options, every default filled in."},
		{name: "state", role: "View", nullable: true, description: "The game's view for the caller, as its kind defines it; null in a lobby."}}},
	{"HistoryEntry", "One entry of a game's history: the fields of `HistoryEntryBase`, and an action and an outcome of the kind that `game` names.", []kindProp{
		{name: "action", role: "Action", orRef: "ServiceAction", description: "The action as sent, one of the game's kind; for the entries the service records itself, a `ServiceAction` (the start, a resignation, an abort of an idle game)."},
		{name: "outcome", role: "Outcome", orRef: "ServiceOutcome", description: "What happened, redacted for the caller while the game runs: its kind's outcome, or a `ServiceOutcome` for a resignation or an abort."}}},
	{"LegalActions", "What the caller's seat may do now: the fields of `LegalActionsBase`, and the actions of the kind that `game` names.", []kindProp{
		{name: "actions", role: "LegalActions", description: "The seat's legal actions, as its kind lists them; empty when it may not act now."}}},
	{"Scores", "The standing of every seat: the fields of `ScoresBase`, and the scores of the kind that `game` names.", []kindProp{
		{name: "scores", role: "Scores", nullable: true, description: "The standing, as the game's kind tells it; null in a lobby."}}},
}

// sharedOptions are the options every kind of game takes, which the service handles itself (a
// computer player's delay, hints): each kind's <Prefix>Options gets them as properties that refer
// to the one definition in the contract's own part, so a kind's schemas.yaml never repeats them.
var sharedOptions = []struct {
	property, schema string
	always           bool // in every game's options as the server returns them
}{
	{"bot_delay_ms", "BotDelayOption", true},
	{"hints", "HintsOption", true},
	{"turn_seconds", "TurnSecondsOption", false},
}

// kindProp is one kind-dependent field: the kind's <Prefix><role>, null where nullable, or else the
// contract's own orRef schema.
type kindProp struct {
	name, role, orRef, description string
	nullable                       bool
}

// ForKinds is openapi.yaml as a server hosting kinds serves it: for the service's own kinds
// (domain/games.All), openapi.yaml itself. It is merged once per process for each list of kinds (by
// what the merge reads of each: its name, its schemas, whether it has a board), since a process that
// builds many servers (the tests) would otherwise merge it at each: a quarter of their CPU.
func ForKinds(kinds []domain.GameKind) ([]byte, error) {
	key := sha256.New()
	for _, k := range kinds {
		sum := sha256.Sum256(k.Schemas)
		fmt.Fprintf(key, "%s\x00%x\x00%t\x00", k.Name(), sum, k.Board != nil)
	}
	v, _ := mergedForKinds.LoadOrStore(string(key.Sum(nil)), &mergedKinds{})
	m := v.(*mergedKinds)
	m.once.Do(func() { m.text, m.err = MergeKinds(primegames.OpenAPI, kinds) })
	return m.text, m.err
}

var mergedForKinds sync.Map // the hash of what the merge reads of the kinds → *mergedKinds

type mergedKinds struct {
	once sync.Once
	text []byte
	err  error
}

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
	types := map[string]string{} // the type of each kind's role schema, "" when it has none
	options := map[string]kindOptions{}
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = k.Name()
		_, schemas, ok := strings.Cut(string(k.Schemas), "\n  schemas:\n")
		if !ok {
			return "", fmt.Errorf("the schemas of %q have no components/schemas", k.Name())
		}
		schemas, own, err := withSharedOptions(schemas, k.SchemaPrefix()+"Options")
		options[k.Name()] = own
		if err != nil {
			return "", fmt.Errorf("the schemas of %q: %w", k.Name(), err)
		}
		fmt.Fprintf(&b, "    # %s\n%s", k.Name(), strings.TrimRight(schemas, "\n")+"\n")
		kindFacts, err := factsSchemas(k.Schemas, k.Name())
		if err != nil {
			return "", err
		}
		facts = append(facts, kindFacts...)
		for _, r := range roles {
			name := k.SchemaPrefix() + r.role
			typ, defined := schemaType(schemas, name)
			if !defined && (!r.optional || k.Board != nil) {
				return "", fmt.Errorf("the schemas of %q do not define %s", k.Name(), name)
			}
			if defined {
				types[name] = typ
			}
		}
	}
	b.WriteString("    # any kind\n")
	fmt.Fprintf(&b, "    GameKind:\n      type: string\n      description: A kind of game.\n      enum: [%s]\n", strings.Join(names, ", "))
	for _, u := range roleUnions {
		fmt.Fprintf(&b, "    %s:\n      description: %s\n      x-go-type: json.RawMessage\n", u.name, u.description)
		var refs, mapping []string
		for _, k := range kinds {
			name := k.SchemaPrefix() + u.role
			if _, defined := types[name]; defined && (!u.optional || k.Board != nil) {
				refs = append(refs, "        - $ref: "+schemaRef(name)+"\n")
				mapping = append(mapping, "          "+k.Name()+": "+schemaRef(name)+"\n")
			}
		}
		switch {
		case len(refs) == 0:
			b.WriteString("      type: object\n")
		case u.discriminated:
			b.WriteString("      oneOf:\n" + strings.Join(refs, "") + "      discriminator:\n        propertyName: game\n        mapping:\n" + strings.Join(mapping, ""))
		case len(refs) == 1: // of a single schema, linters ask for allOf
			b.WriteString("      allOf:\n" + strings.Join(refs, ""))
		default:
			b.WriteString("      anyOf:\n" + strings.Join(refs, ""))
		}
	}
	for _, k := range kinds {
		writeSettings(&b, k, options[k.Name()])
	}
	for _, part := range kindParts {
		var refs, mapping []string
		for _, k := range kinds {
			variant := part.base + "Of" + k.SchemaPrefix()
			refs = append(refs, "        - $ref: "+schemaRef(variant)+"\n")
			mapping = append(mapping, "          "+k.Name()+": "+schemaRef(variant)+"\n")
		}
		fmt.Fprintf(&b, "    %s:\n      description: %s\n", part.base, yamlQuoted(part.description))
		b.WriteString("      oneOf:\n" + strings.Join(refs, "") + "      discriminator:\n        propertyName: game\n        mapping:\n" + strings.Join(mapping, ""))
		for _, k := range kinds {
			writeKindPart(&b, part.base, part.props, k)
		}
	}
	refusals, err := refusalFactsPart(facts)
	if err != nil {
		return "", err
	}
	b.WriteString(refusals)
	b.WriteString(kindsEnd + "\n")
	return b.String(), nil
}

// writeKindPart writes <base>Of<Prefix>: the fields of <base>Base and those that depend on the kind,
// for kind k.
func writeKindPart(b *strings.Builder, base string, props []kindProp, k domain.GameKind) {
	required := []string{"game"}
	for _, p := range props {
		required = append(required, p.name)
	}
	fmt.Fprintf(b, "    %sOf%s:\n      description: A %s of %s.\n", base, k.SchemaPrefix(), base, k.Name())
	fmt.Fprintf(b, "      allOf:\n        - $ref: %s\n        - type: object\n", schemaRef(base+"Base"))
	fmt.Fprintf(b, "          required: [%s]\n          properties:\n", strings.Join(required, ", "))
	fmt.Fprintf(b, "            game: {type: string, enum: [%s], description: The kind of game.}\n", k.Name())
	for _, p := range props {
		name := schemaRef(k.SchemaPrefix() + p.role)
		fmt.Fprintf(b, "            %s:\n              description: %s\n", p.name, yamlQuoted(p.description))
		switch {
		case p.orRef != "":
			fmt.Fprintf(b, "              oneOf: [{$ref: %s}, {$ref: %s}]\n", schemaRef(p.orRef), name)
		case p.nullable:
			fmt.Fprintf(b, "              oneOf: [{$ref: %s}, {type: \"null\"}]\n", name)
		default:
			fmt.Fprintf(b, "              allOf: [{$ref: %s}]\n", name)
		}
	}
}

// kindOptions are the options of a kind: the names of its own, and the properties block of its
// <Prefix>Options (indented by eight), the shared ones included.
type kindOptions struct {
	own        []string
	properties string
}

// writeSettings writes <Prefix>Settings: kind k's options as the server returns them, every option
// present (those a request left out with their defaults) save the shared ones a game may not have.
// They are told apart from the request's options (<Prefix>Options, where every option is optional),
// which is why no option schema may carry a `default`: generators make such a field required, in
// requests too. The properties are written out again rather than as allOf the options with a
// `required` beside it, which some generators (hey-api) ignore.
func writeSettings(b *strings.Builder, k domain.GameKind, options kindOptions) {
	required := slices.Clone(options.own)
	for _, o := range sharedOptions {
		if o.always {
			required = append(required, o.property)
		}
	}
	fmt.Fprintf(b, "    %sSettings:\n      type: object\n", k.SchemaPrefix())
	fmt.Fprintf(b, "      description: The options of a game of %s as the server returns them (`%sOptions`), each option a request left out with its default.\n", k.Name(), k.SchemaPrefix())
	fmt.Fprintf(b, "      required: [%s]\n      properties:\n%s", strings.Join(required, ", "), options.properties)
}

// yamlQuoted is s as a double-quoted YAML scalar.
func yamlQuoted(s string) string { return strconv.Quote(s) }

// withSharedOptions adds the shared options to the properties of the schema called name among a
// kind's schemas (a components/schemas body, indented by four), and returns the names of the kind's
// own options.
func withSharedOptions(schemas, name string) (_ string, _ kindOptions, _ error) {
	header := "\n    " + name + ":\n"
	start := strings.Index("\n"+schemas, header)
	if start < 0 {
		return "", kindOptions{}, fmt.Errorf("no %s", name)
	}
	bodyStart := start + len(header) - 1 // in schemas, which lacks the leading newline
	bodyEnd := len(schemas)
	for offset := bodyStart; offset < len(schemas); {
		line, _, _ := strings.Cut(schemas[offset:], "\n")
		if strings.TrimSpace(line) != "" && !strings.HasPrefix(line, "      ") {
			bodyEnd = offset
			break
		}
		offset += len(line) + 1
	}
	body := schemas[bodyStart:bodyEnd]
	if strings.Contains(body, "default:") {
		return "", kindOptions{}, fmt.Errorf("%s: an option has a `default`, which generators read as always present, in requests too: say the default in its description", name)
	}
	var props strings.Builder
	for _, o := range sharedOptions {
		fmt.Fprintf(&props, "        %s: {$ref: %s}\n", o.property, schemaRef(o.schema))
	}
	var options kindOptions
	before, after, ok := strings.Cut(body, "      properties:\n")
	switch {
	case ok:
		var block strings.Builder
		for _, line := range strings.Split(after, "\n") {
			if !strings.HasPrefix(line, "        ") && strings.TrimSpace(line) != "" {
				break // the properties end
			}
			if strings.TrimSpace(line) != "" {
				block.WriteString(line + "\n")
			}
			if option, _, found := strings.Cut(line, ":"); found && strings.HasPrefix(option, "        ") && !strings.HasPrefix(option, "         ") {
				options.own = append(options.own, strings.TrimSpace(option))
			}
		}
		options.properties = props.String() + block.String()
		body = before + "      properties:\n" + props.String() + after
	case strings.Contains(body, "      properties:"):
		return "", kindOptions{}, fmt.Errorf("%s: write its properties as a block, one per line", name)
	default:
		options.properties = props.String()
		body = strings.TrimRight(body, "\n") + "\n      properties:\n" + props.String()
	}
	return schemas[:bodyStart] + body + schemas[bodyEnd:], options, nil
}

func schemaRef(name string) string { return `"#/components/schemas/` + name + `"` }

// schemaType finds the schema called name among a kind's schemas (a components/schemas body, indented
// by four) and returns its top-level type, "" when it declares none.
func schemaType(schemas, name string) (typ string, defined bool) {
	_, body, defined := strings.Cut("\n"+schemas, "\n    "+name+":\n")
	if !defined {
		return "", false
	}
	for _, line := range strings.Split(body, "\n") {
		if strings.TrimSpace(line) != "" && !strings.HasPrefix(line, "      ") && !strings.HasPrefix(strings.TrimSpace(line), "#") {
			break // the next schema
		}
		if t, ok := strings.CutPrefix(line, "      type: "); ok {
			return strings.TrimSpace(t), true
		}
	}
	return "", true
}
