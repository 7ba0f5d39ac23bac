package primed

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"primegames/domain"
	"primegames/domain/players"
	"primegames/domain/scene/scenetest"
	"primegames/domain/svg/svgtest"
)

func picture3(t testing.TB, state domain.State, outcome domain.Outcome, viewer domain.Viewer) ([]byte, *View) {
	t.Helper()
	view := state.View(viewer).(*View)
	raw, err := json.Marshal(view)
	if err != nil {
		t.Fatal(err)
	}
	last, err := json.Marshal(outcome.Redact(viewer))
	if err != nil {
		t.Fatal(err)
	}
	pos := domain.Position{View: raw, Last: last, Players: []string{"Ann", "Bob", "Cy"}}
	if viewer.Role == domain.RolePlayer {
		pos.You = &viewer.Seat
	}
	s, err := Kind.Picture.Still(domain.Desktop, pos)
	if err != nil {
		t.Fatal(err)
	}
	return s.SVG(), view
}

// TestPictureShowsNoCardItsViewHides renders every step of a game for every viewer and checks that
// the cards shown face up are exactly the ones the viewer's JSON view shows: its own hand only, the
// others as backs with their count (PR-8; G-1: the picture is drawn from the view, never the state).
func TestPictureShowsNoCardItsViewHides(t *testing.T) {
	steps, err := players.Playout(Kind, 3, players.Random, 11, 5000)
	if err != nil {
		t.Fatal(err)
	}
	viewers := []domain.Viewer{domain.Public, domain.Player(0), domain.Player(1), domain.Player(2), domain.Full}
	hiddenSeen := 0
	for i, step := range steps {
		st := step.State.(*State)
		for _, viewer := range viewers {
			doc, view := picture3(t, st, step.Outcome, viewer)
			root := svgtest.Parse(t, doc)
			for _, hand := range root.All("hand") {
				seat, _ := strconv.Atoi(hand.Attr("data-seat"))
				var faces []int
				for _, f := range hand.All("face") {
					v, _ := strconv.Atoi(f.Attr("data-value"))
					faces = append(faces, v)
				}
				backs := len(hand.All("back"))
				mayShow := view.Hands[seat].Cards != nil
				switch {
				case mayShow && !slices.Equal(faces, view.Hands[seat].Cards):
					t.Fatalf("step %d, %v: seat %d's hand drawn as %v, its view has %v", i, viewer, seat, faces, view.Hands[seat].Cards)
				case !mayShow && (len(faces) != 0 || backs != len(st.t.Hands[seat])):
					t.Fatalf("step %d, %v: seat %d's hidden hand drawn with %d faces and %d backs", i, viewer, seat, len(faces), backs)
				case !mayShow:
					hiddenSeen++
				}
			}
			if drawn := root.All("drawn"); len(drawn) > 0 && (view.DrawnCard == 0 || drawn[0].Attr("data-value") != strconv.Itoa(view.DrawnCard)) {
				t.Fatalf("step %d, %v: a drawn card shown that the view hides", i, viewer)
			}
			if top := root.All("top"); len(top) != 1 || top[0].Attr("data-value") != strconv.Itoa(st.Top()) {
				t.Fatalf("step %d: top card not drawn as %d", i, st.Top())
			}
			// The picture is the same whatever the hidden cards are: it cannot tell them, in
			// cards or in words.
			if viewer.Role != domain.RoleFull && st.t.Phase != PhaseFinished {
				other, otherOutcome := withOtherHiddenCards(st, step.Outcome.(*Outcome), viewer)
				if again, _ := picture3(t, other, otherOutcome, viewer); string(again) != string(doc) {
					t.Fatalf("step %d, %v: the picture changes with cards the viewer may not see", i, viewer)
				}
			}
		}
	}
	if hiddenSeen == 0 || len(steps) < 50 {
		t.Fatalf("only %d steps and %d hidden hands: the test proves little", len(steps), hiddenSeen)
	}
}

