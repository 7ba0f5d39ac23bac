// Package raster draws a scene as pixels and encodes it as PNG, in pure Go: shapes are filled by
// golang.org/x/image/vector, outlines are turned into filled shapes here, and texts are set in
// the Go fonts. It is the PNG twin of scene.SVG, from the same description.
package raster

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"math"
	"strconv"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"

	"primegames/domain/scene"
)

// MaxPixels bounds the pixels of one drawing (width × height): a bigger scale is refused.
const MaxPixels = 4 << 20

var regular, bold = mustParse(goregular.TTF), mustParse(gobold.TTF)

func mustParse(ttf []byte) *opentype.Font {
	f, err := opentype.Parse(ttf)
	if err != nil {
		panic(err)
	}
	return f
}

// Size is the scene's size in pixels at scale.
func Size(s *scene.Scene, scale float64) (width, height int) {
	return int(math.Ceil(s.Width * scale)), int(math.Ceil(s.Height * scale))
}

// PNG draws the scene at scale (pixels per unit) and encodes it.
func PNG(s *scene.Scene, scale float64) ([]byte, error) {
	img, err := Draw(s, scale)
	if err != nil {
		return nil, err
	}
	return encodePNG(img)
}

// Draw draws the scene at scale on a white canvas.
func Draw(s *scene.Scene, scale float64) (*image.RGBA, error) {
	w, h := Size(s, scale)
	if w <= 0 || h <= 0 || w*h > MaxPixels {
		return nil, fmt.Errorf("a picture of %d×%d pixels is beyond the bound of %d pixels", w, h, MaxPixels)
	}
	c := &canvas{img: image.NewRGBA(image.Rect(0, 0, w, h)), scale: scale, width: s.Width, faces: map[faceKey]font.Face{}}
	draw.Draw(c.img, c.img.Bounds(), image.White, image.Point{}, draw.Src)
	scene.Walk(s.Nodes, c.node)
	return c.img, nil
}

type faceKey struct {
	size float64
	bold bool
}

// canvas is one drawing in progress; its faces are its own, as a font face is not safe for
// concurrent use.
type canvas struct {
	img   *image.RGBA
	scale float64
	width float64 // the scene's, in its units
	ras   vector.Rasterizer
	faces map[faceKey]font.Face
}

type point struct{ x, y float64 }

// polygon is a closed outline in pixels.
type polygon []point

func (c *canvas) node(n scene.Node) {
	switch n := n.(type) {
	case scene.Circle:
		outline := c.circle(n.CX, n.CY, n.R, false)
		c.shape(n.Paint, []polygon{outline}, [][]point{outline}, func(width float64) []polygon {
			return []polygon{c.circle(n.CX, n.CY, n.R+width/2, false), c.circle(n.CX, n.CY, max(0, n.R-width/2), true)}
		})
	case scene.Rect:
		outline := c.roundRect(n.X, n.Y, n.W, n.H, n.RX)
		c.shape(n.Paint, []polygon{outline}, [][]point{append(outline, outline[0])}, nil)
	case scene.Path:
		lines, closed := c.flatten(n.Steps)
		var fill []polygon
		for i, l := range lines {
			if closed[i] || n.Fill != "" {
				fill = append(fill, polygon(l))
			}
		}
		c.shape(n.Paint, fill, lines, nil)
	case scene.Text:
		c.text(n)
	}
}

// shape fills the fill polygons and strokes the lines; a solid outline of a circle is the ring
// ring gives instead.
func (c *canvas) shape(p scene.Paint, fill []polygon, lines [][]point, ring func(width float64) []polygon) {
	opacity := p.Opacity
	if opacity <= 0 {
		opacity = 1
	}
	if col, ok := parseColor(p.Fill, opacity); ok && len(fill) > 0 {
		c.fill(fill, col)
	}
	col, ok := parseColor(p.Stroke, opacity)
	if !ok || p.StrokeWidth <= 0 {
		return
	}
	width := p.StrokeWidth * c.scale
	if ring != nil && len(p.Dash) == 0 {
		c.fill(ring(p.StrokeWidth), col)
		return
	}
	var parts []polygon
	for _, l := range lines {
		for _, piece := range dashes(l, p.Dash, c.scale) {
			parts = append(parts, stroke(piece, width)...)
		}
	}
	c.fill(parts, col)
}

