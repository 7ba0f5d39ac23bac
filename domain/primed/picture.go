package primed

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"primegames/domain"
	"primegames/domain/scene"
)

// picture draws a Primed table from a view: hands the view hides are card backs with their count,
// so a picture shows exactly the cards its view does (PR-8). Its height follows the number of
// seats: one row per hand.
var picture = &domain.Picture{Title: "Primed", Position: drawTable}

const background = "#e9f3ea"

// spread is where a layout puts things: the phone stacks what the desktop sets side by side, in
// larger type (k times the desktop's).
type spread struct {
	width, k         float64
	headX            float64 // where the headline starts, right of the title
	pilesY           float64
	lastX, lastY     float64
	roundsX, roundsY float64
	handsY, handRow  float64
	cardsX, cardsDY  float64 // where a hand's cards start, right of (desktop) or under (phone) its name
}

var tables = map[domain.Layout]spread{
	domain.Desktop: {width: 900, k: 1, headX: 124, pilesY: 100, lastX: 300, lastY: 118, roundsX: 610, roundsY: 118, handsY: 252, handRow: 62, cardsX: 260},
	domain.Phone:   {width: 600, k: 1.5, headX: 24, pilesY: 196, lastX: 24, lastY: 374, roundsX: 24, roundsY: 530, handsY: 770, handRow: 150, cardsX: 24, cardsDY: 44},
}

func spreadOf(l domain.Layout) spread {
	if t, ok := tables[l]; ok {
		return t
	}
	return tables[domain.Desktop]
}

// maxLines and maxRounds bound the last action's lines and the rounds the table lists.
const (
	maxLines  = 4
	maxRounds = 4
)

func drawTable(l domain.Layout, pos domain.Position) (domain.Frame, error) {
	var v View
	if err := json.Unmarshal(pos.View, &v); err != nil {
		return domain.Frame{}, fmt.Errorf("primed view: %w", err)
	}
	var last *Outcome
	if len(pos.Last) > 0 {
		last = &Outcome{}
		if err := json.Unmarshal(pos.Last, last); err != nil {
			return domain.Frame{}, fmt.Errorf("primed outcome: %w", err)
		}
	}
	who := domain.SeatsWho(pos.Players, v.Seats)
	t := spreadOf(l)
	k := t.k
	f := domain.Frame{Width: t.width, Height: t.handsY + float64(v.Seats)*t.handRow + 12*k, Background: background,
		Counter: scene.Text{X: t.width - 16, Y: 24 * k, Size: 14 * k, Anchor: scene.End}}
	text := func(x, y, size float64, bold bool, s string, meta ...scene.Meta) {
		n := scene.Text{X: x, Y: y, Size: size * k, Bold: bold, Text: s}
		if len(meta) > 0 {
			n.Meta = meta[0]
		}
		f.Nodes = append(f.Nodes, n)
	}
	text(24, 36*k, 22, true, "Primed")
	headY := 36 * k
	if t.headX < 100 {
		headY = 66 * k // the phone: under the title
	}
	text(t.headX, headY, 15, false, fmt.Sprintf("Round %d of %d · target: %s", v.Round, v.Options.Rounds, v.Options.Target))
	if won := winners(v, who); !won.Zero() {
		f.Nodes = append(f.Nodes, scene.Group{Meta: scene.Meta{Class: "winner"}, Children: []scene.Node{
			scene.Rect{Paint: scene.Paint{Fill: "#fde68a", Stroke: "#d97706", StrokeWidth: 2}, X: 16, Y: headY + 10*k, W: t.width - 32, H: 38 * k, RX: 8},
			scene.Said(scene.Text{X: 28, Y: headY + 38*k, Size: 24 * k, Bold: true, Room: t.width - 56}, won, 0),
		}})
	} else {
		f.Nodes = append(f.Nodes, scene.Said(scene.Text{Meta: scene.Meta{Class: "status"}, X: 24, Y: headY + 34*k, Size: 15 * k, Bold: true, Room: t.width - 48, Wrap: true}, status(v, who), 0))
	}

	piles := scene.Group{Meta: scene.Meta{ID: "piles"}}
	y := t.pilesY
	piles.Children = append(piles.Children,
		drawBack(24, y+8*k, k, -1),
		scene.Text{X: 24, Y: y + 74*k, Size: 12 * k, Text: fmt.Sprintf("draw pile: %d", v.DrawPileSize)},
		drawFace(110*k, y, 54*k, 78*k, 30*k, v.Top, "top"),
		scene.Text{X: 100 * k, Y: y + 94*k, Size: 12 * k, Text: fmt.Sprintf("Primed pile: %d", len(v.PrimedPile))})
	if v.DrawnCard != 0 {
		piles.Children = append(piles.Children, drawFace(190*k, y+16*k, 32*k, 46*k, 16*k, v.DrawnCard, "drawn"),
			scene.Text{X: 190 * k, Y: y + 76*k, Size: 12 * k, Text: "drawn"})
	}
	f.Nodes = append(f.Nodes, piles)
	if last != nil {
		room := t.width - t.lastX - 24 // the phone: the whole width
		if t.roundsX > t.lastX {
			room = t.roundsX - t.lastX - 12 // the desktop: up to the scores
		}
		for i, line := range lastLines(last, who) {
			if i == maxLines {
				break
			}
			f.Nodes = append(f.Nodes, scene.Said(scene.Text{Meta: scene.Meta{Class: "last"}, X: t.lastX, Y: t.lastY + float64(i)*22*k, Size: 13 * k, Room: room}, line, lineHolds(room, 13*k)))
		}
	}
	f.Nodes = append(f.Nodes, drawRounds(t, v, who)...)

	text(24, t.handsY-14*k, 14, true, "Hands")
	f.Nodes = append(f.Nodes, scene.Text{X: t.width - 24, Y: t.handsY - 14*k, Size: 12 * k, Anchor: scene.End, Text: "score so far"})
	for _, h := range v.Hands {
		you := pos.You != nil && *pos.You == h.Seat
		f.Nodes = append(f.Nodes, drawHand(t, v, h, who[h.Seat], t.handsY+float64(h.Seat)*t.handRow, you))
	}
	f.Words = describe(v, last, who)
	return f, nil
}

