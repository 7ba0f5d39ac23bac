package api

import "testing"

func TestSpreadsheetSafeKeepsFormulasAsText(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"Ada":                     "Ada",
		"=HYPERLINK(\"x\",\"y\")": "'=HYPERLINK(\"x\",\"y\")",
		"+1":                      "'+1",
		"-2":                      "'-2",
		"@sum":                    "'@sum",
		"Dee \"DJ\", Jr.":         "Dee \"DJ\", Jr.",
		"":                        "",
	} {
		if got := spreadsheetSafe(in); got != want {
			t.Errorf("spreadsheetSafe(%q) = %q, want %q", in, got, want)
		}
	}
}