// fill fills polygons, drawing only within their bounds so the cost is their area, not the
// canvas's.
func (c *canvas) fill(polys []polygon, col color.Color) {
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range polys {
		for _, q := range p {
			minX, minY, maxX, maxY = min(minX, q.x), min(minY, q.y), max(maxX, q.x), max(maxY, q.y)
		}
	}
	bounds := image.Rect(int(math.Floor(minX)), int(math.Floor(minY)), int(math.Ceil(maxX))+1, int(math.Ceil(maxY))+1).Intersect(c.img.Bounds())
	if bounds.Empty() {
		return
	}
	ox, oy := float32(bounds.Min.X), float32(bounds.Min.Y)
	c.ras.Reset(bounds.Dx(), bounds.Dy())
	for _, p := range polys {
		if len(p) < 3 {
			continue
		}
		c.ras.MoveTo(float32(p[0].x)-ox, float32(p[0].y)-oy)
		for _, q := range p[1:] {
			c.ras.LineTo(float32(q.x)-ox, float32(q.y)-oy)
		}
		c.ras.ClosePath()
	}
	c.ras.Draw(c.img, bounds, image.NewUniform(col), image.Point{})
}

// circle is a circle in pixels; reversed runs the other way round, to cut a hole.
func (c *canvas) circle(cx, cy, r float64, reversed bool) polygon {
	return arc(point{cx * c.scale, cy * c.scale}, r*c.scale, 0, 2*math.Pi, reversed)
}

func arc(centre point, r, a0, a1 float64, reversed bool) polygon {
	n := max(8, int(math.Ceil(math.Abs(a1-a0)*math.Sqrt(max(r, 1))*1.5)))
	out := make(polygon, 0, n+1)
	for i := 0; i <= n; i++ {
		t := float64(i) / float64(n)
		if reversed {
			t = 1 - t
		}
		a := a0 + (a1-a0)*t
		out = append(out, point{centre.x + r*math.Cos(a), centre.y + r*math.Sin(a)})
	}
	return out
}

func (c *canvas) roundRect(x, y, w, h, r float64) polygon {
	s := c.scale
	x, y, w, h, r = x*s, y*s, w*s, h*s, min(r*s, w/2, h/2)
	if r <= 0 {
		return polygon{{x, y}, {x + w, y}, {x + w, y + h}, {x, y + h}}
	}
	var out polygon
	out = append(out, arc(point{x + w - r, y + r}, r, -math.Pi/2, 0, false)...)
	out = append(out, arc(point{x + w - r, y + h - r}, r, 0, math.Pi/2, false)...)
	out = append(out, arc(point{x + r, y + h - r}, r, math.Pi/2, math.Pi, false)...)
	out = append(out, arc(point{x + r, y + r}, r, math.Pi, 3*math.Pi/2, false)...)
	return out
}

// flatten turns a path's steps into lines of points in pixels, and says which are closed.
func (c *canvas) flatten(steps []scene.Step) (lines [][]point, closed []bool) {
	s := c.scale
	var cur []point
	end := func(isClosed bool) {
		if len(cur) > 1 {
			if isClosed {
				cur = append(cur, cur[0])
			}
			lines, closed = append(lines, cur), append(closed, isClosed)
		}
		cur = nil
	}
	for _, st := range steps {
		switch st.Op {
		case 'M':
			end(false)
			cur = []point{{st.X * s, st.Y * s}}
		case 'L':
			cur = append(cur, point{st.X * s, st.Y * s})
		case 'A':
			cur = append(cur, arc(point{st.X * s, st.Y * s}, st.R*s, st.A0, st.A1, false)[1:]...)
		case 'Z':
			end(true)
		}
	}
	end(false)
	return lines, closed
}

