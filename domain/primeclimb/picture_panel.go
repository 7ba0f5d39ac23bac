package primeclimb

import (
	"fmt"
	"strconv"

	"primegames/domain"
	"primegames/domain/scene"
)

// The panel's rows, in desktop units (a layout's look scales them by k).
const (
	seatsTop     = 100.0
	seatRow      = 74.0
	diceRow      = 70.0
	lastLine     = 17.0
	maxLastLines = 6
)

// panelHeight is the height of the panel for a number of seats, in desktop units.
func panelHeight(seats int) float64 {
	return seatsTop + seatRow*float64(seats) + 10 + diceRow + 30 + lastLine*maxLastLines + 40
}

// panel places the panel's texts: x and y in desktop units from the panel's corner.
type panel struct {
	lk    look
	nodes []scene.Node
}

func (p *panel) at(x, y float64) (float64, float64) {
	return p.lk.panelX + x*p.lk.k, p.lk.panelY + y*p.lk.k
}

func (p *panel) text(x, y, size float64, bold bool, text string, meta ...scene.Meta) {
	px, py := p.at(x, y)
	t := scene.Text{X: px, Y: py, Size: size * p.lk.k, Bold: bold, Text: text, Room: (p.width() - x) * p.lk.k}
	if len(meta) > 0 {
		t.Meta = meta[0]
	}
	p.nodes = append(p.nodes, t)
}

func (p *panel) rect(x, y, w, h float64, paint scene.Paint, meta ...scene.Meta) {
	px, py := p.at(x, y)
	r := scene.Rect{X: px, Y: py, W: w * p.lk.k, H: h * p.lk.k, RX: 6 * p.lk.k, Paint: paint}
	if len(meta) > 0 {
		r.Meta = meta[0]
	}
	p.nodes = append(p.nodes, r)
}

// said places a line of words, cut to what a line holds at fitSize.
func (p *panel) said(x, y, size float64, bold bool, w scene.Words, fitSize float64, meta ...scene.Meta) {
	px, py := p.at(x, y)
	t := scene.Text{X: px, Y: py, Size: size * p.lk.k, Bold: bold, Room: (p.width() - x) * p.lk.k}
	if len(meta) > 0 {
		t.Meta = meta[0]
	}
	p.nodes = append(p.nodes, scene.Said(t, w, p.holds(fitSize)))
}

// holds is how many characters a line of the panel holds at a type size, drawn as small as it may
// be (scene.MinShrink): a line the characters allow is fitted to its room by measure.
func (p *panel) holds(size float64) int { return int(p.width() / (size * scene.MinShrink * 0.56)) }

// width is the panel's width in desktop units.
func (p *panel) width() float64 { return p.lk.panelW / p.lk.k }

func drawPanel(lk look, v View, last *Outcome, who []any, you *int) scene.Node {
	p := &panel{lk: lk}
	p.text(0, 40, 20, true, "Prime Climb")
	p.said(0, 68, 15, v.Winner != nil, turnLine(v, who), 15, scene.Meta{Class: "turn"})
	y := seatsTop
	for _, pl := range v.Players {
		drawSeat(p, pl, who[pl.Seat], v, y, you != nil && *you == pl.Seat)
		y += seatRow
	}
	drawDice(p, v, y+10)
	y += 10 + diceRow
	if last != nil {
		p.said(0, y+10, 14, true, lastHead(last, who), 14+2)
		for i, line := range lastLines(last, who) {
			if i == maxLastLines {
				break
			}
			p.said(0, y+30+float64(i)*lastLine, 12, false, line, 12, scene.Meta{Class: "last"})
		}
	}
	p.text(0, y+30+lastLine*maxLastLines+14, 12, false, fmt.Sprintf("Deck: %d cards · discard pile: %d", v.DeckSize, len(v.Discard)))
	return scene.Group{Meta: scene.Meta{ID: "panel"}, Children: p.nodes}
}

// lastHead is "Last action:" with who took it: "Last action (Ada):".
func lastHead(o *Outcome, who []any) scene.Words {
	if o.Seat != nil && *o.Seat >= 0 && *o.Seat < len(who) {
		return scene.Say("Last action (%s):", who[*o.Seat])
	}
	return scene.Say("Last action:")
}

// turnFormats are the turn's line in each phase, and the title that names the game with it.
var turnFormats = map[Phase][2]string{
	PhaseRoll:    {"Turn %d: %s to roll", "Prime Climb, turn %d: %s to roll"},
	PhaseMove:    {"Turn %d: %s to move", "Prime Climb, turn %d: %s to move"},
	PhaseResolve: {"Turn %d: %s to choose for the card", "Prime Climb, turn %d: %s to choose for the card"},
}

func turnLine(v View, who []any) scene.Words { return turnWords(v, who, 0) }

// turnWords is the turn's line (which 0) or the picture's title (which 1).
func turnWords(v View, who []any, which int) scene.Words {
	if v.Winner != nil {
		return scene.Say([2]string{"%s won the game!", "Prime Climb, %s won the game!"}[which], who[*v.Winner])
	}
	f, ok := turnFormats[v.Phase]
	if !ok {
		f = turnFormats[PhaseRoll]
	}
	return scene.Say(f[which], v.TurnNumber, who[v.Seat])
}