// winners is "Ann won!" or "Ann and Bob won!" once the game is over, nothing before.
func winners(v View, who []any) scene.Words {
	if v.Phase != PhaseFinished || len(v.Scores.Winners) == 0 {
		return scene.Words{}
	}
	won := make([]scene.Words, len(v.Scores.Winners))
	for i, s := range v.Scores.Winners {
		won[i] = scene.Say("%s", who[s])
	}
	if len(won) == 1 {
		return scene.Say("%s won!", won[0])
	}
	return scene.Say("%s won!", scene.Say("%s and %s", scene.Join(", ", won[:len(won)-1]...), won[len(won)-1]))
}

func status(v View, who []any) scene.Words {
	switch {
	case len(v.ToAct) > 0 && v.Phase == PhaseDrawn:
		return scene.Say("%s drew a playable card: play it or keep it", who[v.ToAct[0]])
	case len(v.ToAct) > 0:
		return scene.Say("%s to play", who[v.ToAct[0]])
	}
	return scene.Words{}
}

// drawRounds is the spread of the last rounds' scores, one column per player, with the totals.
func drawRounds(t spread, v View, who []any) []scene.Node {
	k := t.k
	g := scene.Group{Meta: scene.Meta{Class: "rounds"}}
	colW := (t.width - t.roundsX - 24 - 70*k) / float64(max(v.Seats, 1))
	into := &g.Children
	cell := func(col int, y float64, s any, bold bool) {
		x := t.roundsX
		if col >= 0 {
			x += 70*k + float64(col)*colW
		}
		w, ok := s.(scene.Words)
		if !ok {
			w = scene.Say("%s", s) // a name or a number, as it is
		}
		room := colW - 4
		if col < 0 {
			room = 70*k - 4
		}
		*into = append(*into, scene.Said(scene.Text{X: x, Y: y, Size: 12 * k, Bold: bold, Room: room}, w, lineHolds(colW-4, 12*k)))
	}
	y := t.roundsY
	cell(-1, y, scene.Say("Scores"), true)
	for seat, name := range who {
		cell(seat, y, name, true)
	}
	rounds := v.Scores.Rounds
	if len(rounds) > maxRounds {
		rounds = rounds[len(rounds)-maxRounds:]
	}
	for _, r := range rounds {
		y += 20 * k
		row := scene.Group{Meta: scene.Meta{Class: "round", Data: []scene.Attr{scene.D("round", strconv.Itoa(r.Round))}}}
		into = &row.Children
		cell(-1, y, scene.Say("round %d", r.Round), false)
		for seat, s := range r.Scores {
			cell(seat, y, strconv.Itoa(s), false)
		}
		g.Children, into = append(g.Children, row), &g.Children
	}
	y += 20 * k
	cell(-1, y, scene.Say("total"), true)
	for seat := range who {
		total := 0
		if seat < len(v.Scores.Totals) {
			total = v.Scores.Totals[seat]
		}
		cell(seat, y, strconv.Itoa(total), true)
	}
	return []scene.Node{g}
}

