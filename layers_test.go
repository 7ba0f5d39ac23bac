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
var forbiddenImports = map[string][]string{
	"domain": {"primegames/api", "primegames/play", "primegames/repo", "primegames/live"},
	"play":   {"primegames/api", "primegames/repo"},
	"repo":   {"primegames/api", "primegames/domain"},
	"api":    {"primegames/repo"},
	"live":   {"primegames/api", "primegames/repo"},
}

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
