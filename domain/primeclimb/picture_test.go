package primeclimb

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"primegames/domain"
	"primegames/domain/players"
	"primegames/domain/svg/svgtest"
)

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
	squares := svgtest.Parse(t, doc).All("square")
	if len(squares) != Home+1 {
		t.Fatalf("%d squares drawn, want %d", len(squares), Home+1)
	}
	for _, sq := range Board() {
		g := squares[sq.Number]
		if g.Attr("data-number") != strconv.Itoa(sq.Number) {
			t.Fatalf("square %d drawn as %s", sq.Number, g.Attr("data-number"))
		}
		want := sq.Colors
		if sq.Red {
			want = []string{"red"} // PC-10: a prime above 10 is red all over
		}
		wedges := g.All("wedge")
		if len(wedges) != len(want) {
			t.Fatalf("square %d has %d wedges, want %v", sq.Number, len(wedges), want)
		}
		for i, w := range wedges {
			if w.Attr("data-color") != want[i] || w.Attr("fill") != Palette[want[i]] {
				t.Errorf("square %d wedge %d is %s %s, want %s %s", sq.Number, i, w.Attr("data-color"), w.Attr("fill"), want[i], Palette[want[i]])
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
		root := svgtest.Parse(t, doc)
		state := step.State.(State)
		pawns := 0
		for _, p := range root.All("pawn") {
			if p.Attr("data-square") == "" {
				continue // the panel's colour key
			}
			pawns++
			seat, _ := strconv.Atoi(p.Attr("data-seat"))
			pawn, _ := strconv.Atoi(p.Attr("data-pawn"))
			at := state.Players[seat].Pawns[pawn]
			if p.Attr("data-square") != strconv.Itoa(at) {
				t.Fatalf("step %d: seat %d pawn %d drawn on %s, stands on %d", i, seat, pawn, p.Attr("data-square"), at)
			}
			x, _ := strconv.ParseFloat(p.Attr("cx"), 64)
			y, _ := strconv.ParseFloat(p.Attr("cy"), 64)
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
	root := svgtest.Parse(t, doc)
	var dice []string
	for _, d := range root.All("die") {
		dice = append(dice, d.Attr("data-value"))
	}
	if strings.Join(dice, " ") != "7 3" {
		t.Fatalf("dice drawn %v, want 7 3", dice)
	}
	if k := root.All("keeper"); len(k) != 1 || k[0].Attr("data-card") != string(Curse) {
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
	for _, a := range svgtest.Parse(t, doc).All("move") {
		arrows = append(arrows, a.Attr("data-from")+"→"+a.Attr("data-to"))
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
	svgtest.Parse(t, doc)
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

func TestReplayShowsEveryStepInTurnAndPausesOnHover(t *testing.T) {
	steps := playedOut(t, 2)[:12]
	positions := make([]domain.Position, len(steps))
	for i, step := range steps {
		positions[i] = positionOf(t, step, domain.Full, int64(i))
	}
	doc, err := Kind.Picture.Replay("A replay", positions, 1.5)
	if err != nil {
		t.Fatal(err)
	}
	keepPicture(t, "replay.svg", doc)
	root := svgtest.Parse(t, doc)
	frames := root.All("step")
	if len(frames) != len(steps) {
		t.Fatalf("%d steps animated, want %d", len(frames), len(steps))
	}
	for i, f := range frames {
		if want := "animation-delay:" + strconv.FormatFloat(1.5*float64(i), 'f', -1, 64) + "s"; f.Attr("style") != want || f.Attr("data-seq") != strconv.Itoa(i) {
			t.Fatalf("step %d: style %q seq %s, want %q", i, f.Attr("style"), f.Attr("data-seq"), want)
		}
	}
	if n := len(root.All("square")); n != Home+1 {
		t.Fatalf("the replay draws %d squares, want the board once (%d)", n, Home+1)
	}
	style, _ := root.Child("style")
	for _, want := range []string{"animation:step 18s step-end infinite", "svg:hover .step,svg:focus .step{animation-play-state:paused}", "prefers-reduced-motion"} {
		if !strings.Contains(style.Text, want) {
			t.Errorf("the replay's style lacks %q: %s", want, style.Text)
		}
	}
	if strings.Contains(string(doc), "<script") || strings.Contains(string(doc), "href") {
		t.Error("the replay has a script or a reference")
	}
	if n := strings.Count(string(doc), `id="head-0"`); n != 1 {
		t.Errorf("the arrow head is defined %d times; ids must be unique", n)
	}
}
