package primeclimb

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"primegames/domain"
	"primegames/domain/svg"
)

// Palette is the colour of each of the board's colour names (Square.Colors) in the pictures.
var Palette = map[string]string{
	"orange": "#f39c34", "green": "#3daa5a", "blue": "#2e86de", "purple": "#8e5bb5", "red": "#d93b30",
	"white": "#ffffff", "start": "#c9ced6", "home": "#f4c430",
}

// SeatColors are the pawns' colours, seat 0 first; none of them is a colour of the board.
var SeatColors = []string{"#e91e8c", "#00bcd4", "#ffe93b", "#6d4c41"}

const (
	boardCentreX, boardCentreY = 320.0, 325.0
	squareRadius               = 19.0
	bigSquareRadius            = 29.0 // Start and Home
	spiralPitch                = 50.0 // distance between two turns of the spiral
	squareSpacing              = 45.0 // distance along the spiral between two squares
	innerRadius                = 62.0 // where 100 lies, around Home in the centre
	panelX                     = 650.0
)

// squareCentres are the centres of the 102 circles: Home in the middle, then the spiral outwards
// down to Start, which lies at the bottom as on the board.
var squareCentres = func() [Home + 1][2]float64 {
	var at [Home + 1][2]float64
	b := spiralPitch / (2 * math.Pi)
	theta0 := innerRadius / b
	thetaOf := func(k float64) float64 { return math.Sqrt(theta0*theta0 + 2*(k-1)*squareSpacing/b) }
	startK := float64(Home) + 0.4 // Start is larger: a little more room before it
	turn := math.Pi/2 - thetaOf(startK)
	for n := range at {
		if n == Home {
			at[n] = [2]float64{boardCentreX, boardCentreY}
			continue
		}
		k := float64(Home - n)
		if n == Start {
			k = startK
		}
		theta := thetaOf(k)
		r, angle := b*theta, theta+turn
		at[n] = [2]float64{boardCentreX + r*math.Cos(angle), boardCentreY + r*math.Sin(angle)}
	}
	return at
}()

func radiusOf(n int) float64 {
	if n == Start || n == Home {
		return bigSquareRadius
	}
	return squareRadius
}

// picture draws the board and the positions of Prime Climb.
var picture = &domain.Picture{Width: 980, Height: 660, Style: pictureStyle, Board: drawBoard, Legend: drawLegend, Position: drawPosition}

const pictureStyle = `text{fill:#222}.num{font-size:13px;font-weight:bold;text-anchor:middle;dominant-baseline:central}` +
	`.big{font-size:15px}.small{font-size:12px}.label{font-size:14px}.head{font-size:20px;font-weight:bold}` +
	`.pawn{stroke:#222;stroke-width:2.5}.move{fill:none;stroke-width:4;stroke-linecap:round;opacity:.85}` +
	`.bump{fill:none;stroke:#555;stroke-width:2.5;stroke-dasharray:6 4}`

// boardDrawing is the board, drawn once: it never changes.
var boardDrawing = svg.Draw(drawSquares)

func drawBoard(w *svg.Writer) { w.Put(boardDrawing) }

func drawSquares(w *svg.Writer) {
	w.Empty("rect", svg.N("width", 980), svg.N("height", 660), svg.A("fill", "#fbf7ef"))
	drawArrowHeads(w)
	w.Open("g", svg.A("id", "board"))
	for _, sq := range Board() {
		drawSquare(w, sq)
	}
	w.Close()
}

func drawSquare(w *svg.Writer, sq Square) {
	c, r := squareCentres[sq.Number], radiusOf(sq.Number)
	w.Open("g", svg.A("class", "square"), svg.A("id", "square-"+strconv.Itoa(sq.Number)), svg.A("data-number", strconv.Itoa(sq.Number)))
	colors := sq.Colors
	if sq.Red {
		colors = []string{"red"} // a prime above 10 is red all over
	}
	if len(colors) == 1 {
		w.Empty("circle", svg.A("class", "wedge"), svg.A("data-color", colors[0]), svg.N("cx", c[0]), svg.N("cy", c[1]), svg.N("r", r), svg.A("fill", Palette[colors[0]]))
	} else {
		step := 2 * math.Pi / float64(len(colors))
		for i, name := range colors {
			a0, a1 := -math.Pi/2+float64(i)*step, -math.Pi/2+float64(i+1)*step
			d := "M" + svg.Num(c[0]) + " " + svg.Num(c[1]) +
				"L" + svg.Num(c[0]+r*math.Cos(a0)) + " " + svg.Num(c[1]+r*math.Sin(a0)) +
				"A" + svg.Num(r) + " " + svg.Num(r) + " 0 0 1 " + svg.Num(c[0]+r*math.Cos(a1)) + " " + svg.Num(c[1]+r*math.Sin(a1)) + "Z"
			w.Empty("path", svg.A("class", "wedge"), svg.A("data-color", name), svg.A("d", d), svg.A("fill", Palette[name]))
		}
	}
	w.Empty("circle", svg.N("cx", c[0]), svg.N("cy", c[1]), svg.N("r", r), svg.A("fill", "none"), svg.A("stroke", "#444"), svg.N("stroke-width", 1.5))
	w.Empty("circle", svg.N("cx", c[0]), svg.N("cy", c[1]), svg.N("r", r*0.6), svg.A("fill", "#fff"))
	switch sq.Number {
	case Start:
		w.Text("text", "Start", svg.A("class", "num"), svg.N("x", c[0]), svg.N("y", c[1]), svg.N("font-size", 11))
	case Home:
		w.Text("text", "101", svg.A("class", "num big"), svg.N("x", c[0]), svg.N("y", c[1]))
	default:
		w.Text("text", strconv.Itoa(sq.Number), svg.A("class", "num"), svg.N("x", c[0]), svg.N("y", c[1]))
	}
	w.Close()
}

