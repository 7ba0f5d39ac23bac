package primeclimb

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"primegames/domain"
	"primegames/domain/scene"
)

// Palette is the colour of each of the board's colour names (Square.Colors) in the pictures.
var Palette = map[string]string{
	"orange": "#f39c34", "green": "#3daa5a", "blue": "#2e86de", "purple": "#8e5bb5", "red": "#d93b30",
	"white": "#ffffff", "start": "#c9ced6", "home": "#f4c430",
}

// SeatColors are the pawns' colours, seat 0 first; none of them is a colour of the board.
var SeatColors = []string{"#e91e8c", "#00bcd4", "#ffe93b", "#6d4c41"}

// pawnInk is the colour of the pawn number on each seat's pawns, readable on its colour.
var pawnInk = []string{"#ffffff", "#111111", "#111111", "#ffffff"}

const (
	boardCentreX, boardCentreY = 320.0, 325.0
	squareRadius               = 19.0
	bigSquareRadius            = 29.0 // Start and Home
	spiralPitch                = 50.0 // distance between two turns of the spiral
	squareSpacing              = 45.0 // distance along the spiral between two squares
	innerRadius                = 62.0 // where 100 lies, around Home in the centre
	boardSize                  = 650.0
	pawnRadius                 = 9.0
	background                 = "#fbf7ef"
)

// spiral is where the track lies at k squares out from Home (k = 101 − number; Start a little
// further), and offset units outwards: the gap between two turns is at offset ±spiralPitch/2.
func spiral(k, offset float64) (x, y float64) {
	b := spiralPitch / (2 * math.Pi)
	theta0 := innerRadius / b
	theta := math.Sqrt(theta0*theta0 + 2*(k-1)*squareSpacing/b)
	r, angle := b*theta+offset, theta+spiralTurn
	return boardCentreX + r*math.Cos(angle), boardCentreY + r*math.Sin(angle)
}

// startK is Start's place on the track: it is larger, so a little more room before it.
const startK = float64(Home) + 0.4

// spiralTurn turns the spiral so that Start lies at the bottom, as on the board.
var spiralTurn = func() float64 {
	b := spiralPitch / (2 * math.Pi)
	theta0 := innerRadius / b
	return math.Pi/2 - math.Sqrt(theta0*theta0+2*(startK-1)*squareSpacing/b)
}()

// trackK is square n's place on the track.
func trackK(n int) float64 {
	if n == Start {
		return startK
	}
	return float64(Home - n)
}

// squareCentres are the centres of the 102 circles: Home in the middle, then the spiral outwards
// down to Start, which lies at the bottom as on the board.
var squareCentres = func() [Home + 1][2]float64 {
	var at [Home + 1][2]float64
	for n := range at {
		if n == Home {
			at[n] = [2]float64{boardCentreX, boardCentreY}
			continue
		}
		x, y := spiral(trackK(n), 0)
		at[n] = [2]float64{x, y}
	}
	return at
}()

func radiusOf(n int) float64 {
	if n == Start || n == Home {
		return bigSquareRadius
	}
	return squareRadius
}

// look is what a layout changes: the numbers' size on the board, and where the panel stands and
// how large its type is (k times the desktop's).
type look struct {
	numSize, numHole       float64 // the numbers' type size; the white hole behind them, as a share of the radius
	panelX, panelY, panelW float64
	k                      float64
}

var looks = map[domain.Layout]look{
	domain.Desktop: {numSize: 13, numHole: 0.6, panelX: 650, panelY: 0, panelW: 320, k: 1},
	domain.Phone:   {numSize: 16, numHole: 0.7, panelX: 24, panelY: boardSize, panelW: boardSize - 48, k: 1.7},
}

func lookOf(l domain.Layout) look {
	if lk, ok := looks[l]; ok {
		return lk
	}
	return looks[domain.Desktop]
}

// picture draws the board and the positions of Prime Climb.
var picture = &domain.Picture{Title: "Prime Climb", Board: boardOf, Legend: legendFrame, Position: drawPosition}

// boards is the board in each layout, drawn once: it never changes.
var boards = func() map[domain.Layout][]scene.Node {
	out := map[domain.Layout][]scene.Node{}
	for _, l := range domain.Layouts {
		out[l] = []scene.Node{scene.Freeze(drawSquares(lookOf(l)))}
	}
	return out
}()

