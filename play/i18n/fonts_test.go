package i18n

import (
	"strings"
	"testing"
	"unicode"

	"primegames/domain/scene/raster"
)

// TestPicturesFontsCoverEveryCatalog holds the PNG pictures' fonts to every letter of every
// translation: a rune the fonts lack would be drawn as an empty box.
func TestPicturesFontsCoverEveryCatalog(t *testing.T) {
	t.Parallel()
	missing := map[rune]string{}
	check := func(lang, s string) {
		for _, r := range s {
			if !unicode.IsSpace(r) && !raster.Covers(r) {
				missing[r] = lang + ": " + s
			}
		}
	}
	for _, id := range ids {
		check("en", id)
	}
	for _, l := range langs[1:] {
		for _, m := range l.cat.messages {
			for _, f := range m.forms {
				check(l.code, f)
			}
		}
	}
	for r, where := range missing {
		t.Errorf("the pictures' fonts have no %q (U+%04X), which %s needs", r, r, strings.TrimSpace(where))
	}
	// What the catalogs do not use yet but a language may: Latin-1 and Latin Extended-A.
	for r := rune(0xC0); r <= 0x17F; r++ {
		if unicode.IsLetter(r) && !raster.Covers(r) {
			t.Errorf("the pictures' fonts have no %q (U+%04X)", r, r)
		}
	}
}
