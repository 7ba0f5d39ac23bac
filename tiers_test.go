package primegames

import (
	"go/ast"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// The suite has two tiers. `go test ./...` runs the fast one; the long one (strength, long property
// runs, fault injection) is built with -tags long and selected by name, `-run '^TestLong'`, so that
// CI runs it once and never under the race detector. A test is in the long tier exactly when its file
// is built only with the tag, and then its name says so.
func TestTierOfEachTestIsTaggedAndNamed(t *testing.T) {
	long, fast := 0, 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) && path != "." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		tagged := longOnly(f)
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || !strings.HasPrefix(fn.Name.Name, "Test") || fn.Name.Name == "TestMain" {
				continue
			}
			named := strings.HasPrefix(fn.Name.Name, "TestLong")
			switch {
			case tagged && !named:
				t.Errorf("%s: %s is built only with -tags long, so its name must start with TestLong", path, fn.Name.Name)
			case !tagged && named:
				t.Errorf("%s: %s is named for the long tier, but its file is not built only with -tags long", path, fn.Name.Name)
			case tagged:
				long++
			default:
				fast++
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if long < 5 || fast < 200 {
		t.Errorf("found %d long and %d fast tests; is the walk reading the repository?", long, fast)
	}
}

// longOnly reports whether the file's build constraint holds with the tag long and not without it.
func longOnly(f *ast.File) bool {
	for _, group := range f.Comments {
		if group.Pos() >= f.Package {
			break
		}
		for _, c := range group.List {
			if !constraint.IsGoBuild(c.Text) {
				continue
			}
			expr, err := constraint.Parse(c.Text)
			if err != nil {
				return false
			}
			with := expr.Eval(func(tag string) bool { return tag == "long" })
			without := expr.Eval(func(string) bool { return false })
			return with && !without
		}
	}
	return false
}
