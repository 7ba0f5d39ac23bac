package raster

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"
	"testing"

	"primegames/domain/scene"
)

func rgb(c color.Color) [3]uint8 {
	r, g, b, _ := c.RGBA()
	return [3]uint8{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8)}
}

func drawn(t *testing.T, scale float64, nodes ...scene.Node) *image.RGBA {
	t.Helper()
	img, err := Draw(&scene.Scene{Width: 100, Height: 60, Nodes: nodes}, scale)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

var (
	white = [3]uint8{255, 255, 255}
	red   = [3]uint8{255, 0, 0}
	blue  = [3]uint8{0, 0, 255}
)

func TestShapesAreFilledAndOutlinedWhereTheSceneSays(t *testing.T) {
	img := drawn(t, 2,
		scene.Circle{Paint: scene.Paint{Fill: "#ff0000"}, CX: 20, CY: 20, R: 10},
		scene.Circle{Paint: scene.Paint{Stroke: "#0000ff", StrokeWidth: 4}, CX: 70, CY: 20, R: 12},
		scene.Rect{Paint: scene.Paint{Fill: "#0000ff"}, X: 10, Y: 40, W: 30, H: 10, RX: 3},
	)
	if img.Bounds().Size() != image.Pt(200, 120) {
		t.Fatalf("size %v, want the scene's × 2", img.Bounds().Size())
	}
	for _, p := range []struct {
		x, y float64
		want [3]uint8
	}{
		{20, 20, red}, {20, 8, white}, {29, 20, red}, // the disc and just outside it
		{70, 20, white}, {82, 20, blue}, {70, 8, blue}, {70, 3, white}, // the ring and its hole
		{25, 45, blue}, {10.3, 40.3, white}, // the rectangle, its corner rounded off
	} {
		if got := rgb(img.At(int(p.x*2), int(p.y*2))); got != p.want {
			t.Errorf("(%v, %v) is %v, want %v", p.x, p.y, got, p.want)
		}
	}
}

func TestPathsAreStrokedWithTheirDashes(t *testing.T) {
	line := []scene.Step{scene.MoveTo(10, 30), scene.LineTo(90, 30)}
	solid := drawn(t, 1, scene.Path{Paint: scene.Paint{Stroke: "#ff0000", StrokeWidth: 4}, Steps: line})
	dashed := drawn(t, 1, scene.Path{Paint: scene.Paint{Stroke: "#ff0000", StrokeWidth: 4, Dash: []float64{10, 10}}, Steps: line})
	for x := 12; x < 88; x++ {
		if rgb(solid.At(x, 30)) != red {
			t.Fatalf("the solid line is not red at x=%d", x)
		}
	}
	// Dashes of 10 from x=10: red on [10, 20), white (less the round ends) on [20, 30), …
	for _, p := range []struct {
		x    int
		want [3]uint8
	}{{15, red}, {25, white}, {35, red}, {45, white}, {55, red}} {
		if got := rgb(dashed.At(p.x, 30)); got != p.want {
			t.Errorf("the dashed line at x=%d is %v, want %v", p.x, got, p.want)
		}
	}
	// An arc is stroked along the circle.
	arc := drawn(t, 1, scene.Path{Paint: scene.Paint{Stroke: "#0000ff", StrokeWidth: 3}, Steps: []scene.Step{
		scene.MoveTo(70, 30), scene.ArcTo(50, 30, 20, 0, math.Pi)}})
	if rgb(arc.At(50, 50)) != blue || rgb(arc.At(50, 10)) != white {
		t.Errorf("the half circle below is %v at its bottom, %v above", rgb(arc.At(50, 50)), rgb(arc.At(50, 10)))
	}
}

func TestTextIsSetAtItsAnchor(t *testing.T) {
	ink := func(img *image.RGBA, x0, x1 int) bool {
		for x := x0; x < x1; x++ {
			for y := 10; y < 40; y++ {
				if rgb(img.At(x, y)) != white {
					return true
				}
			}
		}
		return false
	}
	middle := drawn(t, 1, scene.Text{X: 50, Y: 30, Size: 20, Bold: true, Anchor: scene.Middle, Text: "88"})
	start := drawn(t, 1, scene.Text{X: 50, Y: 30, Size: 20, Text: "88"})
	if !ink(middle, 35, 50) || !ink(middle, 50, 65) || ink(middle, 0, 30) || ink(middle, 70, 100) {
		t.Error("a middle-anchored text is not centred on its x")
	}
	if ink(start, 0, 49) || !ink(start, 50, 70) {
		t.Error("a start-anchored text does not begin at its x")
	}
}

func TestOpacityBlendsWithWhatIsUnder(t *testing.T) {
	img := drawn(t, 1, scene.Rect{Paint: scene.Paint{Fill: "#000000", Opacity: 0.5}, W: 100, H: 60})
	if got := rgb(img.At(50, 30)); got[0] < 120 || got[0] > 135 {
		t.Errorf("half black on white is %v", got)
	}
}

func TestAPictureBeyondTheBoundIsRefused(t *testing.T) {
	s := &scene.Scene{Width: 2000, Height: 2000}
	if _, err := Draw(s, 1.5); err == nil {
		t.Fatal("a 3000 × 3000 picture was drawn")
	}
	doc, err := PNG(&scene.Scene{Width: 10, Height: 10}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if img, err := png.Decode(bytes.NewReader(doc)); err != nil || img.Bounds().Dx() != 10 {
		t.Fatalf("the PNG does not decode: %v", err)
	}
}

// The PNG decodes to exactly the pixels drawn.
func TestThePNGHoldsThePixelsDrawn(t *testing.T) {
	s := &scene.Scene{Width: 40, Height: 30, Nodes: []scene.Node{
		scene.Circle{Paint: scene.Paint{Fill: "#12ab34", Stroke: "#ff0000", StrokeWidth: 2}, CX: 20, CY: 15, R: 9},
		scene.Text{X: 2, Y: 28, Size: 9, Text: "Ada 7"},
	}}
	img, err := Draw(s, 1.5)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := PNG(s, 1.5)
	if err != nil {
		t.Fatal(err)
	}
	back, err := png.Decode(bytes.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	if back.Bounds() != img.Bounds() {
		t.Fatalf("bounds %v, drawn %v", back.Bounds(), img.Bounds())
	}
	for y := range img.Bounds().Dy() {
		for x := range img.Bounds().Dx() {
			if rgb(back.At(x, y)) != rgb(img.At(x, y)) {
				t.Fatalf("(%d, %d) is %v in the PNG, %v drawn", x, y, rgb(back.At(x, y)), rgb(img.At(x, y)))
			}
		}
	}
}
