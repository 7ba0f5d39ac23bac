// Package cards draws the children's sign-in cards: a printable page of cards, each with a
// student's name, the class code, their personal sign-in code and a QR code of their sign-in link,
// as a scene (so SVG and PNG show the same). The QR code is drawn as one path of squares, not an
// embedded image, so that it stays crisp at any size and prints sharp.
package cards

import (
	"bytes"
	"strings"

	qrcode "github.com/skip2/go-qrcode"

	"primegames/domain/scene"
	"primegames/domain/svg"
)

// Paper is a sheet the page is drawn for, in CSS pixels (96 an inch): a browser prints an SVG of
// this size on one sheet at size.
type Paper struct {
	Name          string
	Width, Height float64
	// PrintWidth and PrintHeight are the sheet's size in print units ("210mm", "8.5in"): the SVG
	// document says them, so that it prints at size whatever the screen's pixels.
	PrintWidth, PrintHeight string
}

// Papers are the sheets a page is drawn for.
var (
	// A4 is 210 × 297 mm, rounded to whole pixels at 150 dpi (1240 × 1754).
	A4     = Paper{Name: "a4", Width: 1240 / 1.5625, Height: 1754 / 1.5625, PrintWidth: "210mm", PrintHeight: "297mm"}
	Letter = Paper{Name: "letter", Width: 8.5 * 96, Height: 11 * 96, PrintWidth: "8.5in", PrintHeight: "11in"}
)

// Columns and Rows are how the cards sit on a page.
const (
	Columns = 2
	Rows    = 5
	PerPage = Columns * Rows
)

// nameEm is the width of a character of a name, in ems, a bold wide letter's (set at any size).
const nameEm = 0.6

// margin is the page's margin (half an inch), which every printer can print within.
const margin = 48

// Card is one student's card.
type Card struct {
	Name      string // the student's name
	ClassCode string // the classroom's join code
	Code      string // the student's personal sign-in code
	Link      string // the sign-in link the QR code holds
}

// Page is one page of cards.
type Page struct {
	Paper     Paper
	Classroom string // the classroom's name
	SignInAt  string // where to sign in by hand, shown on each card (a URL without its fragment)
	Cards     []Card // at most PerPage
	Number    int    // this page's number, from 1
	Of        int    // how many pages there are
}

// Pages is how many pages n cards take (one at least, for an empty classroom).
func Pages(n int) int { return max(1, (n+PerPage-1)/PerPage) }

// Scene draws the page.
func (p Page) Scene() (*scene.Scene, error) {
	w, h := p.Paper.Width, p.Paper.Height
	sc := &scene.Scene{Width: w, Height: h,
		Title: scene.Say("Sign-in cards of %s, page %d of %d", p.Classroom, p.Number, p.Of),
		Desc:  scene.Say("%d sign-in cards to cut out: each has a student's name, the class code, their personal code and a QR code of their sign-in link.", len(p.Cards)),
		// A browser printing the document itself takes the sheet from here: the page has margins of its own.
		Style: "@page { size: " + p.Paper.PrintWidth + " " + p.Paper.PrintHeight + "; margin: 0 }"}
	top := float64(margin)
	sc.Nodes = append(sc.Nodes, scene.Said(scene.Text{Meta: scene.Meta{Class: "heading"}, X: margin, Y: top + 14, Size: 16, Bold: true},
		scene.Say("Sign-in cards · %s", p.Classroom), 0),
		scene.Said(scene.Text{Meta: scene.Meta{Class: "page"}, X: w - margin, Y: top + 14, Size: 12, Anchor: scene.End, Fill: "#555555"},
			scene.Say("page %d of %d · cut along the dashed lines", p.Number, p.Of), 0))
	gridTop := top + 28
	cw := (w - 2*margin) / Columns
	ch := (h - margin - gridTop) / Rows
	for i, c := range p.Cards {
		x, y := margin+float64(i%Columns)*cw, gridTop+float64(i/Columns)*ch
		card, err := c.nodes(x, y, cw, ch, p.SignInAt)
		if err != nil {
			return nil, err
		}
		sc.Nodes = append(sc.Nodes, card)
	}
	return sc, nil
}

