package i18n

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// refusalFormats are the functions that make a refusal from a format, and which argument the
// format is: domain's, and the api package's refuse (a refusal with a status of its own).
var refusalFormats = map[string]int{
	"Errorf": 2, "Illegal": 1, "Invalid": 1, "NotYourTurn": 0, "NotYourTurnFor": 2, "GameOver": 1, "refuse": 2,
}

// sourceSentences are the format literals of every refusal the module's code makes (domain.Errorf
// and its kin, outside tests and generated clients), with where each is.
func sourceSentences(t *testing.T) map[string]string {
	t.Helper()
	root := filepath.Join("..", "..")
	out := map[string]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "clients", "node_modules", "testdata", ".git", "web", "tools":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(fset, path, src, 0)
		if err != nil {
			return err
		}
		inDomain, inAPI := f.Name.Name == "domain", f.Name.Name == "api"
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			var name string
			switch fun := call.Fun.(type) {
			case *ast.SelectorExpr:
				if x, ok := fun.X.(*ast.Ident); ok && x.Name == "domain" {
					name = fun.Sel.Name
				}
			case *ast.Ident:
				if inDomain && fun.Name != "refuse" || inAPI && fun.Name == "refuse" {
					name = fun.Name
				}
			}
			at, ok := refusalFormats[name]
			if !ok || len(call.Args) <= at {
				return true
			}
			if s, ok := literal(call.Args[at]); ok {
				if _, seen := out[s]; !seen {
					out[s] = fset.Position(call.Pos()).String()
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// literal is the string a literal (or a sum of literals) says.
func literal(e ast.Expr) (string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(e.Value)
		return s, err == nil
	case *ast.BinaryExpr:
		if e.Op != token.ADD {
			return "", false
		}
		a, ok := literal(e.X)
		b, ok2 := literal(e.Y)
		return a + b, ok && ok2
	case *ast.ParenExpr:
		return literal(e.X)
	}
	return "", false
}

// TestEveryRefusalHasAnID fails on a refusal whose sentence locales/en.json does not list: add it
// there and to every other catalog.
func TestEveryRefusalHasAnID(t *testing.T) {
	t.Parallel()
	known := map[string]bool{}
	for _, id := range ids {
		known[id] = true
	}
	var missing []string
	for s, where := range sourceSentences(t) {
		if !known[s] {
			missing = append(missing, where+": "+strconv.Quote(s))
		}
	}
	sort.Strings(missing)
	for _, m := range missing {
		t.Errorf("no message id for %s", m)
	}
	if os.Getenv("I18N_DUMP") != "" {
		var all []string
		for s := range sourceSentences(t) {
			all = append(all, s)
		}
		sort.Strings(all)
		_ = os.WriteFile(os.Getenv("I18N_DUMP"), []byte(strings.Join(all, "\n")), 0o644)
	}
}
