// Package scene describes a picture once, as shapes and texts with what they mean (classes and
// data-* attributes), so that the same description is written as SVG (WriteSVG) and drawn as
// pixels (package scene/raster): the two formats cannot disagree on what they show.
//
// Colours are "#rrggbb" or "none"; lengths are in the picture's units (SVG user units, pixels at
// scale 1).
package scene

import (
	"strings"

	"primegames/domain/svg"
)

// Scene is a whole picture.
type Scene struct {
	Width, Height float64
	// Title and Desc are the picture in words, for <title> and <desc> (what a screen reader reads).
	Title, Desc Words
	// Style is CSS for the SVG only (a replay's animation); the raster ignores it.
	Style string
	Nodes []Node
}

// Node is one element of a scene: a Group, Circle, Rect, Path, Text or Frozen.
type Node interface{ node() }

// Meta is what an element means, written into the SVG for readers and tests: its class, its id
// and data-* attributes (names without the "data-" prefix).
type Meta struct {
	Class, ID string
	Data      []Attr
}

// D is a data attribute of a Meta.
func D(name, value string) Attr { return Attr{Name: name, Value: value} }

// Attr is a data attribute.
type Attr = svg.Attr

// Paint is how a shape is filled and outlined.
type Paint struct {
	Fill        string // "" or "none": not filled
	Stroke      string // "" or "none": no outline
	StrokeWidth float64
	Dash        []float64 // dash and gap lengths of the outline
	Opacity     float64   // 0 means 1
}

// Group holds elements; Style is an inline CSS style for the SVG only.
type Group struct {
	Meta
	Style    string
	Children []Node
}

// Circle is a disc.
type Circle struct {
	Meta
	Paint
	CX, CY, R float64
}

// Rect is a rectangle with corners rounded by RX.
type Rect struct {
	Meta
	Paint
	X, Y, W, H, RX float64
}

// Path is a shape made of steps; an open path is only stroked (its outline with round ends).
type Path struct {
	Meta
	Paint
	Steps []Step
}

// Step is one step of a Path: MoveTo, LineTo, ArcTo or Close.
type Step struct {
	Op   byte // 'M', 'L', 'A', 'Z'
	X, Y float64
	// An arc ('A') goes around the centre (X, Y) at radius R from angle A0 to A1 (radians,
	// clockwise on screen when A1 > A0); the path must be at the arc's start already.
	R, A0, A1 float64
}

// MoveTo, LineTo, ArcTo and Close are Path steps.
func MoveTo(x, y float64) Step { return Step{Op: 'M', X: x, Y: y} }

// LineTo draws a line to (x, y).
func LineTo(x, y float64) Step { return Step{Op: 'L', X: x, Y: y} }

// ArcTo draws an arc around (cx, cy).
func ArcTo(cx, cy, r, a0, a1 float64) Step { return Step{Op: 'A', X: cx, Y: cy, R: r, A0: a0, A1: a1} }

// Close closes the subpath.
func Close() Step { return Step{Op: 'Z'} }

// Anchor is where a text stands relative to its X.
type Anchor string

// Anchors.
const (
	Start  Anchor = "start"
	Middle Anchor = "middle"
	End    Anchor = "end"
)

// Text is one line of text; Y is its baseline, or its middle when Centred.
type Text struct {
	Meta
	X, Y    float64
	Size    float64
	Bold    bool
	Anchor  Anchor // "" is Start
	Centred bool
	Fill    string // "" is dark grey
	Text    string
	// Words, when set, are Text in parts (Text is their English, perhaps cut short): a reader of
	// another language gets them said from translated parts, and a name in them as typed. Fit,
	// when above 0, is how many characters the line holds: a longer saying is cut with "…".
	Words Words
	Fit   int
	// Room, when above 0, is the width the text may take (its box's inside, its column): a
	// longer line is drawn smaller or cut short (Fitted). It is not written in the SVG.
	Room float64
	// Wrap lets a line too long for its Room take a second line, LineHeight below (Fitted).
	Wrap bool
}

// LineHeight is the distance between the lines of a wrapped text, in its size.
const LineHeight = 1.25

// Lines are the lines of a text as Fitted made them: one, or two when it wrapped.
func (t Text) Lines() []string { return strings.Split(t.Text, "\n") }

// Said is a line of text from its words, cut to fit characters when fit is above 0: Text is their
// English.
func Said(t Text, w Words, fit int) Text {
	t.Words, t.Fit = w, fit
	t.Text = Cut(w.String(), fit)
	return t
}

// Cut is s cut to n characters, its last one "…", when it is longer and n is above 0.
func Cut(s string, n int) string {
	if r := []rune(s); n > 0 && len(r) > n {
		return string(r[:max(n-1, 0)]) + "…"
	}
	return s
}

// Frozen is a part of a scene that never changes (a board under every position): its SVG is
// written once, when it is frozen, and copied into every document after.
type Frozen struct {
	Nodes []Node
	svg   svg.Drawing
}

// Freeze writes nodes' SVG once.
func Freeze(nodes []Node) Frozen {
	return Frozen{Nodes: nodes, svg: svg.Draw(func(w *svg.Writer) { Write(w, nodes) })}
}

func (Frozen) node() {}
func (Group) node()  {}
func (Circle) node() {}
func (Rect) node()   {}
func (Path) node()   {}
func (Text) node()   {}

// TextColor is a text's colour when it names none.
const TextColor = "#222222"

// Walk calls visit for every element under nodes, depth first, in drawing order.
func Walk(nodes []Node, visit func(Node)) {
	for _, n := range nodes {
		visit(n)
		switch n := n.(type) {
		case Group:
			Walk(n.Children, visit)
		case Frozen:
			Walk(n.Nodes, visit)
		}
	}
}

// Find is every element under nodes whose class list holds class, in drawing order.
func Find(nodes []Node, class string) []Node {
	var out []Node
	Walk(nodes, func(n Node) {
		if hasClass(metaOf(n).Class, class) {
			out = append(out, n)
		}
	})
	return out
}

// Data is a data attribute of an element found with Find, "" when absent.
func Data(n Node, name string) string {
	for _, a := range metaOf(n).Data {
		if a.Name == name {
			return a.Value
		}
	}
	return ""
}

func metaOf(n Node) Meta {
	switch n := n.(type) {
	case Group:
		return n.Meta
	case Circle:
		return n.Meta
	case Rect:
		return n.Meta
	case Path:
		return n.Meta
	case Text:
		return n.Meta
	}
	return Meta{}
}

func hasClass(classes, class string) bool {
	return strings.Contains(" "+classes+" ", " "+class+" ")
}
