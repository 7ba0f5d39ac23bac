package primegames

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// rulingID matches a cited rule id such as PC-9, PR-6 or G-1.
var rulingID = regexp.MustCompile(`\b(?:PC|PR|G)-[0-9]+\b`)

// definedRule matches a rule's heading in docs/rules.md: "### PC-9 Bumping".
var definedRule = regexp.MustCompile(`(?m)^### ((?:PC|PR|G)-[0-9]+) `)

// Every rule id cited in code, tests, README or contract must be defined in docs/rules.md, so that a
// reader can look it up.
func TestEveryCitedRuleIsDefined(t *testing.T) {
	doc, err := os.ReadFile("docs/rules.md")
	if err != nil {
		t.Fatal(err)
	}
	defined := map[string]bool{}
	for _, m := range definedRule.FindAllSubmatch(doc, -1) {
		id := string(m[1])
		if defined[id] {
			t.Errorf("docs/rules.md defines %s twice", id)
		}
		defined[id] = true
	}
	for _, want := range []string{"PC-1", "PC-14", "PR-1", "PR-8", "G-1", "G-2"} {
		if !defined[want] {
			t.Errorf("docs/rules.md does not define %s", want)
		}
	}

	cited := map[string][]string{} // id → files citing it
	err = filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if skipDir(path) {
				return filepath.SkipDir
			}
			return nil
		}
		if !citesRules(path) {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if bytes.IndexByte(data, 0) >= 0 {
			return nil // binary
		}
		for _, id := range rulingID.FindAll(data, -1) {
			cited[string(id)] = append(cited[string(id)], path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(cited) < len(defined)/2 {
		t.Fatalf("found citations of only %d rule ids; is the walk reading the repository?", len(cited))
	}
	for id, files := range cited {
		if !defined[id] {
			slices.Sort(files)
			t.Errorf("%s is cited (in %s) but not defined in docs/rules.md", id, strings.Join(slices.Compact(files), ", "))
		}
	}
}

func skipDir(path string) bool {
	base := filepath.Base(path)
	return path != "." && (strings.HasPrefix(base, ".") || base == "node_modules" || path == filepath.Join("api", "docs"))
}

func citesRules(path string) bool {
	switch filepath.Ext(path) {
	case ".go", ".md", ".yaml", ".yml", ".sql", ".sh", ".ts", ".json":
		return true
	}
	return false
}