func drawSeat(p *panel, pl PlayerView, name any, v View, y float64, you bool) {
	start := len(p.nodes)
	switch {
	case v.Winner != nil && *v.Winner == pl.Seat:
		p.rect(-8, y-18, p.width()+4, seatRow-6, scene.Paint{Fill: "#fde68a", Stroke: "#d97706", StrokeWidth: 2})
	case v.Winner == nil && v.Seat == pl.Seat:
		p.rect(-8, y-18, p.width()+4, seatRow-6, scene.Paint{Fill: "#fff3c4", Stroke: "#e0b000", StrokeWidth: 1})
	}
	for i := range pl.Pawns {
		x, py := p.at(10+float64(i)*20, y-2)
		p.nodes = append(p.nodes, pawnMark(x, py, p.lk.k, pl.Seat, i, -1))
	}
	title := scene.Say("%s", name)
	if you {
		title = scene.Say("%s (you)", name)
	}
	p.said(46, y+3, 15, true, title, 15+2, scene.Meta{Class: "name"})
	status := scene.Say("pawn 0 on %s · pawn 1 on %s", squareWords(pl.Pawns[0]), squareWords(pl.Pawns[1]))
	if pl.CursedNext {
		status = scene.Say("%s · cursed next turn", status)
	}
	p.said(0, y+24, 12, false, status, 12)
	x := 0.0
	for i, k := range pl.Keepers {
		width := keeperWidth(k.Card)
		if x+width > p.width() || i < len(pl.Keepers)-1 && x+width+6+moreWidth > p.width() {
			// No room for this card and what follows: their number instead ("+3"); the
			// picture's description names them all.
			px, py := p.at(x+2, y+44)
			p.nodes = append(p.nodes, scene.Text{Meta: scene.Meta{Class: "more-keepers"}, X: px, Y: py, Size: 12 * p.lk.k, Bold: true, Text: fmt.Sprintf("+%d", len(pl.Keepers)-i)})
			break
		}
		p.rect(x, y+31, width, 18, scene.Paint{Fill: "#ffffff", Stroke: "#8e5bb5", StrokeWidth: 1}, scene.Meta{Class: "keeper", Data: []scene.Attr{scene.D("card", string(k.Card))}})
		px, py := p.at(x+width/2, y+44)
		p.nodes = append(p.nodes, scene.Said(scene.Text{X: px, Y: py, Size: 12 * p.lk.k, Anchor: scene.Middle, Room: (width - 12) * p.lk.k}, cardWords(k.Card), 0))
		x += width + 6
	}
	seat := scene.Group{Meta: scene.Meta{Class: "seat", Data: []scene.Attr{scene.D("seat", strconv.Itoa(pl.Seat))}}, Children: append([]scene.Node{}, p.nodes[start:]...)}
	if you {
		seat.Meta.Class += " you"
	}
	p.nodes = append(p.nodes[:start], seat)
}

func drawDice(p *panel, v View, y float64) {
	start := len(p.nodes)
	if len(v.Dice) == 0 {
		p.text(0, y+22, 14, false, "Dice: not rolled yet")
	} else {
		p.text(0, y+22, 14, false, "Dice:")
		for i, d := range v.Dice {
			x := 50 + float64(i)*44
			p.rect(x, y, 34, 34, scene.Paint{Fill: "#ffffff", Stroke: "#222222", StrokeWidth: 2}, scene.Meta{Class: "die", Data: []scene.Attr{scene.D("value", strconv.Itoa(d))}})
			px, py := p.at(x+17, y+17)
			p.nodes = append(p.nodes, scene.Text{X: px, Y: py, Size: 18 * p.lk.k, Bold: true, Anchor: scene.Middle, Centred: true, Text: strconv.Itoa(d)})
		}
		left := "uses left: none"
		if len(v.Uses) > 0 {
			left = "uses left: " + joinInts(v.Uses)
		}
		if v.Cursed {
			left += " (cursed: − or ÷)"
		}
		p.text(0, y+56, 12, false, left) // under the dice: four of them reach past x 150
	}
	p.nodes = append(p.nodes[:start], scene.Group{Meta: scene.Meta{ID: "dice"}, Children: append([]scene.Node{}, p.nodes[start:]...)})
}

// lastLines tells the last action, its seats named (the domain's own sentences say "seat 2").
func lastLines(o *Outcome, who []any) []scene.Words {
	var lines []scene.Words
	if len(o.Dice) > 0 {
		lines = append(lines, scene.Say("rolled %s", joinInts(o.Dice)))
	}
	for _, st := range o.Steps {
		if st.Equation == "" {
			continue
		}
		line := scene.Say("%s", scene.Sentence{Text: st.Equation, Names: who})
		if st.Pawn != nil && st.TargetSeat == nil {
			line = scene.Say("pawn %d: %s", *st.Pawn, line)
		}
		lines = append(lines, line)
	}
	bumped := func(b Bump) scene.Words {
		var name any = scene.Say("Player %d", b.Seat+1)
		if b.Seat >= 0 && b.Seat < len(who) {
			name = who[b.Seat]
		}
		return scene.Say("bumped %s's pawn %d from %d to Start", name, b.Pawn, b.From)
	}
	for _, b := range o.Bumps {
		lines = append(lines, bumped(b))
	}
	if d := o.Draw; d != nil {
		if d.Effect != "" {
			lines = append(lines, scene.Say("%s", scene.Sentence{Text: d.Effect, Names: who}))
		}
		for _, b := range d.Bumps {
			lines = append(lines, bumped(b))
		}
	}
	if o.Action == "start" {
		lines = append(lines, scene.Say("the game began"))
	}
	return lines
}