// SVG is the page's SVG document, its size said in the paper's print units (the scene's units,
// CSS pixels, stay those of its viewBox).
func (p Page) SVG(sc *scene.Scene) []byte {
	doc := sc.SVG()
	px := ` width="` + svg.Num(sc.Width) + `" height="` + svg.Num(sc.Height) + `"`
	return bytes.Replace(doc, []byte(px), []byte(` width="`+p.Paper.PrintWidth+`" height="`+p.Paper.PrintHeight+`"`), 1)
}

// nodes draws the card in the box at (x, y), w × h.
func (c Card) nodes(x, y, w, h float64, signInAt string) (scene.Node, error) {
	const pad = 14
	// The QR code is 4 cm or so (150 units), which a phone reads from arm's length; the texts
	// have the rest of the width (the browsers' fonts are wider than the Go fonts of the PNG).
	qrSize := min(h-2*pad, 150)
	qr, err := qrPath(c.Link, x+w-pad-qrSize, y+(h-qrSize)/2, qrSize)
	if err != nil {
		return nil, err
	}
	tx := x + pad
	label := func(y float64, s string) scene.Node {
		return scene.Text{X: tx, Y: y, Size: 10, Fill: "#555555", Text: s}
	}
	value := func(class string, y, size float64, s string) scene.Node {
		return scene.Text{Meta: scene.Meta{Class: class}, X: tx, Y: y, Size: size, Bold: true, Text: s}
	}
	// The name fits beside the QR code: set smaller as it is longer, cut short past what fits at 11.
	room := w - 3*pad - qrSize
	name, size := []rune(c.Name), 20.0
	size = max(11, min(size, room/(nameEm*float64(len(name)))))
	if fits := int(room / (nameEm * size)); len(name) > fits {
		name = append(name[:fits-1], '…')
	}
	return scene.Group{Meta: scene.Meta{Class: "card", Data: []scene.Attr{scene.D("code", c.Code)}}, Children: []scene.Node{
		scene.Rect{Meta: scene.Meta{Class: "cut"}, Paint: scene.Paint{Fill: "none", Stroke: "#999999", StrokeWidth: 1, Dash: []float64{6, 4}},
			X: x, Y: y, W: w, H: h},
		scene.Said(value("name", y+pad+20, size, "").(scene.Text), scene.Say("%s", string(name)), 0), // as typed, in every language
		label(y+pad+46, "Class code"),
		value("class-code", y+pad+68, 18, c.ClassCode),
		label(y+pad+94, "My code"),
		value("sign-in-code", y+pad+120, 22, spaced(c.Code)),
		scene.Text{X: tx, Y: y + h - pad - 4, Size: 8, Fill: "#555555", Text: signInAt},
		qr,
	}}, nil
}

// spaced sets a code's characters apart, easier to copy one by one.
func spaced(code string) string { return strings.Join(strings.Split(code, ""), " ") }

// qrPath is the QR code of link as one path of dark squares (runs of a row joined), in the box at
// (x, y) of side size, its quiet zone included.
func qrPath(link string, x, y, size float64) (scene.Node, error) {
	q, err := qrcode.New(link, qrcode.Medium)
	if err != nil {
		return nil, err
	}
	bits := q.Bitmap() // with its quiet zone of four modules
	m := size / float64(len(bits))
	var steps []scene.Step
	for r, row := range bits {
		for c := 0; c < len(row); {
			if !row[c] {
				c++
				continue
			}
			end := c
			for end < len(row) && row[end] {
				end++
			}
			x0, x1, y0, y1 := x+float64(c)*m, x+float64(end)*m, y+float64(r)*m, y+float64(r+1)*m
			steps = append(steps, scene.MoveTo(x0, y0), scene.LineTo(x1, y0), scene.LineTo(x1, y1), scene.LineTo(x0, y1), scene.Close())
			c = end
		}
	}
	return scene.Path{Meta: scene.Meta{Class: "qr", Data: []scene.Attr{scene.D("link", link)}}, Paint: scene.Paint{Fill: "#000000"}, Steps: steps}, nil
}
