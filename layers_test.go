package primegames

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// forbiddenImports says which of the module's packages the code (tests aside) under each directory
// must not import: imports point one way, api → play → domain, with repo implementing play's
// storage (SQL only: it calls no engine and writes no sentence for users) and cmd wiring them
// together.
// Only cmd (which wires the catalogue in), tools and the registry itself name the game kinds.
var forbiddenImports = map[string][]string{
	"domain": {"primegames/api", "primegames/play", "primegames/repo", "primegames/live"},
	"play":   append([]string{"primegames/api", "primegames/repo"}, append(gameKinds, noHTTP...)...),
	"repo":   append([]string{"primegames/api", "primegames/domain"}, noHTTP...),
	"api":    append([]string{"primegames/repo"}, gameKinds...),
	"live":   append([]string{"primegames/api", "primegames/repo"}, gameKinds...),
	// play/webhooks sends the webhooks play hands it: play imports it, never the other way.
	"play/webhooks": append([]string{"primegames/play", "primegames/api", "primegames/repo", "primegames/domain"}, noHTTP...),
	// api/middleware is the HTTP middleware that needs nothing of the handlers: it answers with
	// domain's refusals and knows no service, store, stream or contract.
	"api/middleware": append([]string{"primegames/api/openapi", "primegames/play", "primegames/repo", "primegames/live", "primegames/contract", "primegames/outbound"}, gameKinds...),
	// contract is the engine of openapi.yaml (merging, loading, validating, explaining): api uses it,
	// and it is given the kinds it merges rather than naming them.
	"contract": append([]string{"primegames/api", "primegames/play", "primegames/repo", "primegames/live", "primegames/outbound"}, gameKinds...),
	// outbound is the webhooks' HTTP client: it sends what play hands it and knows nothing else.
	"outbound": append([]string{"primegames/api", "primegames/repo", "primegames/live"}, gameKinds...),
}

var (
	gameKinds = []string{"primegames/domain/games", "primegames/domain/primeclimb", "primegames/domain/primed"}
	noHTTP    = []string{"net/http", "github.com/labstack/echo"}
)

func TestImportsPointOneWay(t *testing.T) {
	files := 0
	for dir, forbidden := range forbiddenImports {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
			if err != nil {
				return err
			}
			files++
			for _, imp := range f.Imports {
				pkg, _ := strconv.Unquote(imp.Path.Value)
				for _, bad := range forbidden {
					if pkg == bad || strings.HasPrefix(pkg, bad+"/") {
						t.Errorf("%s imports %s", path, pkg)
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if files < 20 {
		t.Fatalf("read only %d files; is the walk reading the repository?", files)
	}
}

// rootMaxLines bounds the non-test Go of the module's root package, which holds only what must be
// there: the embed of openapi.yaml (go:embed reads no file above its package's directory).
const rootMaxLines = 60

func TestRootHoldsOnlyWhatMustBeThere(t *testing.T) {
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	lines := 0
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		data, err := os.ReadFile(e.Name())
		if err != nil {
			t.Fatal(err)
		}
		lines += strings.Count(string(data), "\n")
	}
	if lines == 0 || lines > rootMaxLines {
		t.Errorf("the root package has %d lines of Go besides its tests, want 1 to %d: put code in the package it belongs to (contract/, api/, …)", lines, rootMaxLines)
	}
}
