package primeclimb

import (
	"encoding/json"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"primegames/domain"
	"primegames/domain/players"
	"primegames/domain/scene"
	"primegames/domain/scene/scenetest"
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

func still(t testing.TB, l domain.Layout, pos domain.Position) (*scene.Scene, svgtest.Node) {
	t.Helper()
	s, err := Kind.Picture.Still(l, pos)
	if err != nil {
		t.Fatal(err)
	}
	return s, svgtest.Parse(t, s.SVG())
}

func TestBoardPictureColoursEverySquareAsTheBoardReference(t *testing.T) {
	for _, l := range domain.Layouts {
		s, ok := Kind.Picture.BoardAlone(l, scene.Say("The Prime Climb board"), scene.Say("test"))
		if !ok {
			t.Fatal("Prime Climb has no board picture")
		}
		scenetest.Keep(t, "board-"+string(l), s)
		squares := svgtest.Parse(t, s.SVG()).All("square")
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
}

func num(n svgtest.Node, attr string) float64 {
	v, _ := strconv.ParseFloat(n.Attr(attr), 64)
	return v
}

// Every pawn stands beside its square, off the number (outside the white hole the number is
// written in), carries its number as the hints say it ("pawn 0", "pawn 1"), and covers no other
// pawn.
func TestPicturePutsEveryPawnBesideItsSquareWithItsNumber(t *testing.T) {
	t.Parallel()
	steps := playedOut(t, 3)
	for _, l := range domain.Layouts {
		hole := lookOf(l).numHole
		for i, step := range steps {
			pos := positionOf(t, step, domain.Public, int64(i))
			s, root := still(t, l, pos)
			if i == len(steps)/2 {
				scenetest.Keep(t, "position-"+string(l), s)
			}
			state := step.State.(State)
			var drawn [][2]float64
			for _, p := range root.All("pawn") {
				if p.Attr("data-square") == "" {
					continue // the panel's key
				}
				seat, _ := strconv.Atoi(p.Attr("data-seat"))
				pawn, _ := strconv.Atoi(p.Attr("data-pawn"))
				at := state.Players[seat].Pawns[pawn]
				if p.Attr("data-square") != strconv.Itoa(at) {
					t.Fatalf("step %d: seat %d pawn %d drawn on %s, stands on %d", i, seat, pawn, p.Attr("data-square"), at)
				}
				disc, _ := p.Child("circle")
				label, _ := p.Child("text")
				if strings.TrimSpace(label.Text) != strconv.Itoa(pawn) {
					t.Fatalf("step %d: pawn %d is labelled %q", i, pawn, label.Text)
				}
				x, y, r := num(disc, "cx"), num(disc, "cy"), num(disc, "r")
				c := squareCentres[at]
				d := math.Hypot(x-c[0], y-c[1])
				if d-r < hole*radiusOf(at) || d > radiusOf(at)+r+3 {
					t.Fatalf("step %d: seat %d pawn %d at %.1f from the centre of %d: on its number or away from it", i, seat, pawn, d, at)
				}
				for _, o := range drawn {
					if math.Hypot(o[0]-x, o[1]-y) < 2*r-0.1 {
						t.Fatalf("step %d: two pawns overlap at %v", i, o)
					}
				}
				drawn = append(drawn, [2]float64{x, y})
			}
			if len(drawn) != 2*len(state.Players) {
				t.Fatalf("step %d: %d pawns drawn, want %d", i, len(drawn), 2*len(state.Players))
			}
		}
	}
}

var pathPoint = regexp.MustCompile(`[ML](-?[\d.]+) (-?[\d.]+)`)

func pathPoints(t *testing.T, n svgtest.Node) [][2]float64 {
	t.Helper()
	path, ok := n.Child("path")
	if !ok {
		t.Fatalf("%s has no path", n.Attr("class"))
	}
	var out [][2]float64
	for _, m := range pathPoint.FindAllStringSubmatch(path.Attr("d"), -1) {
		x, _ := strconv.ParseFloat(m[1], 64)
		y, _ := strconv.ParseFloat(m[2], 64)
		out = append(out, [2]float64{x, y})
	}
	return out
}

// A move is drawn along the track, never across a number; its bump runs back to Start along the
// other side of the track, dashed and grey, apart from the move.
func TestPictureDrawsMovesAlongTheTrackApartFromTheirBumps(t *testing.T) {
	s := game([2]int{30, 0}, [2]int{37, 5})
	s, _ = apply(t, s, 0, `{"type":"roll"}`, 6, 2)
	s, out := apply(t, s, 0, `{"type":"move","steps":[{"die":7,"pawn":0,"op":"add"},{"die":3,"pawn":1,"op":"add"}]}`)
	if len(out.Bumps) != 1 {
		t.Fatalf("the move bumped %v", out.Bumps)
	}
	pos := domain.Position{Players: []string{"Ann", "Bob"}}
	pos.View, _ = json.Marshal(s.View(domain.Public))
	pos.Last, _ = json.Marshal(out.Redact(domain.Public))
	for _, l := range domain.Layouts {
		sc, root := still(t, l, pos)
		scenetest.Keep(t, "bump-"+string(l), sc)
		moves, bumps := root.All("move"), root.All("bump")
		if len(moves) != 2 || len(bumps) != 1 {
			t.Fatalf("%d moves and %d bumps drawn", len(moves), len(bumps))
		}
		if moves[0].Attr("data-from") != "30" || moves[0].Attr("data-to") != "37" || bumps[0].Attr("data-from") != "37" || bumps[0].Attr("data-seat") != "1" {
			t.Fatalf("move %s→%s, bump of seat %s from %s", moves[0].Attr("data-from"), moves[0].Attr("data-to"), bumps[0].Attr("data-seat"), bumps[0].Attr("data-from"))
		}
		move, bump := pathPoints(t, moves[0]), pathPoints(t, bumps[0])
		if len(move) < 7*3 {
			t.Fatalf("the move 30→37 is drawn with %d points: not along the track", len(move))
		}
		hole := lookOf(l).numHole
		for _, pts := range [][][2]float64{move, bump} {
			for _, p := range pts {
				for n, c := range squareCentres {
					if math.Hypot(p[0]-c[0], p[1]-c[1]) < hole*radiusOf(n) {
						t.Fatalf("a line crosses the number %d at %v", n, p)
					}
				}
			}
		}
		for _, p := range move {
			for _, q := range bump {
				if math.Hypot(p[0]-q[0], p[1]-q[1]) < 10 {
					t.Fatalf("the move and its bump touch at %v", p)
				}
			}
		}
		movePath, _ := moves[0].Child("path")
		bumpPath, _ := bumps[0].Child("path")
		if bumpPath.Attr("stroke-dasharray") == "" || movePath.Attr("stroke-dasharray") != "" || bumpPath.Attr("stroke") == movePath.Attr("stroke") {
			t.Fatal("the bump is not drawn unlike the move")
		}
		text := strings.Join(root.Texts(), "\n")
		if !strings.Contains(text, "Last action (Ann):") || !strings.Contains(text, "pawn 0: 30 + 7 = 37") || !strings.Contains(text, "bumped Bob's pawn 0 from 37 to Start") {
			t.Fatalf("the picture does not say the move with names:\n%s", text)
		}
	}
}

var seatNumber = regexp.MustCompile(`(?i)\bseat \d`)

// Seats are named by their players' names everywhere, and the viewer's is marked.
func TestPictureNamesPlayersAndMarksYou(t *testing.T) {
	steps := playedOut(t, 3)
	for i, step := range steps {
		pos := positionOf(t, step, domain.Public, int64(i))
		pos.You = new(int)
		*pos.You = 1
		_, root := still(t, domain.Phone, pos)
		all := strings.Join(root.Texts(), "\n")
		if m := seatNumber.FindString(all); m != "" {
			t.Fatalf("step %d says %q:\n%s", i, m, all)
		}
		you := root.All("you")
		if len(you) != 1 || you[0].Attr("data-seat") != "1" || !strings.Contains(strings.Join(you[0].Texts(), " "), "Bob (you)") {
			t.Fatalf("step %d: you marked on %d seats", i, len(you))
		}
	}
}

func TestPictureDrawsTheDiceAndTheCards(t *testing.T) {
	s, _ := apply(t, game([2]int{30, 0}, [2]int{5, 5}).holding(1, Curse), 0, `{"type":"roll"}`, 6, 2)
	pos := domain.Position{Players: []string{"Ann", "Bob"}}
	pos.View, _ = json.Marshal(s.View(domain.Public))
	_, root := still(t, domain.Desktop, pos)
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
}

func BenchmarkPicture(b *testing.B) {
	steps := playedOut(b, 4)
	pos := positionOf(b, steps[len(steps)/2], domain.Public, 1)
	b.ResetTimer()
	for range b.N {
		s, err := Kind.Picture.Still(domain.Desktop, pos)
		if err != nil {
			b.Fatal(err)
		}
		_ = s.SVG()
	}
}

func BenchmarkPicturePNG(b *testing.B) {
	steps := playedOut(b, 4)
	scenetest.BenchmarkPNG(b, Kind.Picture, positionOf(b, steps[len(steps)/2], domain.Public, 1))
}

func TestReplayShowsEveryStepInTurnWithItsCounter(t *testing.T) {
	steps := playedOut(t, 2)[:12]
	positions := make([]domain.Position, len(steps))
	for i, step := range steps {
		positions[i] = positionOf(t, step, domain.Full, int64(i))
	}
	doc, err := Kind.Picture.Replay(domain.Desktop, scene.Say("A replay of Ann and Bob"), positions, 1.5)
	if err != nil {
		t.Fatal(err)
	}
	root := svgtest.Parse(t, doc)
	if title, _ := root.Child("title"); title.Text != "A replay of Ann and Bob" {
		t.Fatalf("title %q", title.Text)
	}
	frames := root.All("step")
	if len(frames) != len(steps) {
		t.Fatalf("%d steps animated, want %d", len(frames), len(steps))
	}
	for i, f := range frames {
		if want := "animation-delay:" + strconv.FormatFloat(1.5*float64(i), 'f', -1, 64) + "s"; f.Attr("style") != want || f.Attr("data-seq") != strconv.Itoa(i) {
			t.Fatalf("step %d: style %q seq %s, want %q", i, f.Attr("style"), f.Attr("data-seq"), want)
		}
		counter := f.All("counter")
		if want := domain.StepCounter(i, len(steps), int64(i)); len(counter) != 1 || counter[0].Text != want {
			t.Fatalf("step %d: counter %v, want %q", i, counter, want)
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
}
