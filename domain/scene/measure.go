package scene

import (
	"slices"
	"strings"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
)

// Browsers set a picture's SVG in Verdana or DejaVu Sans (its font-family), wider than the Go
// fonts its PNG is drawn with: on the pictures' words DejaVu Sans measured 1.09 to 1.14 times the
// Go regular's width, 1.16 to 1.22 times the Go bold's. Width allows for the wider.
const (
	allowRegular = 1.15
	allowBold    = 1.25
)

// MinShrink is how far Fitted shrinks a line of text to fit its room: to three quarters of its
// size, still easy to read; a line that would need more is cut short with "…" instead.
const MinShrink = 0.75

// measureSize is the size the fonts are measured at; widths scale with the size (no hinting).
const measureSize = 100

var measure = struct {
	sync.Mutex
	regular, bold font.Face
}{regular: mustFace(goregular.TTF), bold: mustFace(gobold.TTF)}

func mustFace(ttf []byte) font.Face {
	f, err := opentype.Parse(ttf)
	if err != nil {
		panic(err)
	}
	face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: measureSize, DPI: 72, Hinting: font.HintingNone})
	if err != nil {
		panic(err)
	}
	return face
}

// Width is how wide s is set at size, in the units of size: its width in the Go fonts with the
// allowance for a browser's wider fonts.
func Width(s string, size float64, bold bool) float64 {
	measure.Lock()
	face, allow := measure.regular, allowRegular
	if bold {
		face, allow = measure.bold, allowBold
	}
	w := float64(font.MeasureString(face, s)) / 64
	measure.Unlock()
	return w * size / measureSize * allow
}

// Fitted is t as drawn: when it has Room and is wider than it, broken in two at a space when it
// may Wrap (its lines joined by "\n"), then its size shrunk to fit when MinShrink of it is enough,
// else its (last) line cut short with "…" at its size (a line cut anyway is not made smaller).
// Both the SVG and the PNG draw a text Fitted, so a translation longer than the English still fits
// its box.
func Fitted(t Text) Text {
	if t.Room <= 0 || t.Size <= 0 || t.Text == "" {
		return t
	}
	fits := func(s string, size float64) bool { return Width(s, size, t.Bold) <= t.Room*(1+1e-9) }
	if !slices.ContainsFunc(t.Lines(), func(l string) bool { return !fits(l, t.Size) }) {
		return t // as it was, or as Fitted made it
	}
	lines := []string{t.Text}
	if t.Wrap {
		lines = wrap(t.Text, func(s string) bool { return fits(s, t.Size) })
	}
	widest := 0.0
	for _, l := range lines {
		widest = max(widest, Width(l, t.Size, t.Bold))
	}
	if widest > t.Room && t.Room/widest >= MinShrink && !strings.HasSuffix(t.Text, "…") { // cut already (Fit): cut more
		t.Size *= t.Room / widest
	}
	last := len(lines) - 1
	r := []rune(lines[last])
	for n := len(r) - 1; n >= 0 && !fits(lines[last], t.Size); n-- {
		lines[last] = strings.TrimRight(string(r[:n]), " ") + "…"
	}
	t.Text = strings.Join(lines, "\n")
	return t
}

// wrap breaks s in two at the last space where its first line fits, or the first space when none
// does; s as it is when it has no space.
func wrap(s string, fits func(string) bool) []string {
	cut := -1
	for i, r := range s {
		if r != ' ' {
			continue
		}
		if cut < 0 || fits(s[:i]) {
			cut = i
		} else {
			break
		}
	}
	if cut < 0 {
		return []string{s}
	}
	return []string{s[:cut], s[cut+1:]}
}

// FittedIn is t Fitted, given when it has no Room the room a picture width wide leaves it from its
// X as it is anchored; a width of 0 gives none.
func FittedIn(t Text, width float64) Text {
	if t.Room <= 0 && width > 0 {
		switch t.Anchor {
		case Middle:
			t.Room = 2 * min(t.X, width-t.X)
		case End:
			t.Room = t.X
		default:
			t.Room = width - t.X
		}
		t.Room = max(t.Room, 1)
	}
	return Fitted(t)
}
