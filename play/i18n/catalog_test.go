package i18n

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"golang.org/x/text/feature/plural"
)

// TestCatalogsAreComplete holds every catalog to locales/en.json: every id in it, no other id, and
// every translation (each plural form) with the placeholders of the English, in the same number and
// kind, whatever their order.
func TestCatalogsAreComplete(t *testing.T) {
	t.Parallel()
	if len(langs) < 5 {
		t.Fatalf("the service speaks %v; want English, Spanish, French, German and Brazilian Portuguese at least", Codes())
	}
	seen := map[string]bool{}
	for _, id := range ids {
		if seen[id] {
			t.Errorf("en.json lists %q twice", id)
		}
		seen[id] = true
	}
	for _, l := range langs[1:] {
		raw, err := files.ReadFile("locales/" + l.code + ".json")
		if err != nil {
			t.Fatal(err)
		}
		var entries map[string]json.RawMessage
		if err := json.Unmarshal(raw, &entries); err != nil {
			t.Fatal(err)
		}
		for _, id := range ids {
			m, ok := l.cat.messages[id]
			if !ok {
				t.Errorf("%s.json lacks %q", l.code, id)
				continue
			}
			want := sorted(Placeholders(id))
			for form, text := range m.forms {
				if got := sorted(Placeholders(unrewrite(id, entries[id], form))); !slices.Equal(got, want) {
					t.Errorf("%s.json %q (%v): placeholders %q; English has %q", l.code, id, form, got, want)
				}
				if strings.TrimSpace(text) == "" {
					t.Errorf("%s.json %q is empty", l.code, id)
				}
			}
		}
		for id := range l.cat.messages {
			if !seen[id] {
				t.Errorf("%s.json has %q, which en.json does not list (renamed?)", l.code, id)
			}
		}
	}
}

// unrewrite is the translation of id's form as its file writes it (before rewrite made every
// placeholder a string).
func unrewrite(id string, raw json.RawMessage, form plural.Form) string {
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return one
	}
	var forms map[string]json.RawMessage
	_ = json.Unmarshal(raw, &forms)
	for name, f := range formNames {
		if f == form {
			_ = json.Unmarshal(forms[name], &one)
		}
	}
	return one
}

func sorted(b []byte) []byte {
	out := slices.Clone(b)
	slices.Sort(out)
	return out
}

// TestPlaceholdersCountsExtraMissingAndRenamed is the check above on broken translations.
func TestPlaceholdersCountsExtraMissingAndRenamed(t *testing.T) {
	t.Parallel()
	en := sorted(Placeholders("pawn %d of seat %d: %s"))
	for _, bad := range []string{"peón %d: %s", "peón %d del puesto %d: %s %s", "peón %d del puesto %s: %s"} {
		if slices.Equal(sorted(Placeholders(bad)), en) {
			t.Errorf("%q passes as %q", bad, "pawn %d of seat %d: %s")
		}
	}
	if !slices.Equal(sorted(Placeholders("%[3]s: peón %[1]d del puesto %[2]d")), en) {
		t.Error("reordered placeholders are refused")
	}
}
