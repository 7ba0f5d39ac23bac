package raster

import "golang.org/x/image/font/sfnt"

// Covers reports whether both fonts the pictures are drawn with (Go regular and bold) have a glyph
// for r: a rune they lack is drawn as an empty box.
func Covers(r rune) bool {
	var buf sfnt.Buffer
	for _, f := range []*sfnt.Font{regular, bold} {
		if i, err := f.GlyphIndex(&buf, r); err != nil || i == 0 {
			return false
		}
	}
	return true
}
