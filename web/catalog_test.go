package web

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The app's words are looked up by their English text (src/i18n.ts): every t("…") in the sources
// needs its translation in every language, with the same placeholders, and a catalog holds nothing
// the sources no longer say.

var (
	tCall       = regexp.MustCompile(`\bt\(\s*("(?:[^"\\]|\\.)*")`)
	tNonLiteral = regexp.MustCompile(`\bt\(\s*[^"\s)]`)
	placeholder = regexp.MustCompile(`\{(\w+)\}`)
)

var languages = []string{"es", "fr", "de", "pt-BR"}

func TestEveryWordOfTheAppIsTranslated(t *testing.T) {
	t.Parallel()
	used := sourceSentences(t)
	if len(used) == 0 {
		t.Fatal("no t(\"…\") call found in src/: the scan is broken")
	}
	english := catalog(t, "en")
	for key, entry := range english {
		if _, counts := entry.(map[string]any); !counts {
			t.Errorf("en: %q: the English catalog holds only plural forms (a plain sentence is its own key)", key)
		}
	}
	for _, lang := range append([]string{"en"}, languages...) {
		entries := catalog(t, lang)
		for key := range used {
			entry, ok := entries[key]
			if !ok {
				if lang != "en" {
					t.Errorf("%s: no translation of %q (%s)", lang, key, used[key])
				}
				continue
			}
			for _, text := range forms(t, lang, key, entry) {
				if got, want := names(text), names(key); !slices.Equal(got, want) {
					t.Errorf("%s: %q: placeholders %v, the English has %v", lang, key, got, want)
				}
			}
		}
		for key := range entries {
			if _, ok := used[key]; !ok {
				t.Errorf("%s: %q is no longer said by the app: remove it", lang, key)
			}
		}
	}
}

// sourceSentences maps each t("…") key in src/ to the first file that says it.
func sourceSentences(t *testing.T) map[string]string {
	files, err := filepath.Glob("src/*.ts")
	if err != nil {
		t.Fatal(err)
	}
	used := map[string]string{}
	for _, file := range files {
		if filepath.Base(file) == "i18n.ts" { // where t is defined
			continue
		}
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, at := range tNonLiteral.FindAllIndex(src, -1) {
			line := 1 + strings.Count(string(src[:at[0]]), "\n")
			t.Errorf("%s:%d: t( takes the English sentence itself, a string literal, so that it can be checked here", file, line)
		}
		for _, m := range tCall.FindAllSubmatch(src, -1) {
			key, err := strconv.Unquote(string(m[1]))
			if err != nil {
				t.Fatalf("%s: %s: %v", file, m[1], err)
			}
			if _, seen := used[key]; !seen {
				used[key] = file
			}
		}
	}
	return used
}

// catalog is the union of a language's catalogs: each area's locales/<area>/<lang>.json.
func catalog(t *testing.T, lang string) map[string]any {
	out := map[string]any{}
	for _, area := range []string{"child", "teacher"} {
		raw, err := os.ReadFile(filepath.Join("src/locales", area, lang+".json"))
		if err != nil {
			t.Fatal(err)
		}
		var entries map[string]any
		if err := json.Unmarshal(raw, &entries); err != nil {
			t.Fatalf("%s/%s.json: %v", area, lang, err)
		}
		for key, entry := range entries {
			if _, twice := out[key]; twice {
				t.Errorf("%s: %q is in two areas' catalogs", lang, key)
			}
			out[key] = entry
		}
	}
	return out
}

// forms are an entry's texts: the sentence, or each plural form (which must include "other").
func forms(t *testing.T, lang, key string, entry any) []string {
	switch e := entry.(type) {
	case string:
		return []string{e}
	case map[string]any:
		var out []string
		for category, text := range e {
			s, ok := text.(string)
			if !ok || !slices.Contains([]string{"zero", "one", "two", "few", "many", "other"}, category) {
				t.Errorf("%s: %q: plural form %q is not a sentence of a CLDR category", lang, key, category)
				continue
			}
			out = append(out, s)
		}
		if _, ok := e["other"]; !ok {
			t.Errorf("%s: %q: plural forms need \"other\"", lang, key)
		}
		if !strings.Contains(key, "{n}") {
			t.Errorf("%s: %q: plural forms are chosen by {n}, which the sentence lacks", lang, key)
		}
		return out
	default:
		t.Errorf("%s: %q: an entry is a sentence or plural forms", lang, key)
		return nil
	}
}

func names(text string) []string {
	var out []string
	for _, m := range placeholder.FindAllStringSubmatch(text, -1) {
		out = append(out, m[1])
	}
	slices.Sort(out)
	return slices.Compact(out)
}