// drawLegend explains the colours, in the panel beside the board.
func drawLegend(w *svg.Writer) {
	w.Open("g", svg.A("id", "legend"))
	w.Text("text", "Prime Climb", svg.A("class", "head"), svg.N("x", panelX), svg.N("y", 40))
	w.Text("text", "Each circle shows its number's prime factors:", svg.A("class", "label"), svg.N("x", panelX), svg.N("y", 72))
	rows := []struct{ color, text string }{
		{"orange", "2"}, {"green", "3"}, {"blue", "5"}, {"purple", "7"},
		{"red", "a prime above 10: red all over"},
		{"white", "1"}, {"start", "Start (0)"}, {"home", "Home (101), the goal"},
	}
	for i, row := range rows {
		y := 102 + float64(i)*30
		w.Empty("circle", svg.N("cx", panelX+12), svg.N("cy", y), svg.N("r", 11), svg.A("fill", Palette[row.color]), svg.A("stroke", "#444"))
		w.Text("text", row.text, svg.A("class", "small"), svg.N("x", panelX+32), svg.N("y", y+4))
	}
	y := 102 + float64(len(rows))*30 + 10
	for i, line := range []string{"A number with several factors has one wedge", "per factor: 12 = 2 × 2 × 3 shows orange,", "orange and green. Landing on a red prime", "earns a Prime Card."} {
		w.Text("text", line, svg.A("class", "small"), svg.N("x", panelX), svg.N("y", y+float64(i)*18))
	}
	w.Close()
}

// drawPosition draws pawns, the last move and the panel of one view.
func drawPosition(w *svg.Writer, pos domain.Position) (domain.Words, error) {
	var v View
	if err := json.Unmarshal(pos.View, &v); err != nil {
		return domain.Words{}, fmt.Errorf("prime-climb view: %w", err)
	}
	var last *Outcome
	if len(pos.Last) > 0 {
		last = &Outcome{}
		if err := json.Unmarshal(pos.Last, last); err != nil {
			return domain.Words{}, fmt.Errorf("prime-climb outcome: %w", err)
		}
	}
	names := seatNames(pos.Players, len(v.Players))
	drawLastMove(w, last)
	drawPawns(w, v)
	words := describe(v, last, names)
	drawPanel(w, v, last, names, words)
	return words, nil
}

func seatNames(players []string, seats int) []string {
	names := make([]string, seats)
	for i := range names {
		if i < len(players) && players[i] != "" {
			names[i] = players[i]
		} else {
			names[i] = "Seat " + strconv.Itoa(i)
		}
	}
	return names
}

func seatColor(seat int) string { return SeatColors[seat%len(SeatColors)] }

func drawPawns(w *svg.Writer, v View) {
	type pawn struct{ seat, index int }
	at := map[int][]pawn{}
	for _, p := range v.Players {
		for i, n := range p.Pawns {
			at[n] = append(at[n], pawn{p.Seat, i})
		}
	}
	w.Open("g", svg.A("id", "pawns"))
	for _, p := range v.Players {
		for i, n := range p.Pawns {
			if n < Start || n > Home {
				continue
			}
			here := at[n]
			slot := 0
			for j, q := range here {
				if q == (pawn{p.Seat, i}) {
					slot = j
				}
			}
			c, r := squareCentres[n], radiusOf(n)
			angle := -math.Pi/4 + 2*math.Pi*float64(slot)/float64(len(here))
			x, y := c[0]+0.78*r*math.Cos(angle), c[1]+0.78*r*math.Sin(angle)
			w.Empty("circle", svg.A("class", "pawn"), svg.A("data-seat", strconv.Itoa(p.Seat)), svg.A("data-pawn", strconv.Itoa(i)),
				svg.A("data-square", strconv.Itoa(n)), svg.N("cx", x), svg.N("cy", y), svg.N("r", 8), svg.A("fill", seatColor(p.Seat)))
		}
	}
	w.Close()
}