// withOtherHiddenCards is st and its outcome with every card viewer may not see changed: the other
// seats' hands, the draw pile, another seat's drawn card.
func withOtherHiddenCards(st *State, o *Outcome, viewer domain.Viewer) (*State, *Outcome) {
	other := &State{t: st.t.clone()}
	change := func(cards []int) []int {
		out := make([]int, len(cards))
		for i, c := range cards {
			out[i] = c%other.t.Options.MaxCard() + 1
		}
		slices.Sort(out)
		return out
	}
	for seat := range other.t.Hands {
		if !canSee(viewer, seat) {
			other.t.Hands[seat] = change(other.t.Hands[seat])
		}
	}
	other.t.DrawPile = change(other.t.DrawPile)
	if other.t.Drawn != 0 && !canSee(viewer, other.t.Turn) {
		other.t.Drawn = other.t.Drawn%other.t.Options.MaxCard() + 1
	}
	oo := *o
	if o.Drew != nil && !canSee(viewer, o.Drew.Seat) {
		d := *o.Drew
		d.Card = d.Card%other.t.Options.MaxCard() + 1
		oo.Drew = &d
	}
	if o.Dealt != nil {
		d := *o.Dealt
		d.Hands = make([][]int, len(o.Dealt.Hands))
		for seat, h := range o.Dealt.Hands {
			d.Hands[seat] = h
			if !canSee(viewer, seat) {
				d.Hands[seat] = change(h)
			}
		}
		oo.Dealt = &d
	}
	return other, &oo
}

// benchPosition is the end of a game of four as seat 0 sees it.
func benchPosition(b *testing.B) domain.Position {
	steps, err := players.Playout(Kind, 4, players.Random, 3, 30)
	if err != nil {
		b.Fatal(err)
	}
	last := steps[len(steps)-1]
	raw, _ := json.Marshal(last.State.View(domain.Player(0)))
	out, _ := json.Marshal(last.Outcome.Redact(domain.Player(0)))
	return domain.Position{View: raw, Last: out, Players: []string{"Ann", "Bob", "Cy", "Dee"}, You: ptrTo(0)}
}

func BenchmarkPicture(b *testing.B) {
	pos := benchPosition(b)
	b.ResetTimer()
	for range b.N {
		s, err := Kind.Picture.Still(domain.Desktop, pos)
		if err != nil {
			b.Fatal(err)
		}
		_ = s.SVG()
	}
}

// The table is as tall as its hands need; a finished game names its winner in large type, the
// round results name their players, and the viewer's hand is marked "you".
func TestPictureIsSizedToItsPlayersAndNamesWinnerRoundsAndYou(t *testing.T) {
	names := []string{"Ann", "Bob", "Cy", "Dee"}
	for _, l := range domain.Layouts {
		heights := map[int]float64{}
		for seats := 2; seats <= 4; seats++ {
			steps, err := players.Playout(Kind, seats, players.Random, 5, 5000)
			if err != nil {
				t.Fatal(err)
			}
			end := steps[len(steps)-1]
			if end.State.(*State).t.Phase != PhaseFinished {
				t.Fatal("the game did not finish")
			}
			raw, _ := json.Marshal(end.State.View(domain.Player(1)))
			last, _ := json.Marshal(end.Outcome.Redact(domain.Player(1)))
			s, err := Kind.Picture.Still(l, domain.Position{View: raw, Last: last, Players: names[:seats], You: ptrTo(1)})
			if err != nil {
				t.Fatal(err)
			}
			scenetest.Keep(t, fmt.Sprintf("primed-%s-%d", l, seats), s)
			heights[seats] = s.Height
			root := svgtest.Parse(t, s.SVG())
			view := end.State.(*State).ViewFor(domain.Player(1))
			var won []string
			for _, w := range view.Scores.Winners {
				won = append(won, names[w])
			}
			banner := root.All("winner")
			if len(banner) != 1 || !strings.Contains(strings.Join(banner[0].Texts(), " "), strings.Join(won, " and ")+" won!") {
				t.Fatalf("%s, %d seats: the winner banner is %v, want %v", l, seats, banner, won)
			}
			rounds := root.All("rounds")
			if len(rounds) != 1 || len(rounds[0].All("round")) == 0 {
				t.Fatalf("no round results drawn")
			}
			header := strings.Join(rounds[0].Texts(), " ")
			for _, name := range names[:seats] {
				if !strings.Contains(header, name) {
					t.Fatalf("the round results do not name %s: %s", name, header)
				}
			}
			you := root.All("you")
			if len(you) != 1 || you[0].Attr("data-seat") != "1" || !strings.Contains(strings.Join(you[0].Texts(), " "), "Bob (you)") {
				t.Fatalf("%s: you marked on %d hands", l, len(you))
			}
			if m := regexp.MustCompile(`(?i)\bseat \d`).FindString(strings.Join(root.Texts(), " ")); m != "" {
				t.Fatalf("the picture says %q", m)
			}
		}
		if !(heights[2] < heights[3] && heights[3] < heights[4]) {
			t.Fatalf("%s: heights %v do not grow with the players", l, heights)
		}
	}
}

func ptrTo[T any](v T) *T { return &v }

func BenchmarkPicturePNG(b *testing.B) {
	scenetest.BenchmarkPNG(b, Kind.Picture, benchPosition(b))
}
