package primegames

import (
	"go/parser"
	"go/token"
	"io/fs"
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