// lineHolds is about how many characters width holds at a type size.
func lineHolds(width, size float64) int { return max(int(width/(size*scene.MinShrink*0.52)), 2) }

func drawHand(t spread, v View, h HandView, name any, y float64, you bool) scene.Node {
	k := t.k
	meta := scene.Meta{Class: "hand", Data: []scene.Attr{scene.D("seat", strconv.Itoa(h.Seat)), scene.D("size", strconv.Itoa(h.Size))}}
	if you {
		meta.Class += " you"
	}
	g := scene.Group{Meta: meta}
	switch {
	case len(v.ToAct) > 0 && v.ToAct[0] == h.Seat:
		g.Children = append(g.Children, scene.Rect{Paint: scene.Paint{Fill: "#fff3c4", Stroke: "#e0b000", StrokeWidth: 1}, X: 16, Y: y - 4*k, W: t.width - 32, H: t.handRow - 2*k, RX: 8})
	case you:
		g.Children = append(g.Children, scene.Rect{Paint: scene.Paint{Fill: "#f4fbf5", Stroke: "#3daa5a", StrokeWidth: 1}, X: 16, Y: y - 4*k, W: t.width - 32, H: t.handRow - 2*k, RX: 8})
	}
	label := scene.Say("%s", name)
	if you {
		label = scene.Say("%s (you)", name)
	}
	width := t.cardsX - 24 - 70*k
	if t.cardsDY > 0 {
		width = t.width - 140*k
	}
	total := 0
	if h.Seat < len(v.Scores.Totals) {
		total = v.Scores.Totals[h.Seat]
	}
	g.Children = append(g.Children,
		scene.Said(scene.Text{Meta: scene.Meta{Class: "name"}, X: 24, Y: y + 20*k, Size: 15 * k, Bold: true, Room: width}, label, lineHolds(width, 15*k)),
		scene.Text{X: 24, Y: y + 38*k, Size: 12 * k, Text: cards(h.Size)},
		scene.Text{Meta: scene.Meta{Class: "total"}, X: t.width - 24, Y: y + 28*k, Size: 16 * k, Bold: true, Anchor: scene.End, Text: strconv.Itoa(total)})
	cardsY := y + 2*k + t.cardsDY*k
	step, room := 36*k, t.width-t.cardsX-70*k-24
	if t.cardsDY > 0 {
		room = t.width - t.cardsX - 24
	}
	if float64(h.Size)*step > room {
		step = (room - 32*k) / float64(max(h.Size-1, 1))
	}
	for i := 0; i < h.Size; i++ {
		x := t.cardsX + float64(i)*step
		if h.Cards != nil && i < len(h.Cards) {
			g.Children = append(g.Children, drawFace(x, cardsY, 32*k, 46*k, 16*k, h.Cards[i], ""))
		} else {
			g.Children = append(g.Children, drawBack(x, cardsY, k, h.Seat))
		}
	}
	return g
}

func drawFace(x, y, width, height, size float64, value int, role string) scene.Node {
	class := "card face"
	if role != "" {
		class += " " + role
	}
	return scene.Group{Meta: scene.Meta{Class: class, Data: []scene.Attr{scene.D("value", strconv.Itoa(value))}}, Children: []scene.Node{
		scene.Rect{Paint: scene.Paint{Fill: "#ffffff", Stroke: "#333333", StrokeWidth: 1.5}, X: x, Y: y, W: width, H: height, RX: 5},
		scene.Text{X: x + width/2, Y: y + height/2, Size: size, Bold: true, Anchor: scene.Middle, Centred: true, Text: strconv.Itoa(value)},
	}}
}