func boardOf(l domain.Layout) []scene.Node {
	if b, ok := boards[l]; ok {
		return b
	}
	return boards[domain.Desktop]
}

func drawSquares(lk look) []scene.Node {
	g := scene.Group{Meta: scene.Meta{ID: "board"}}
	for _, sq := range Board() {
		g.Children = append(g.Children, drawSquare(sq, lk))
	}
	return []scene.Node{g}
}

func drawSquare(sq Square, lk look) scene.Node {
	c, r := squareCentres[sq.Number], radiusOf(sq.Number)
	g := scene.Group{Meta: scene.Meta{Class: "square", ID: "square-" + strconv.Itoa(sq.Number), Data: []scene.Attr{scene.D("number", strconv.Itoa(sq.Number))}}}
	colors := sq.Colors
	if sq.Red {
		colors = []string{"red"} // a prime above 10 is red all over
	}
	if len(colors) == 1 {
		g.Children = append(g.Children, scene.Circle{Meta: wedge(colors[0]), Paint: scene.Paint{Fill: Palette[colors[0]]}, CX: c[0], CY: c[1], R: r})
	} else {
		step := 2 * math.Pi / float64(len(colors))
		for i, name := range colors {
			a0, a1 := -math.Pi/2+float64(i)*step, -math.Pi/2+float64(i+1)*step
			g.Children = append(g.Children, scene.Path{Meta: wedge(name), Paint: scene.Paint{Fill: Palette[name]}, Steps: []scene.Step{
				scene.MoveTo(c[0], c[1]), scene.LineTo(c[0]+r*math.Cos(a0), c[1]+r*math.Sin(a0)), scene.ArcTo(c[0], c[1], r, a0, a1), scene.Close()}})
		}
	}
	g.Children = append(g.Children,
		scene.Circle{Paint: scene.Paint{Stroke: "#444444", StrokeWidth: 1.5}, CX: c[0], CY: c[1], R: r},
		scene.Circle{Paint: scene.Paint{Fill: "#ffffff"}, CX: c[0], CY: c[1], R: r * lk.numHole})
	label, size := strconv.Itoa(sq.Number), lk.numSize
	switch sq.Number {
	case Start:
		label, size = "Start", lk.numSize*0.85
	case Home:
		size = lk.numSize * 1.15
	}
	g.Children = append(g.Children, scene.Text{Meta: scene.Meta{Class: "num"}, X: c[0], Y: c[1], Size: size, Bold: true, Anchor: scene.Middle, Centred: true, Text: label})
	return g
}

func wedge(color string) scene.Meta {
	return scene.Meta{Class: "wedge", Data: []scene.Attr{scene.D("color", color)}}
}

// drawPosition draws pawns, the last move and the panel of one view.
func drawPosition(l domain.Layout, pos domain.Position) (domain.Frame, error) {
	var v View
	if err := json.Unmarshal(pos.View, &v); err != nil {
		return domain.Frame{}, fmt.Errorf("prime-climb view: %w", err)
	}
	var last *Outcome
	if len(pos.Last) > 0 {
		last = &Outcome{}
		if err := json.Unmarshal(pos.Last, last); err != nil {
			return domain.Frame{}, fmt.Errorf("prime-climb outcome: %w", err)
		}
	}
	who := domain.SeatsWho(pos.Players, len(v.Players))
	lk := lookOf(l)
	f := frameOf(lk, len(v.Players))
	f.Words = describe(v, last, who)
	f.Nodes = append(f.Nodes, drawLastMove(last)...)
	f.Nodes = append(f.Nodes, drawPawns(v))
	f.Nodes = append(f.Nodes, drawPanel(lk, v, last, who, pos.You))
	return f, nil
}

// frameOf is a position's frame in a look, for a number of seats: the phone's panel grows with them.
func frameOf(lk look, seats int) domain.Frame {
	f := domain.Frame{Width: 980, Height: 660, Background: background}
	if lk.panelY > 0 {
		f.Width, f.Height = boardSize, lk.panelY+lk.k*panelHeight(seats)
	}
	f.Counter = scene.Text{X: 16, Y: 24, Size: 14 * lk.k}
	if lk.panelY > 0 {
		f.Counter.Y = 32
	}
	return f
}
