package names

import (
	"strings"
	"testing"

	"primegames/domain"
)

func TestEnforceRefuses(t *testing.T) {
	for _, tc := range []struct {
		name, input, says string
	}{
		// The examples of issue 10.
		{"zero-width space after a name", "Ada\u200b", "U+200B, an invisible"},
		{"right-to-left override", "\u202eAda", "U+202E, which changes the direction"},
		{"nothing visible", "\u200b\u200b", "U+200B, an invisible"},
		{"a lone combining accent", "\u0301", `"\u0301" shows none`},
		{"Cyrillic A beside Latin letters", "\u0410da", "(Cyrillic and Latin"},
		// More of the same kinds.
		{"empty", "", "shows none"},
		{"spaces only", "  \u3000 ", "shows none"},
		{"a combining accent first", "\u0301Ada", "may not begin with a combining mark"},
		{"tab", "A\tB", "U+0009, an invisible or control"},
		{"NUL", "A\x00B", "U+0000"},
		{"left-to-right isolate", "\u2066Ada", "U+2066, which changes the direction"},
		{"Arabic letter mark", "\u061cAda", "U+061C, which changes the direction"},
		{"soft hyphen", "A\u00adda", "U+00AD, an invisible"},
		{"zero-width joiner", "A\u200dda", "U+200D, an invisible"},
		{"variation selector", "Ada\ufe0f", "U+FE0F, an invisible"},
		{"byte order mark", "\ufeffAda", "U+FEFF, an invisible"},
		{"line separator", "Ada\u2028Lovelace", "U+2028, an invisible"},
		{"unassigned", "Ada\u0378", "U+0378, a character that is unassigned"},
		{"private use", "Ada\ue000", "U+E000, a character that is unassigned"},
		{"Greek omicron among Latin letters", "B\u03bfb", "(Latin and Greek"},
		{"Latin beside Chinese", "Amy李", "(Latin and Chinese, Japanese or Korean"},
		{"too long", strings.Repeat("a", 41), "at most 40 characters; this one has 41"},
		{"invalid UTF-8", "Ada\xff", "valid UTF-8"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Person.Enforce(tc.input)
			if err == nil {
				t.Fatalf("Enforce(%+q) = %+q, want a refusal", tc.input, got)
			}
			if domain.ErrorCode(err) != "invalid_name" || !strings.Contains(err.Error(), tc.says) {
				t.Errorf("Enforce(%+q) = %v, want invalid_name saying %q", tc.input, err, tc.says)
			}
		})
	}
}

func TestEnforceAcceptsAndNormalises(t *testing.T) {
	for input, want := range map[string]string{
		"Ada":                   "Ada",
		"  Ada   Lovelace  ":    "Ada Lovelace", // spaces trimmed and folded
		"Ada\u00a0B":            "Ada B",        // a no-break space is a space
		"\uff21\uff44\uff41":    "Ada",          // full-width letters
		"Zoe\u0308":             "Zoë",          // decomposed accents composed
		"Жанна":                 "Жанна",
		"Νίκος":                 "Νίκος",
		"李小龍":                   "李小龍",
		"さくら 桜":                 "さくら 桜", // Japanese mixes kana and kanji
		"김민준":                   "김민준",
		"O'Brien-Smith 2":       "O'Brien-Smith 2",
		"Ada ☺":                 "Ada ☺",
		strings.Repeat("é", 40): strings.Repeat("é", 40),
	} {
		got, err := Person.Enforce(input)
		if err != nil || got != want {
			t.Errorf("Enforce(%+q) = %+q, %v; want %+q", input, got, err, want)
		}
	}
	long := strings.Repeat("Class ", 13) + "4B"
	if _, err := Classroom.Enforce(long); err != nil {
		t.Errorf("a classroom's name of %d characters was refused: %v", len(long), err)
	}
	if _, err := Person.Enforce(long); err == nil {
		t.Errorf("a person's name of %d characters was accepted", len(long))
	}
}

func TestKeyComparesNamesAsTheSame(t *testing.T) {
	same := [][]string{
		{"Ada", "ada", "ADA", "\uff21\uff24\uff21"},
		{"Zoë", "zoë", "Zoe\u0308"},
		{"Ada Lovelace", "ada  lovelace"},
	}
	for _, group := range same {
		want := key(t, group[0])
		for _, name := range group[1:] {
			if got := key(t, name); got != want {
				t.Errorf("Key(%+q) = %+q, want %+q as for %+q", name, got, want, group[0])
			}
		}
	}
	if key(t, "Ada") == key(t, "Adä") {
		t.Error("Ada and Adä compare as the same name")
	}
}

func key(t *testing.T, name string) string {
	t.Helper()
	enforced, err := Person.Enforce(name)
	if err != nil {
		t.Fatalf("Enforce(%+q): %v", name, err)
	}
	return Key(enforced)
}