// dashes cuts a line into its dashes (lengths in units); no dash pattern is the whole line.
func dashes(line []point, pattern []float64, scale float64) [][]point {
	if len(pattern) == 0 {
		return [][]point{line}
	}
	var out [][]point
	var cur []point
	k, left, on := 0, pattern[0]*scale, true
	if on {
		cur = []point{line[0]}
	}
	for i := 1; i < len(line); i++ {
		a, b := line[i-1], line[i]
		seg := math.Hypot(b.x-a.x, b.y-a.y)
		for seg > 0 {
			step := min(seg, left)
			t := step / math.Hypot(b.x-a.x, b.y-a.y)
			p := point{a.x + (b.x-a.x)*t, a.y + (b.y-a.y)*t}
			if on {
				cur = append(cur, p)
			}
			a, seg, left = p, seg-step, left-step
			if left <= 1e-9 {
				if on && len(cur) > 1 {
					out = append(out, cur)
				}
				on = !on
				cur = nil
				if on {
					cur = []point{p}
				}
				k = (k + 1) % len(pattern)
				left = max(pattern[k]*scale, 0.5)
			}
		}
	}
	if on && len(cur) > 1 {
		out = append(out, cur)
	}
	return out
}

// stroke is the outline of a line of the given width as filled pieces, all wound the same way:
// a quadrilateral per segment and a disc at every point (round joins and ends).
func stroke(line []point, width float64) []polygon {
	h := width / 2
	var out []polygon
	for i := 1; i < len(line); i++ {
		a, b := line[i-1], line[i]
		d := math.Hypot(b.x-a.x, b.y-a.y)
		if d == 0 {
			continue
		}
		nx, ny := -(b.y-a.y)/d*h, (b.x-a.x)/d*h
		out = append(out, polygon{{a.x + nx, a.y + ny}, {a.x - nx, a.y - ny}, {b.x - nx, b.y - ny}, {b.x + nx, b.y + ny}})
	}
	if h >= 0.75 {
		for _, p := range line {
			out = append(out, arc(p, h, 0, 2*math.Pi, false))
		}
	}
	return out
}

func (c *canvas) face(size float64, isBold bool) font.Face {
	key := faceKey{size * c.scale, isBold}
	if f, ok := c.faces[key]; ok {
		return f
	}
	f := regular
	if isBold {
		f = bold
	}
	face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: key.size, DPI: 72, Hinting: font.HintingNone})
	if err != nil {
		panic(err) // only for a size below zero
	}
	c.faces[key] = face
	return face
}

func (c *canvas) text(t scene.Text) {
	t = scene.FittedIn(t, c.width)
	if t.Size <= 0 || t.Text == "" {
		return
	}
	face := c.face(t.Size, t.Bold)
	col, ok := parseColor(t.Fill, 1)
	if !ok {
		col, _ = parseColor(scene.TextColor, 1)
	}
	for i, line := range t.Lines() {
		x, y := t.X*c.scale, (t.Y+float64(i)*t.Size*scene.LineHeight)*c.scale
		width := float64(font.MeasureString(face, line)) / 64
		switch t.Anchor {
		case scene.Middle:
			x -= width / 2
		case scene.End:
			x -= width
		}
		if t.Centred {
			m := face.Metrics()
			y += float64(m.CapHeight) / 64 / 2
		}
		d := font.Drawer{Dst: c.img, Src: image.NewUniform(col), Face: face, Dot: fixed.Point26_6{X: fixed.Int26_6(x * 64), Y: fixed.Int26_6(y * 64)}}
		d.DrawString(line)
	}
}

// parseColor reads "#rrggbb"; "", "none" and anything else are no colour.
func parseColor(s string, opacity float64) (color.Color, bool) {
	if len(s) != 7 || s[0] != '#' {
		return nil, false
	}
	v, err := strconv.ParseUint(s[1:], 16, 32)
	if err != nil {
		return nil, false
	}
	return color.NRGBA{R: uint8(v >> 16), G: uint8(v >> 8), B: uint8(v), A: uint8(math.Round(255 * opacity))}, true
}
