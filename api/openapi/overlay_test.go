package openapi

import (
	"os"
	"reflect"
	"slices"
	"testing"

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
