package scene

import (
	"math"
	"strings"

	"primegames/domain/svg"
)

// SVG is the scene as a whole SVG document.
func (s *Scene) SVG() []byte {
	w := s.Begin()
	Write(w, s.Nodes)
	return w.Bytes()
}

// Begin starts the scene's SVG document, without its nodes: a caller writes them (Write) in parts.
func (s *Scene) Begin() *svg.Writer {
	return svg.Document(s.Width, s.Height, s.Title.String(), s.Desc.String(), s.Style)
}

// Write writes nodes as SVG elements.
func Write(w *svg.Writer, nodes []Node) {
	for _, n := range nodes {
		writeNode(w, n)
	}
}

func writeNode(w *svg.Writer, n Node) {
	switch n := n.(type) {
	case Frozen:
		w.Put(n.svg)
	case Group:
		attrs := meta(n.Meta)
		if n.Style != "" {
			attrs = append(attrs, svg.A("style", n.Style))
		}
		w.Open("g", attrs...)
		Write(w, n.Children)
		w.Close()
	case Circle:
		w.Empty("circle", append(append(meta(n.Meta), svg.N("cx", n.CX), svg.N("cy", n.CY), svg.N("r", n.R)), paint(n.Paint, false)...)...)
	case Rect:
		attrs := append(meta(n.Meta), svg.N("x", n.X), svg.N("y", n.Y), svg.N("width", n.W), svg.N("height", n.H))
		if n.RX > 0 {
			attrs = append(attrs, svg.N("rx", n.RX))
		}
		w.Empty("rect", append(attrs, paint(n.Paint, false)...)...)
	case Path:
		w.Empty("path", append(append(meta(n.Meta), svg.A("d", pathData(n.Steps))), paint(n.Paint, true)...)...)
	case Text:
		n = FittedIn(n, w.Width)
		attrs := append(meta(n.Meta), svg.N("x", n.X), svg.N("y", n.Y), svg.N("font-size", n.Size))
		if n.Bold {
			attrs = append(attrs, svg.A("font-weight", "bold"))
		}
		if n.Anchor != "" && n.Anchor != Start {
			attrs = append(attrs, svg.A("text-anchor", string(n.Anchor)))
		}
		if n.Centred {
			attrs = append(attrs, svg.A("dominant-baseline", "central"))
		}
		fill := n.Fill
		if fill == "" {
			fill = TextColor
		}
		attrs = append(attrs, svg.A("fill", fill))
		lines := n.Lines()
		if len(lines) == 1 {
			w.Text("text", n.Text, attrs...)
			return
		}
		w.Open("text", attrs...)
		for i, l := range lines {
			if i == 0 {
				w.Text("tspan", l)
			} else {
				w.Text("tspan", l, svg.N("x", n.X), svg.N("dy", n.Size*LineHeight))
			}
		}
		w.Close()
	}
}

func meta(m Meta) []svg.Attr {
	var attrs []svg.Attr
	if m.Class != "" {
		attrs = append(attrs, svg.A("class", m.Class))
	}
	if m.ID != "" {
		attrs = append(attrs, svg.A("id", m.ID))
	}
	for _, d := range m.Data {
		attrs = append(attrs, svg.A("data-"+d.Name, d.Value))
	}
	return attrs
}

func paint(p Paint, roundEnds bool) []svg.Attr {
	fill := p.Fill
	if fill == "" {
		fill = "none"
	}
	attrs := []svg.Attr{svg.A("fill", fill)}
	if p.Stroke != "" && p.Stroke != "none" {
		attrs = append(attrs, svg.A("stroke", p.Stroke), svg.N("stroke-width", p.StrokeWidth))
		if roundEnds {
			attrs = append(attrs, svg.A("stroke-linecap", "round"), svg.A("stroke-linejoin", "round"))
		}
		if len(p.Dash) > 0 {
			parts := make([]string, len(p.Dash))
			for i, d := range p.Dash {
				parts[i] = svg.Num(d)
			}
			attrs = append(attrs, svg.A("stroke-dasharray", strings.Join(parts, " ")))
		}
	}
	if p.Opacity > 0 && p.Opacity < 1 {
		attrs = append(attrs, svg.N("opacity", p.Opacity))
	}
	return attrs
}

// pathData is the steps as an SVG path's d; an arc longer than half a turn is split in two.
func pathData(steps []Step) string {
	var b strings.Builder
	for _, st := range steps {
		switch st.Op {
		case 'M', 'L':
			b.WriteString(string(st.Op) + svg.Num(st.X) + " " + svg.Num(st.Y))
		case 'Z':
			b.WriteString("Z")
		case 'A':
			arc := func(a0, a1 float64) {
				sweep := "1"
				if a1 < a0 {
					sweep = "0"
				}
				b.WriteString("A" + svg.Num(st.R) + " " + svg.Num(st.R) + " 0 0 " + sweep + " " +
					svg.Num(st.X+st.R*math.Cos(a1)) + " " + svg.Num(st.Y+st.R*math.Sin(a1)))
			}
			if math.Abs(st.A1-st.A0) > math.Pi {
				mid := (st.A0 + st.A1) / 2
				arc(st.A0, mid)
				arc(mid, st.A1)
			} else {
				arc(st.A0, st.A1)
			}
		}
	}
	return b.String()
}
