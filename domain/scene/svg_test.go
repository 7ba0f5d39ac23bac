package scene

import (
	"strings"
	"testing"

	"primegames/domain/svg/svgtest"
)

func TestTheSVGCarriesWhatTheSceneSaysAndMeans(t *testing.T) {
	s := &Scene{Width: 100, Height: 50, Title: Say("t"), Desc: Say("d"), Nodes: []Node{
		Group{Meta: Meta{Class: "pawn you", ID: "p", Data: []Attr{D("seat", "1")}}, Children: []Node{
			Circle{Paint: Paint{Fill: "#ff0000", Stroke: "#000000", StrokeWidth: 2}, CX: 10, CY: 20, R: 5},
			Text{X: 50, Y: 20, Size: 12, Bold: true, Anchor: Middle, Centred: true, Text: "0 & <1>"},
		}},
		Path{Meta: Meta{Class: "move"}, Paint: Paint{Stroke: "#00ff00", StrokeWidth: 3, Dash: []float64{4, 2}, Opacity: 0.5},
			Steps: []Step{MoveTo(60, 25), ArcTo(50, 25, 10, 0, 1.5*3.14159265)}},
	}}
	root := svgtest.Parse(t, s.SVG())
	pawn := root.All("you")
	if len(pawn) != 1 || pawn[0].Attr("data-seat") != "1" || pawn[0].Attr("id") != "p" {
		t.Fatalf("the group's meaning is lost: %+v", pawn)
	}
	circle, _ := pawn[0].Child("circle")
	text, _ := pawn[0].Child("text")
	if circle.Attr("fill") != "#ff0000" || circle.Attr("stroke-width") != "2" || text.Text != "0 & <1>" ||
		text.Attr("text-anchor") != "middle" || text.Attr("dominant-baseline") != "central" || text.Attr("font-weight") != "bold" {
		t.Fatalf("circle %+v, text %+v", circle.Attrs, text)
	}
	move := root.All("move")[0]
	if d := move.Attr("d"); strings.Count(d, "A") != 2 || move.Attr("stroke-dasharray") != "4 2" || move.Attr("opacity") != "0.5" || move.Attr("fill") != "none" {
		t.Fatalf("the path is %+v: an arc over half a turn is two SVG arcs", move.Attrs)
	}
	if got := Find(s.Nodes, "pawn"); len(got) != 1 || Data(got[0], "seat") != "1" {
		t.Fatalf("Find found %v", got)
	}
}
