package api_test

import (
	"os"
	"strings"
	"testing"

	"primegames"
)

// The engines describe their JSON in domain/*/schemas.yaml; openapi.yaml must carry exactly those
// schemas (scripts/merge-engine-schemas.sh copies them).
func TestOpenAPICarriesTheEngineSchemas(t *testing.T) {
	spec := string(primegames.OpenAPI)
	for _, path := range []string{"../domain/primeclimb/schemas.yaml", "../domain/primed/schemas.yaml"} {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		_, schemas, ok := strings.Cut(string(data), "\n  schemas:\n")
		if !ok {
			t.Fatalf("%s has no components/schemas", path)
		}
		if !strings.Contains(spec, schemas) {
			t.Errorf("openapi.yaml differs from %s; run scripts/merge-engine-schemas.sh and go generate ./api/openapi", path)
		}
	}
}
