package primed

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"primegames/domain"
	"primegames/domain/svg"
)

// picture draws a Primed table from a view: hands the view hides are card backs with their count,
// so a picture shows exactly the cards its view does (PR-8).
var picture = &domain.Picture{Width: 900, Height: 580, Style: pictureStyle, Position: drawTable}

const pictureStyle = `text{fill:#222}.head{font-size:20px;font-weight:bold}.label{font-size:14px}.small{font-size:12px}` +
	`.value{font-size:16px;font-weight:bold;text-anchor:middle;dominant-baseline:central}.top .value{font-size:30px}` +
	`.face rect{fill:#fff;stroke:#333;stroke-width:1.5}.back rect{fill:#3b5ba5;stroke:#1d2f5e;stroke-width:1.5}` +
	`.back path{stroke:#9fb3e6;stroke-width:1;fill:none}`

const (
	cardWidth, cardHeight = 32.0, 46.0
	handX                 = 260.0
	firstHandY            = 200.0
	handRow               = 62.0
)

func drawTable(w *svg.Writer, pos domain.Position) (domain.Words, error) {
	var v View
	if err := json.Unmarshal(pos.View, &v); err != nil {
		return domain.Words{}, fmt.Errorf("primed view: %w", err)
	}
	var last *Outcome
	if len(pos.Last) > 0 {
		last = &Outcome{}
		if err := json.Unmarshal(pos.Last, last); err != nil {
			return domain.Words{}, fmt.Errorf("primed outcome: %w", err)
		}
	}
	names := make([]string, v.Seats)
	for i := range names {
		names[i] = "Seat " + strconv.Itoa(i)
		if i < len(pos.Players) && pos.Players[i] != "" {
			names[i] = pos.Players[i]
		}
	}
	w.Empty("rect", svg.N("width", 900), svg.N("height", 580), svg.A("fill", "#e9f3ea"))
	w.Text("text", "Primed", svg.A("class", "head"), svg.N("x", 24), svg.N("y", 36))
	w.Text("text", headline(v, names), svg.A("class", "label"), svg.N("x", 110), svg.N("y", 36))

	w.Open("g", svg.A("id", "piles"))
	drawBack(w, 24, 64, -1)
	w.Text("text", fmt.Sprintf("draw pile: %d", v.DrawPileSize), svg.A("class", "small"), svg.N("x", 24), svg.N("y", 130))
	drawFace(w, 130, 56, 54, 78, v.Top, "top")
	w.Text("text", fmt.Sprintf("Primed pile: %d", len(v.PrimedPile)), svg.A("class", "small"), svg.N("x", 120), svg.N("y", 150))
	if v.DrawnCard != 0 {
		drawFace(w, 220, 72, cardWidth, cardHeight, v.DrawnCard, "drawn")
		w.Text("text", "drawn", svg.A("class", "small"), svg.N("x", 220), svg.N("y", 132))
	}
	w.Close()
	if last != nil {
		for i, line := range lastLines(last, names) {
			w.Text("text", line, svg.A("class", "label"), svg.N("x", 300), svg.N("y", 80+float64(i)*22))
		}
	}

	w.Text("text", "Hands", svg.A("class", "label"), svg.A("font-weight", "bold"), svg.N("x", 24), svg.N("y", firstHandY-14))
	w.Text("text", "score so far", svg.A("class", "small"), svg.N("x", 200), svg.N("y", firstHandY-14))
	for _, h := range v.Hands {
		drawHand(w, v, h, names[h.Seat], firstHandY+float64(h.Seat)*handRow)
	}
	return describe(v, last, names), nil
}

func headline(v View, names []string) string {
	rounds := fmt.Sprintf("round %d of %d · target: %s", v.Round, v.Options.Rounds, v.Options.Target)
	switch {
	case v.Phase == PhaseFinished:
		won := make([]string, len(v.Scores.Winners))
		for i, s := range v.Scores.Winners {
			won[i] = names[s]
		}
		return rounds + " · over: " + strings.Join(won, " and ") + " won"
	case len(v.ToAct) > 0 && v.Phase == PhaseDrawn:
		return rounds + " · " + names[v.ToAct[0]] + " drew a playable card: play it or keep it"
	case len(v.ToAct) > 0:
		return rounds + " · " + names[v.ToAct[0]] + " to play"
	}
	return rounds
}