// squareWords is a square in words: "Start", "Home (101)" or its number.
func squareWords(n int) any {
	switch n {
	case Start:
		return scene.Say("Start")
	case Home:
		return scene.Say("Home (101)")
	}
	return strconv.Itoa(n)
}

// CardLabel is a Prime Card as a picture names it: "±5", "Send to Start".
func CardLabel(c Card) string { return c.Title() }

// keeperWidth is the width of a keeper card's box in the panel, in desktop units. A card with a
// name has room for it in every language the pictures are said in, longer than the English
// ("Curse" is "Maldición", "Malédiction"; "Send to Start" is "De volta ao Início"): the label is
// drawn smaller to fit only when the translation is longer still (scene.Fitted).
func keeperWidth(c Card) float64 {
	switch c {
	case SendToStart:
		return 118
	case Curse:
		return 86
	}
	return 12 + scene.Width(CardLabel(c), 12, false) // "±3": a number, the same in every language
}

// moreWidth is the room "+3" takes after the keeper cards that fit.
const moreWidth = 24

// describe says the position in words.
func describe(v View, last *Outcome, who []any) domain.Words {
	var desc []scene.Words
	for _, p := range v.Players {
		if len(p.Keepers) == 0 {
			desc = append(desc, scene.Say("%s: pawn 0 on %s, pawn 1 on %s.", who[p.Seat], squareWords(p.Pawns[0]), squareWords(p.Pawns[1])))
			continue
		}
		cards := make([]scene.Words, len(p.Keepers))
		for i, k := range p.Keepers {
			cards[i] = cardWords(k.Card)
		}
		desc = append(desc, scene.Say("%s: pawn 0 on %s, pawn 1 on %s, holding %s.", who[p.Seat], squareWords(p.Pawns[0]), squareWords(p.Pawns[1]), scene.Join(", ", cards...)))
	}
	if len(v.Dice) > 0 {
		desc = append(desc, scene.Say("Dice: %s.", joinInts(v.Dice)))
	}
	if last != nil {
		if lines := lastLines(last, who); len(lines) > 0 {
			if o := last.Seat; o != nil && *o >= 0 && *o < len(who) {
				desc = append(desc, scene.Say("Last action (%s): %s.", who[*o], scene.Join("; ", lines...)))
			} else {
				desc = append(desc, scene.Say("Last action: %s.", scene.Join("; ", lines...)))
			}
		}
	}
	return domain.Words{Title: turnWords(v, who, 1), Desc: scene.Join(" ", desc...)}
}

// cardWords is a Prime Card's name in words: "±5" as it is, "Send to Start" said in the reader's
// language.
func cardWords(c Card) scene.Words {
	if _, ok := plusMinusValue(c); ok {
		return scene.Say("%s", c.Title())
	}
	return scene.Say(c.Title())
}

// legendFrame is the board alone with the legend of its colours, in the panel's place.
func legendFrame(l domain.Layout) domain.Frame {
	lk := lookOf(l)
	f := domain.Frame{Width: 980, Height: 660, Background: background}
	if lk.panelY > 0 {
		f.Width, f.Height = boardSize, lk.panelY+lk.k*440
	}
	p := &panel{lk: lk}
	p.text(0, 40, 20, true, "Prime Climb")
	p.text(0, 72, 14, false, "Each circle shows its number's prime factors:")
	rows := []struct{ color, text string }{
		{"orange", "2"}, {"green", "3"}, {"blue", "5"}, {"purple", "7"},
		{"red", "a prime above 10: red all over"},
		{"white", "1"}, {"start", "Start (0)"}, {"home", "Home (101), the goal"},
	}
	for i, row := range rows {
		y := 102 + float64(i)*30
		cx, cy := p.at(12, y)
		p.nodes = append(p.nodes, scene.Circle{Paint: scene.Paint{Fill: Palette[row.color], Stroke: "#444444", StrokeWidth: 1}, CX: cx, CY: cy, R: 11 * lk.k})
		p.text(32, y+4, 12, false, row.text)
	}
	y := 102 + float64(len(rows))*30 + 10
	for i, line := range []string{"A number with several factors has one wedge", "per factor: 12 = 2 × 2 × 3 shows orange,", "orange and green. Landing on a red prime", "earns a Prime Card."} {
		p.text(0, y+float64(i)*18, 12, false, line)
	}
	f.Nodes = []scene.Node{scene.Group{Meta: scene.Meta{ID: "legend"}, Children: p.nodes}}
	return f
}