// drawArrowHeads defines the arrow heads of the moves, one per seat colour, once per picture.
func drawArrowHeads(w *svg.Writer) {
	w.Open("defs")
	for seat, color := range SeatColors {
		w.Open("marker", svg.A("id", "head-"+strconv.Itoa(seat)), svg.A("viewBox", "0 0 10 10"), svg.N("refX", 8), svg.N("refY", 5),
			svg.N("markerWidth", 4), svg.N("markerHeight", 4), svg.A("orient", "auto-start-reverse"))
		w.Empty("path", svg.A("d", "M0 0L10 5L0 10Z"), svg.A("fill", color), svg.A("stroke", "#222"))
		w.Close()
	}
	w.Close()
}

// drawLastMove draws every pawn movement of the last action as an arrow in the mover's colour, and
// every bump as a dashed arrow back to Start.
func drawLastMove(w *svg.Writer, last *Outcome) {
	if last == nil {
		return
	}
	w.Open("g", svg.A("id", "last-move"))
	arrow := func(seat, from, to int) {
		if from == to || from < Start || to < Start || from > Home || to > Home {
			return
		}
		a, b := squareCentres[from], squareCentres[to]
		w.Empty("line", svg.A("class", "move"), svg.A("data-seat", strconv.Itoa(seat)), svg.A("data-from", strconv.Itoa(from)), svg.A("data-to", strconv.Itoa(to)),
			svg.N("x1", a[0]), svg.N("y1", a[1]), svg.N("x2", b[0]), svg.N("y2", b[1]),
			svg.A("stroke", seatColor(seat)), svg.A("marker-end", "url(#head-"+strconv.Itoa(seat%len(SeatColors))+")"))
	}
	bump := func(b Bump) {
		a, s := squareCentres[b.From], squareCentres[Start]
		w.Empty("line", svg.A("class", "bump"), svg.A("data-seat", strconv.Itoa(b.Seat)), svg.N("x1", a[0]), svg.N("y1", a[1]), svg.N("x2", s[0]), svg.N("y2", s[1]))
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
	w.Close()
}

func drawPanel(w *svg.Writer, v View, last *Outcome, names []string, words domain.Words) {
	w.Open("g", svg.A("id", "panel"))
	w.Text("text", "Prime Climb", svg.A("class", "head"), svg.N("x", panelX), svg.N("y", 40))
	w.Text("text", turnLine(v, names), svg.A("class", "label"), svg.N("x", panelX), svg.N("y", 68))
	y := 100.0
	for _, p := range v.Players {
		drawSeat(w, p, names[p.Seat], v, y)
		y += 74
	}
	drawDice(w, v, y+10)
	y += 70
	if last != nil {
		w.Text("text", "Last action:", svg.A("class", "label"), svg.N("x", panelX), svg.N("y", y+10))
		for i, line := range lastLines(last) {
			if i == 6 {
				break
			}
			w.Text("text", line, svg.A("class", "small"), svg.N("x", panelX), svg.N("y", y+30+float64(i)*17))
		}
	}
	w.Text("text", fmt.Sprintf("Deck: %d cards · discard pile: %d", v.DeckSize, len(v.Discard)), svg.A("class", "small"), svg.N("x", panelX), svg.N("y", 640))
	w.Close()
}

func turnLine(v View, names []string) string {
	if v.Winner != nil {
		return names[*v.Winner] + " won the game!"
	}
	what := map[Phase]string{PhaseRoll: "to roll", PhaseMove: "to move", PhaseResolve: "to choose for the card"}[v.Phase]
	return fmt.Sprintf("Turn %d: %s %s", v.TurnNumber, names[v.Seat], what)
}

func drawSeat(w *svg.Writer, p PlayerView, name string, v View, y float64) {
	w.Open("g", svg.A("class", "seat"), svg.A("data-seat", strconv.Itoa(p.Seat)))
	if v.Winner == nil && v.Seat == p.Seat {
		w.Empty("rect", svg.N("x", panelX-8), svg.N("y", y-16), svg.N("width", 322), svg.N("height", 68), svg.N("rx", 8),
			svg.A("fill", "#fff3c4"), svg.A("stroke", "#e0b000"))
	}
	w.Empty("circle", svg.A("class", "pawn"), svg.N("cx", panelX+10), svg.N("cy", y), svg.N("r", 8), svg.A("fill", seatColor(p.Seat)))
	title := name
	if len([]rune(title)) > 24 {
		title = string([]rune(title)[:23]) + "…"
	}
	w.Text("text", title, svg.A("class", "label"), svg.N("x", panelX+26), svg.N("y", y+5), svg.A("font-weight", "bold"))
	status := "pawns on " + squareName(p.Pawns[0]) + " and " + squareName(p.Pawns[1])
	if p.CursedNext {
		status += " · cursed next turn"
	}
	w.Text("text", status, svg.A("class", "small"), svg.N("x", panelX+26), svg.N("y", y+23))
	x := panelX + 26
	for _, k := range p.Keepers {
		label := CardLabel(k.Card)
		width := 12 + 7.5*float64(len([]rune(label)))
		w.Open("g", svg.A("class", "keeper"), svg.A("data-card", string(k.Card)))
		w.Empty("rect", svg.N("x", x), svg.N("y", y+31), svg.N("width", width), svg.N("height", 18), svg.N("rx", 4), svg.A("fill", "#fff"), svg.A("stroke", "#8e5bb5"))
		w.Text("text", label, svg.A("class", "small"), svg.N("x", x+6), svg.N("y", y+44))
		w.Close()
		x += width + 6
	}
	w.Close()
}

func drawDice(w *svg.Writer, v View, y float64) {
	w.Open("g", svg.A("id", "dice"))
	if len(v.Dice) == 0 {
		w.Text("text", "Dice: not rolled yet", svg.A("class", "label"), svg.N("x", panelX), svg.N("y", y+20))
		w.Close()
		return
	}
	w.Text("text", "Dice:", svg.A("class", "label"), svg.N("x", panelX), svg.N("y", y+20))
	for i, d := range v.Dice {
		x := panelX + 50 + float64(i)*44
		w.Empty("rect", svg.A("class", "die"), svg.A("data-value", strconv.Itoa(d)), svg.N("x", x), svg.N("y", y), svg.N("width", 34), svg.N("height", 34), svg.N("rx", 6),
			svg.A("fill", "#fff"), svg.A("stroke", "#222"), svg.N("stroke-width", 2))
		w.Text("text", strconv.Itoa(d), svg.A("class", "num big"), svg.N("x", x+17), svg.N("y", y+17))
	}
	left := "uses left: none"
	if len(v.Uses) > 0 {
		left = "uses left: " + joinInts(v.Uses)
	}
	if v.Cursed {
		left += " (cursed: subtract or divide)"
	}
	w.Text("text", left, svg.A("class", "small"), svg.N("x", panelX+150), svg.N("y", y+22))
	w.Close()
}

func lastLines(o *Outcome) []string {
	var lines []string
	if len(o.Dice) > 0 {
		lines = append(lines, "rolled "+joinInts(o.Dice))
	}
	for _, st := range o.Steps {
		if st.Equation != "" {
			lines = append(lines, st.Equation)
		}
	}
	for _, b := range o.Bumps {
		lines = append(lines, fmt.Sprintf("bumped seat %d's pawn from %d to Start", b.Seat, b.From))
	}
	if o.Draw != nil && o.Draw.Effect != "" {
		lines = append(lines, o.Draw.Effect)
	}
	if o.Action == "start" {
		lines = append(lines, "the game began")
	}
	return lines
}

func squareName(n int) string {
	switch n {
	case Start:
		return "Start"
	case Home:
		return "Home (101)"
	}
	return strconv.Itoa(n)
}

// CardLabel is a Prime Card as a picture names it: "±5", "Send to Start".
func CardLabel(c Card) string {
	if n, ok := plusMinusValue(c); ok {
		return "±" + strconv.Itoa(n)
	}
	s := strings.ReplaceAll(string(c), "_", " ")
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// describe says the position in words.
func describe(v View, last *Outcome, names []string) domain.Words {
	turn := turnLine(v, names)
	title := "Prime Climb, " + strings.ToLower(turn[:1]) + turn[1:]
	var b strings.Builder
	for _, p := range v.Players {
		fmt.Fprintf(&b, "%s (seat %d): pawns on %s and %s", names[p.Seat], p.Seat, squareName(p.Pawns[0]), squareName(p.Pawns[1]))
		if len(p.Keepers) > 0 {
			labels := make([]string, len(p.Keepers))
			for i, k := range p.Keepers {
				labels[i] = CardLabel(k.Card)
			}
			b.WriteString(", holding " + strings.Join(labels, ", "))
		}
		b.WriteString(". ")
	}
	if len(v.Dice) > 0 {
		b.WriteString("Dice: " + joinInts(v.Dice) + ". ")
	}
	if last != nil {
		if lines := lastLines(last); len(lines) > 0 {
			b.WriteString("Last action: " + strings.Join(lines, "; ") + ".")
		}
	}
	return domain.Words{Title: title, Desc: strings.TrimSpace(b.String())}
}
