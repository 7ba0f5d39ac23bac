package cards_test

import (
	"strings"
	"testing"

	qrcode "github.com/skip2/go-qrcode"

	"primegames/domain/cards"
	"primegames/domain/scene"
)

// The QR code drawn is the link's, module for module: the squares of the path, read back at the
// module's size, are the dark modules of the library's bitmap.
func TestQRCodeIsTheLinks(t *testing.T) {
	t.Parallel()
	link := "https://games.school.example/app/sign-in#class=K7QX-2MHB&code=H4KP9Z"
	p := cards.Page{Paper: cards.A4, Classroom: "2B", SignInAt: "https://games.school.example/app/sign-in", Number: 1, Of: 1,
		Cards: []cards.Card{{Name: "Ada", ClassCode: "K7QX-2MHB", Code: "H4KP9Z", Link: link}}}
	sc, err := p.Scene()
	if err != nil {
		t.Fatal(err)
	}
	paths := scene.Find(sc.Nodes, "qr")
	if len(paths) != 1 || scene.Data(paths[0], "link") != link {
		t.Fatalf("want one QR path of the link, got %d", len(paths))
	}
	q, err := qrcode.New(link, qrcode.Medium)
	if err != nil {
		t.Fatal(err)
	}
	want := q.Bitmap()
	n := len(want)
	steps := paths[0].(scene.Path).Steps
	x0, y0 := steps[0].X, steps[0].Y
	// The first square starts at the first dark module: row 4, column 4 (after the quiet zone).
	module := (steps[1].X - steps[0].X) / 7 // the finder pattern's top row is 7 modules
	got := make([][]bool, n)
	for i := range got {
		got[i] = make([]bool, n)
	}
	for i := 0; i+4 < len(steps); i += 5 {
		r := int((steps[i].Y-y0)/module+0.5) + 4
		c0, c1 := int((steps[i].X-x0)/module+0.5)+4, int((steps[i+1].X-x0)/module+0.5)+4
		for c := c0; c < c1; c++ {
			got[r][c] = true
		}
	}
	for r := range want {
		for c := range want[r] {
			if got[r][c] != want[r][c] {
				t.Fatalf("module (%d, %d) = %v, want %v", r, c, got[r][c], want[r][c])
			}
		}
	}
	if svg := string(sc.SVG()); strings.Contains(svg, "<image") || !strings.Contains(svg, "H 4 K P 9 Z") {
		t.Errorf("the SVG embeds an image or lacks the code")
	}
}

// A long name is set smaller and cut short, never under the QR code.
func TestNamesFitBesideTheQR(t *testing.T) {
	t.Parallel()
	p := cards.Page{Paper: cards.Letter, Classroom: "2B", Number: 1, Of: 1,
		Cards: []cards.Card{{Name: "Evangelina Montgomery-Smith of the Long Name", ClassCode: "K7QX-2MHB", Code: "H4KP9Z", Link: "x"}}}
	sc, err := p.Scene()
	if err != nil {
		t.Fatal(err)
	}
	name := scene.Find(sc.Nodes, "name")[0].(scene.Text)
	if name.Size >= 20 || !strings.HasSuffix(name.Text, "…") {
		t.Errorf("name set at %v as %q, want smaller and cut short", name.Size, name.Text)
	}
	if cards.Pages(0) != 1 || cards.Pages(10) != 1 || cards.Pages(11) != 2 {
		t.Errorf("Pages(0, 10, 11) = %d %d %d", cards.Pages(0), cards.Pages(10), cards.Pages(11))
	}
}
