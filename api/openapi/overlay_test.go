package openapi

import (
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"go.yaml.in/yaml/v3"
)

// The Go client's generation applies its own overlay, which must make every change the server's
// makes (the kinds' types, no HEAD methods), so that the client's types are the server's.
func TestClientOverlayMakesTheServersChanges(t *testing.T) {
	t.Parallel()
	server, client := overlayActions(t, "overlay.yaml"), overlayActions(t, "../../clients/go/overlay.yaml")
	for _, action := range server {
		if !slices.ContainsFunc(client, func(a map[string]any) bool { return reflect.DeepEqual(a, action) }) {
			t.Errorf("clients/go/overlay.yaml lacks the server's action %v", action)
		}
	}
}

func overlayActions(t *testing.T, path string) []map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var overlay struct {
		Actions []map[string]any `yaml:"actions"`
	}
	if err := yaml.Unmarshal(data, &overlay); err != nil {
		t.Fatal(err)
	}
	if len(overlay.Actions) == 0 {
		t.Fatalf("%s has no actions", path)
	}
	return overlay.Actions
}

// The Go client names every enum value after its type (always-prefix-enum-values): a contract's own
// name for a value that says the type already would be prefixed twice (GuessFactsScopeGuessScope…),
// unless the client's overlay removes it.
func TestClientEnumValuesArePrefixedOnce(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../../clients/go/client.gen.go")
	if err != nil {
		t.Fatal(err)
	}
	constant := regexp.MustCompile(`(?m)^\t(\w+)\s+(\w+)\s+= "([^"]*)"`)
	firstWord := regexp.MustCompile(`^[A-Z][a-z0-9]*`)
	for _, m := range constant.FindAllStringSubmatch(string(data), -1) {
		name, typ, value := m[1], m[2], m[3]
		rest, ok := strings.CutPrefix(name, typ)
		if !ok || name == typ+camel(value) {
			continue
		}
		if strings.HasPrefix(rest, firstWord.FindString(typ)) {
			t.Errorf("%s (a %s) repeats its type: remove the contract's x-enum-varnames in clients/go/overlay.yaml", name, typ)
		}
	}
}

// camel is an enum value as the generator names it: its words capitalised and joined.
func camel(value string) string {
	words := strings.FieldsFunc(value, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	for i, w := range words {
		words[i] = strings.ToUpper(w[:1]) + w[1:]
	}
	return strings.Join(words, "")
}