func drawBack(x, y, k float64, seat int) scene.Node {
	w, h := 32*k, 46*k
	return scene.Group{Meta: scene.Meta{Class: "card back", Data: []scene.Attr{scene.D("seat", strconv.Itoa(seat))}}, Children: []scene.Node{
		scene.Rect{Paint: scene.Paint{Fill: "#3b5ba5", Stroke: "#1d2f5e", StrokeWidth: 1.5}, X: x, Y: y, W: w, H: h, RX: 5},
		scene.Path{Paint: scene.Paint{Stroke: "#9fb3e6", StrokeWidth: 1}, Steps: []scene.Step{
			scene.MoveTo(x+6*k, y+6*k), scene.LineTo(x+w-6*k, y+h-6*k), scene.MoveTo(x+w-6*k, y+6*k), scene.LineTo(x+6*k, y+h-6*k)}},
	}}
}

// lastLines tells the last action as its redacted outcome has it: a drawn card's value only when the
// viewer may see it.
func lastLines(o *Outcome, who []any) []scene.Words {
	seat := func(n int) any {
		if n >= 0 && n < len(who) {
			return who[n]
		}
		return scene.Say("Player %d", n+1)
	}
	var lines []scene.Words
	if p := o.Played; p != nil {
		lines = append(lines, scene.Say("%s played: %s", seat(p.Seat), scene.Sentence{Text: p.Equation}))
	}
	if r := o.Reshuffled; r != nil {
		lines = append(lines, scene.Say("The Primed pile was shuffled into a new draw pile of %d cards.", r.Cards))
	}
	if d := o.Drew; d != nil {
		if d.Card != 0 {
			lines = append(lines, scene.Say("%s drew a %d.", seat(d.Seat), d.Card))
		} else {
			lines = append(lines, scene.Say("%s drew a card.", seat(d.Seat)))
		}
	}
	if p := o.Passed; p != nil {
		lines = append(lines, scene.Say("%s passed.", seat(p.Seat)))
	}
	if r := o.RoundEnded; r != nil {
		scores := make([]scene.Words, len(r.Scores))
		for n, s := range r.Scores {
			scores[n] = scene.Say("%s %d", seat(n), s)
		}
		format := "Round %d ended (blocked): %s."
		if r.Ending == EndWentOut {
			format = "Round %d ended (went out): %s."
		}
		lines = append(lines, scene.Say(format, r.Round, scene.Join(", ", scores...)))
	}
	if d := o.Dealt; d != nil {
		lines = append(lines, scene.Say("Round %d was dealt; the first top card is %d.", d.Round, d.Top))
	}
	return lines
}

// cards is "1 card" or "n cards".
func cards(n int) string { return cardWords(n).String() }

func cardWords(n int) scene.Words {
	if n == 1 {
		return scene.Say("1 card")
	}
	return scene.Say("%d cards", n)
}

func joinInts(v []int) string {
	parts := make([]string, len(v))
	for i, n := range v {
		parts[i] = strconv.Itoa(n)
	}
	return strings.Join(parts, ", ")
}

func describe(v View, last *Outcome, who []any) domain.Words {
	desc := []scene.Words{scene.Say("Top card %d; draw pile %s; Primed pile %s.", v.Top, cardWords(v.DrawPileSize), cardWords(len(v.PrimedPile)))}
	for _, h := range v.Hands {
		total := 0
		if h.Seat < len(v.Scores.Totals) {
			total = v.Scores.Totals[h.Seat]
		}
		if h.Cards != nil {
			desc = append(desc, scene.Say("%s (score so far %d): hand %s.", who[h.Seat], total, joinInts(h.Cards)))
		} else {
			desc = append(desc, scene.Say("%s (score so far %d): %s face down.", who[h.Seat], total, cardWords(h.Size)))
		}
	}
	if v.DrawnCard != 0 {
		desc = append(desc, scene.Say("Drawn card: %d.", v.DrawnCard))
	}
	if last != nil {
		desc = append(desc, lastLines(last, who)...)
	}
	title := scene.Say("Primed, round %d of %d", v.Round, v.Options.Rounds)
	if won := winners(v, who); !won.Zero() {
		title = scene.Say("Primed, round %d of %d, %s", v.Round, v.Options.Rounds, won)
	} else if s := status(v, who); !s.Zero() {
		title = scene.Say("Primed, round %d of %d, %s", v.Round, v.Options.Rounds, s)
	}
	return domain.Words{Title: title, Desc: scene.Join(" ", desc...)}
}
