package primeclimb

import (
	"math"
	"sort"
	"strconv"

	"primegames/domain/scene"
)

func seatColor(seat int) string { return SeatColors[seat%len(SeatColors)] }

// pawnSlot is where the i-th of several pawns on square n stands: beside the circle, never on its
// number; the first ones on the outer side of the track, as moves run along its inner side.
func pawnSlot(n, i, count int) (x, y float64) {
	c, r := squareCentres[n], radiusOf(n)
	outward := math.Pi / 2 // Home: below, toward Start
	if n != Home {
		outward = math.Atan2(c[1]-boardCentreY, c[0]-boardCentreX)
	}
	dist := r + 4
	step := (2*pawnRadius + 2) / dist
	if float64(count)*step > 2*math.Pi {
		step = 2 * math.Pi / float64(count)
	}
	// 0, +1, −1, +2, −2 … steps from the outward direction.
	turn := float64((i+1)/2) * step
	if i%2 == 0 {
		turn = -turn
	}
	a := outward + turn
	return c[0] + dist*math.Cos(a), c[1] + dist*math.Sin(a)
}

// drawPawns draws every pawn beside its square in its seat's colour, with its number (0 or 1, as
// the hints and the actions name pawns).
func drawPawns(v View) scene.Node {
	type pawn struct{ seat, index int }
	at := map[int][]pawn{}
	for _, p := range v.Players {
		for i, n := range p.Pawns {
			if n >= Start && n <= Home {
				at[n] = append(at[n], pawn{p.Seat, i})
			}
		}
	}
	squares := make([]int, 0, len(at))
	for n := range at {
		squares = append(squares, n)
	}
	sort.Ints(squares)
	g := scene.Group{Meta: scene.Meta{ID: "pawns"}}
	for _, n := range squares {
		for slot, p := range at[n] {
			x, y := pawnSlot(n, slot, len(at[n]))
			g.Children = append(g.Children, pawnMark(x, y, 1, p.seat, p.index, n))
		}
	}
	return g
}

// pawnMark is one pawn at (x, y), size times the board's; square is where it stands, −1 for the
// panel's key.
func pawnMark(x, y, size float64, seat, index, square int) scene.Node {
	meta := scene.Meta{Class: "pawn", Data: []scene.Attr{scene.D("seat", strconv.Itoa(seat)), scene.D("pawn", strconv.Itoa(index))}}
	if square >= 0 {
		meta.Data = append(meta.Data, scene.D("square", strconv.Itoa(square)))
	}
	return scene.Group{Meta: meta, Children: []scene.Node{
		scene.Circle{Paint: scene.Paint{Fill: seatColor(seat), Stroke: "#222222", StrokeWidth: 2}, CX: x, CY: y, R: pawnRadius * size},
		scene.Text{X: x, Y: y, Size: 12 * size, Bold: true, Anchor: scene.Middle, Centred: true, Fill: pawnInk[seat%len(pawnInk)], Text: strconv.Itoa(index)},
	}}
}

const (
	trackStep  = 0.3 // squares between two points of a drawn track
	moveOffset = -spiralPitch / 2
	bumpOffset = spiralPitch / 2
	bumpColor  = "#555555"
)

// trackPath is the way along the track from square a to square b, in the gap between two turns
// (offset from the squares' centres): it leaves a's circle and ends at b's, so it covers no
// number. Home is reached straight from the innermost turn.
func trackPath(a, b int, offset float64) []scene.Step {
	ka, kb := trackK(a), trackK(b)
	if a == Home {
		ka = 1
	}
	if b == Home {
		kb = 1
	}
	edge := func(n int, k float64) (float64, float64) { // where the track meets n's circle
		c, r := squareCentres[n], radiusOf(n)
		x, y := spiral(k, offset)
		if n == Home {
			x, y = spiral(1, offset)
		}
		d := math.Hypot(x-c[0], y-c[1])
		return c[0] + (x-c[0])/d*r, c[1] + (y-c[1])/d*r
	}
	x, y := edge(a, ka)
	steps := []scene.Step{scene.MoveTo(x, y)}
	count := int(math.Ceil(math.Abs(kb-ka) / trackStep))
	for i := 0; i <= count; i++ {
		x, y := spiral(ka+(kb-ka)*float64(i)/float64(max(count, 1)), offset)
		steps = append(steps, scene.LineTo(x, y))
	}
	x, y = edge(b, kb)
	return append(steps, scene.LineTo(x, y))
}

// arrowHead is a filled triangle at the end of steps, pointing the way they go.
func arrowHead(steps []scene.Step, color string, size float64) scene.Path {
	tip, from := steps[len(steps)-1], steps[len(steps)-2]
	for i := len(steps) - 2; i > 0 && math.Hypot(tip.X-from.X, tip.Y-from.Y) < size; i-- {
		from = steps[i-1]
	}
	d := math.Hypot(tip.X-from.X, tip.Y-from.Y)
	ux, uy := (tip.X-from.X)/d, (tip.Y-from.Y)/d
	bx, by := tip.X-ux*size, tip.Y-uy*size
	return scene.Path{Paint: scene.Paint{Fill: color, Stroke: "#222222", StrokeWidth: 1}, Steps: []scene.Step{
		scene.MoveTo(tip.X, tip.Y), scene.LineTo(bx-uy*size*0.55, by+ux*size*0.55), scene.LineTo(bx+uy*size*0.55, by-ux*size*0.55), scene.Close()}}
}

// drawLastMove draws every pawn movement of the last action as an arrow in the mover's colour
// along the inner side of the track, and every bump as a grey dashed arrow back to Start along
// its outer side.
func drawLastMove(last *Outcome) []scene.Node {
	if last == nil {
		return nil
	}
	g := scene.Group{Meta: scene.Meta{ID: "last-move"}}
	arrow := func(seat, from, to int) {
		if from == to || from < Start || to < Start || from > Home || to > Home {
			return
		}
		steps := trackPath(from, to, moveOffset)
		g.Children = append(g.Children, scene.Group{
			Meta: scene.Meta{Class: "move", Data: []scene.Attr{scene.D("seat", strconv.Itoa(seat)), scene.D("from", strconv.Itoa(from)), scene.D("to", strconv.Itoa(to))}},
			Children: []scene.Node{
				scene.Path{Paint: scene.Paint{Stroke: seatColor(seat), StrokeWidth: 5, Opacity: 0.9}, Steps: steps},
				arrowHead(steps, seatColor(seat), 12),
			}})
	}
	bump := func(b Bump) {
		if b.From <= Start || b.From > Home {
			return
		}
		steps := trackPath(b.From, Start, bumpOffset)
		g.Children = append(g.Children, scene.Group{
			Meta: scene.Meta{Class: "bump", Data: []scene.Attr{scene.D("seat", strconv.Itoa(b.Seat)), scene.D("pawn", strconv.Itoa(b.Pawn)), scene.D("from", strconv.Itoa(b.From))}},
			Children: []scene.Node{
				scene.Path{Paint: scene.Paint{Stroke: bumpColor, StrokeWidth: 2.5, Dash: []float64{7, 5}}, Steps: steps},
				arrowHead(steps, bumpColor, 10),
			}})
	}
	for _, st := range last.Steps {
		if st.From != nil && st.To != nil {
			arrow(st.Seat, *st.From, *st.To)
		}
	}
	for _, b := range last.Bumps {
		bump(b)
	}
	if d := last.Draw; d != nil {
		for _, m := range d.Moves {
			arrow(m.Seat, m.From, m.To)
		}
		for _, b := range d.Bumps {
			bump(b)
		}
	}
	return []scene.Node{g}
}
