package primeclimb

import (
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"primegames/domain"
	"primegames/domain/players"
)

// svgNode is an SVG element read back with encoding/xml, for tests that look inside a picture.
type svgNode struct {
	XMLName  xml.Name
	Attrs    []xml.Attr `xml:",any,attr"`
	Text     string     `xml:",chardata"`
	Children []svgNode  `xml:",any"`
}

func (n svgNode) attr(name string) string {
	for _, a := range n.Attrs {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

func (n svgNode) hasClass(class string) bool {
	return strings.Contains(" "+n.attr("class")+" ", " "+class+" ")
}

// all lists n and every element under it with the given class.
func (n svgNode) all(class string) []svgNode {
	var out []svgNode
	if n.hasClass(class) {
		out = append(out, n)
	}
	for _, c := range n.Children {
		out = append(out, c.all(class)...)
	}
	return out
}

func parseSVG(t testing.TB, doc []byte) svgNode {
	t.Helper()
	var root svgNode
	if err := xml.Unmarshal(doc, &root); err != nil {
		t.Fatalf("the picture is not well-formed XML: %v\n%s", err, doc)
	}
	if root.XMLName.Local != "svg" {
		t.Fatalf("root element is %s", root.XMLName.Local)
	}
	return root
}

func playedOut(t testing.TB, seats int) []players.Step {
	t.Helper()
	steps, err := players.Playout(Kind, seats, players.Mostly(players.Greedy(Kind), 80), 7, 400)
	if err != nil {
		t.Fatal(err)
	}
	return steps
}

func positionOf(t testing.TB, step players.Step, viewer domain.Viewer, seq int64) domain.Position {
	t.Helper()
	view, err := json.Marshal(step.State.View(viewer))
	if err != nil {
		t.Fatal(err)
	}
	last, err := json.Marshal(step.Outcome.Redact(viewer))
	if err != nil {
		t.Fatal(err)
	}
	return domain.Position{View: view, Last: last, Players: []string{"Ann", "Bob", "Cy"}, Seq: seq}
}

// keepPicture writes a picture under $PICTURES_DIR, when set, to look at it.
func keepPicture(t testing.TB, name string, doc []byte) {
	if dir := os.Getenv("PICTURES_DIR"); dir != "" {
		if err := os.WriteFile(filepath.Join(dir, name), doc, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestBoardPictureColoursEverySquareAsTheBoardReference(t *testing.T) {
	doc, ok := Kind.Picture.BoardAlone("The Prime Climb board", "test")
	if !ok {
		t.Fatal("Prime Climb has no board picture")
	}
	keepPicture(t, "board.svg", doc)
	squares := parseSVG(t, doc).all("square")
	if len(squares) != Home+1 {
		t.Fatalf("%d squares drawn, want %d", len(squares), Home+1)
	}
	for _, sq := range Board() {
		g := squares[sq.Number]
		if g.attr("data-number") != strconv.Itoa(sq.Number) {
			t.Fatalf("square %d drawn as %s", sq.Number, g.attr("data-number"))
		}
		want := sq.Colors
		if sq.Red {
			want = []string{"red"} // PC-10: a prime above 10 is red all over
		}
		wedges := g.all("wedge")
		if len(wedges) != len(want) {
			t.Fatalf("square %d has %d wedges, want %v", sq.Number, len(wedges), want)
		}
		for i, w := range wedges {
			if w.attr("data-color") != want[i] || w.attr("fill") != Palette[want[i]] {
				t.Errorf("square %d wedge %d is %s %s, want %s %s", sq.Number, i, w.attr("data-color"), w.attr("fill"), want[i], Palette[want[i]])
			}
		}
	}
}

func TestPicturePutsEveryPawnOnItsSquare(t *testing.T) {
	steps := playedOut(t, 3)
	for i, step := range steps {
		pos := positionOf(t, step, domain.Public, int64(i))
		doc, err := Kind.Picture.Still(pos)
		if err != nil {
			t.Fatal(err)
		}
		if i == len(steps)/2 {
			keepPicture(t, "position.svg", doc)
		}
		root := parseSVG(t, doc)
		state := step.State.(State)
		pawns := 0
		for _, p := range root.all("pawn") {
			if p.attr("data-square") == "" {
				continue // the panel's colour key
			}
			pawns++
			seat, _ := strconv.Atoi(p.attr("data-seat"))
			pawn, _ := strconv.Atoi(p.attr("data-pawn"))
			at := state.Players[seat].Pawns[pawn]
			if p.attr("data-square") != strconv.Itoa(at) {
				t.Fatalf("step %d: seat %d pawn %d drawn on %s, stands on %d", i, seat, pawn, p.attr("data-square"), at)
			}
			x, _ := strconv.ParseFloat(p.attr("cx"), 64)
			y, _ := strconv.ParseFloat(p.attr("cy"), 64)
			c := squareCentres[at]
			if dx, dy := x-c[0], y-c[1]; dx*dx+dy*dy > radiusOf(at)*radiusOf(at) {
				t.Fatalf("step %d: seat %d pawn %d drawn outside circle %d", i, seat, pawn, at)
			}
		}
		if pawns != 2*len(state.Players) {
			t.Fatalf("step %d: %d pawns drawn, want %d", i, pawns, 2*len(state.Players))
		}
	}
}

func TestPictureDrawsTheDiceTheMoveAndTheCards(t *testing.T) {
	s, _ := apply(t, game([2]int{30, 0}, [2]int{5, 5}).holding(1, Curse), 0, `{"type":"roll"}`, 6, 2)
	pos := domain.Position{Players: []string{"Ann", "Bob"}}
	pos.View, _ = json.Marshal(s.View(domain.Public))
	doc, err := Kind.Picture.Still(pos)
	if err != nil {
		t.Fatal(err)
	}
	root := parseSVG(t, doc)
	var dice []string
	for _, d := range root.all("die") {
		dice = append(dice, d.attr("data-value"))
	}
	if strings.Join(dice, " ") != "7 3" {
		t.Fatalf("dice drawn %v, want 7 3", dice)
	}
	if k := root.all("keeper"); len(k) != 1 || k[0].attr("data-card") != string(Curse) {
		t.Fatalf("keepers drawn: %v", k)
	}
	s, out := apply(t, s, 0, `{"type":"move","steps":[{"die":7,"pawn":0,"op":"add"},{"die":3,"pawn":0,"op":"add"}]}`)
	pos.View, _ = json.Marshal(s.View(domain.Public))
	pos.Last, _ = json.Marshal(out.Redact(domain.Public))
	doc, err = Kind.Picture.Still(pos)
	if err != nil {
		t.Fatal(err)
	}
	var arrows []string
	for _, a := range parseSVG(t, doc).all("move") {
		arrows = append(arrows, a.attr("data-from")+"→"+a.attr("data-to"))
	}
	if strings.Join(arrows, " ") != "30→37 37→40" {
		t.Fatalf("move arrows %v, want 30→37 37→40", arrows)
	}
	if !strings.Contains(string(doc), "30 + 7 = 37") {
		t.Fatal("the picture does not say the move in words")
	}
}

func TestPictureEscapesPlayerNames(t *testing.T) {
	steps := playedOut(t, 2)
	pos := positionOf(t, steps[0], domain.Public, 0)
	pos.Players = []string{`<script>alert("x")</script>`, `Bob & "Al" <b>`}
	doc, err := Kind.Picture.Still(pos)
	if err != nil {
		t.Fatal(err)
	}
	parseSVG(t, doc)
	if strings.Contains(string(doc), "<script") || strings.Contains(string(doc), "<b>") {
		t.Fatalf("a player's name came out as markup:\n%s", doc)
	}
	if !strings.Contains(string(doc), "&lt;script&gt;") {
		t.Fatal("the escaped name is missing")
	}
}

func BenchmarkPicture(b *testing.B) {
	steps := playedOut(b, 4)
	pos := positionOf(b, steps[len(steps)/2], domain.Public, 1)
	b.ResetTimer()
	for range b.N {
		if _, err := Kind.Picture.Still(pos); err != nil {
			b.Fatal(err)
		}
	}
}