func drawHand(w *svg.Writer, v View, h HandView, name string, y float64) {
	w.Open("g", svg.A("class", "hand"), svg.A("data-seat", strconv.Itoa(h.Seat)), svg.A("data-size", strconv.Itoa(h.Size)))
	if len(v.ToAct) > 0 && v.ToAct[0] == h.Seat {
		w.Empty("rect", svg.N("x", 16), svg.N("y", y-4), svg.N("width", 868), svg.N("height", handRow-6), svg.N("rx", 8),
			svg.A("fill", "#fff3c4"), svg.A("stroke", "#e0b000"))
	}
	label := name
	if len([]rune(label)) > 20 {
		label = string([]rune(label)[:19]) + "…"
	}
	w.Text("text", label, svg.A("class", "label"), svg.A("font-weight", "bold"), svg.N("x", 24), svg.N("y", y+20))
	w.Text("text", cards(h.Size), svg.A("class", "small"), svg.N("x", 24), svg.N("y", y+38))
	total := 0
	if h.Seat < len(v.Scores.Totals) {
		total = v.Scores.Totals[h.Seat]
	}
	w.Text("text", strconv.Itoa(total), svg.A("class", "label"), svg.N("x", 200), svg.N("y", y+28))
	step := cardWidth + 4
	if h.Size > 16 {
		step = 600 / float64(h.Size)
	}
	for i := 0; i < h.Size; i++ {
		x := handX + float64(i)*step
		if h.Cards != nil && i < len(h.Cards) {
			drawFace(w, x, y+2, cardWidth, cardHeight, h.Cards[i], "")
		} else {
			drawBack(w, x, y+2, h.Seat)
		}
	}
	w.Close()
}

func drawFace(w *svg.Writer, x, y, width, height float64, value int, role string) {
	class := "card face"
	if role != "" {
		class += " " + role
	}
	w.Open("g", svg.A("class", class), svg.A("data-value", strconv.Itoa(value)))
	w.Empty("rect", svg.N("x", x), svg.N("y", y), svg.N("width", width), svg.N("height", height), svg.N("rx", 5))
	w.Text("text", strconv.Itoa(value), svg.A("class", "value"), svg.N("x", x+width/2), svg.N("y", y+height/2))
	w.Close()
}

func drawBack(w *svg.Writer, x, y float64, seat int) {
	w.Open("g", svg.A("class", "card back"), svg.A("data-seat", strconv.Itoa(seat)))
	w.Empty("rect", svg.N("x", x), svg.N("y", y), svg.N("width", cardWidth), svg.N("height", cardHeight), svg.N("rx", 5))
	w.Empty("path", svg.A("d", "M"+svg.Num(x+6)+" "+svg.Num(y+6)+"l20 34M"+svg.Num(x+26)+" "+svg.Num(y+6)+"l-20 34"))
	w.Close()
}

// lastLines tells the last action as its redacted outcome has it: a drawn card's value only when the
// viewer may see it.
func lastLines(o *Outcome, names []string) []string {
	var lines []string
	if p := o.Played; p != nil {
		lines = append(lines, names[p.Seat]+" played: "+p.Equation)
	}
	if r := o.Reshuffled; r != nil {
		lines = append(lines, fmt.Sprintf("The Primed pile was shuffled into a new draw pile of %d cards.", r.Cards))
	}
	if d := o.Drew; d != nil {
		if d.Card != 0 {
			lines = append(lines, fmt.Sprintf("%s drew a %d.", names[d.Seat], d.Card))
		} else {
			lines = append(lines, names[d.Seat]+" drew a card.")
		}
	}
	if p := o.Passed; p != nil {
		lines = append(lines, names[p.Seat]+" passed.")
	}
	if r := o.RoundEnded; r != nil {
		lines = append(lines, fmt.Sprintf("Round %d ended (%s); its scores: %s.", r.Round, strings.ReplaceAll(r.Ending, "_", " "), joinInts(r.Scores)))
	}
	if d := o.Dealt; d != nil {
		lines = append(lines, fmt.Sprintf("Round %d was dealt; the first top card is %d.", d.Round, d.Top))
	}
	return lines
}

// cards is "1 card" or "n cards".
func cards(n int) string {
	if n == 1 {
		return "1 card"
	}
	return strconv.Itoa(n) + " cards"
}

func joinInts(v []int) string {
	parts := make([]string, len(v))
	for i, n := range v {
		parts[i] = strconv.Itoa(n)
	}
	return strings.Join(parts, ", ")
}

func describe(v View, last *Outcome, names []string) domain.Words {
	var b strings.Builder
	fmt.Fprintf(&b, "Top card %d; draw pile %s; Primed pile %s. ", v.Top, cards(v.DrawPileSize), cards(len(v.PrimedPile)))
	for _, h := range v.Hands {
		total := 0
		if h.Seat < len(v.Scores.Totals) {
			total = v.Scores.Totals[h.Seat]
		}
		fmt.Fprintf(&b, "%s (seat %d, score so far %d): ", names[h.Seat], h.Seat, total)
		if h.Cards != nil {
			b.WriteString("hand " + joinInts(h.Cards) + ". ")
		} else {
			b.WriteString(cards(h.Size) + " face down. ")
		}
	}
	if v.DrawnCard != 0 {
		fmt.Fprintf(&b, "Drawn card: %d. ", v.DrawnCard)
	}
	if last != nil {
		b.WriteString(strings.Join(lastLines(last, names), " "))
	}
	return domain.Words{Title: "Primed, " + headline(v, names), Desc: strings.TrimSpace(b.String())}
}
