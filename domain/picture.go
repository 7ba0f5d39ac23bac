package domain

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"primegames/domain/scene"
	"primegames/domain/svg"
)

// Picture draws a kind's positions as scenes, written as SVG or drawn as PNG from the same
// description. It draws from views only, the JSON a viewer may see (View(viewer)), never from a
// state, so a picture can show no hidden card the JSON view hides (PR-8, G-1).
type Picture struct {
	// Title is the kind's name for people: "Prime Climb".
	Title string
	// Board draws what every position shares, under the pieces (Prime Climb's spiral); nil when
	// the kind has no board.
	Board func(l Layout) []scene.Node
	// Legend is the board's frame when it is shown alone: its size and the legend of its colours.
	Legend func(l Layout) Frame
	// Position draws one position over the board and says it in words.
	Position func(l Layout, p Position) (Frame, error)
}

// Layout is how a picture is laid out: for a wide screen, or a phone held upright.
type Layout string

// The layouts.
const (
	// Desktop is landscape: the board with a panel beside it.
	Desktop Layout = "desktop"
	// Phone is portrait with large type: the panel under the board.
	Phone Layout = "phone"
)

// Layouts lists every layout, the default first.
var Layouts = []Layout{Desktop, Phone}

// Position is one step of a game as one viewer may see it.
type Position struct {
	View json.RawMessage // the view, as GET /v1/games/{id}/states/{seq} gives it
	// Last is the outcome of the action that led here, redacted for the same viewer; nil at the start.
	Last    json.RawMessage
	Players []string // the seats' names, in seat order
	Seq     int64
	// You is the viewer's seat, marked "you" in the picture; nil for a viewer without one.
	You *int
}

// Frame is one position drawn: its size and background, what it shows, and the position in words.
type Frame struct {
	Width, Height float64
	Background    string
	Nodes         []scene.Node
	Words         Words
	// Counter is where a replay writes its step counter: its place, size and anchor.
	Counter scene.Text
}

// Words is a position in words: a short title and a longer description, for <title> and <desc>,
// kept in their parts so that they are said in the reader's language from translated parts.
type Words struct{ Title, Desc scene.Words }

// SeatName is the name of a seat: the player's name, or "Player n" (counted from 1) for a seat with
// none.
func SeatName(players []string, seat int) string {
	if seat >= 0 && seat < len(players) && players[seat] != "" {
		return players[seat]
	}
	return fmt.Sprintf("Player %d", seat+1)
}

// SeatWho is a seat in words: the player's name, said as it is in every language, or the words
// "Player n" for a seat with none.
func SeatWho(players []string, seat int) any {
	if seat >= 0 && seat < len(players) && players[seat] != "" {
		return players[seat]
	}
	return scene.Say("Player %d", seat+1)
}

// SeatsWho is SeatWho of every seat of a game of n seats.
func SeatsWho(players []string, n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = SeatWho(players, i)
	}
	return out
}

// Still is one position as a whole scene.
func (p *Picture) Still(l Layout, pos Position) (*scene.Scene, error) {
	f, err := p.Position(l, pos)
	if err != nil {
		return nil, err
	}
	return p.scene(l, f, f.Words.Title, f.Words.Desc, f.Nodes), nil
}

func (p *Picture) scene(l Layout, f Frame, title, desc scene.Words, nodes []scene.Node) *scene.Scene {
	all := []scene.Node{scene.Rect{Meta: scene.Meta{Class: "background"}, Paint: scene.Paint{Fill: f.Background}, W: f.Width, H: f.Height}}
	if p.Board != nil {
		all = append(all, p.Board(l)...)
	}
	return &scene.Scene{Width: f.Width, Height: f.Height, Title: title, Desc: desc, Nodes: append(all, nodes...)}
}

// BoardAlone is the kind's board with its legend as a whole scene; ok is false when the kind has
// no board.
func (p *Picture) BoardAlone(l Layout, title, desc scene.Words) (s *scene.Scene, ok bool) {
	if p.Board == nil || p.Legend == nil {
		return nil, false
	}
	f := p.Legend(l)
	return p.scene(l, f, title, desc, f.Nodes), true
}

// replayStyle makes each step of an animated replay visible for its own stepSeconds, one after the
// other, forever; hovering the picture pauses it, and a viewer who asked for less motion sees the
// last step only.
func replayStyle(steps int, stepSeconds float64) string {
	if steps == 1 {
		return ".step{visibility:visible}"
	}
	cycle := float64(steps) * stepSeconds
	share := 100 / float64(steps)
	var b strings.Builder
	fmt.Fprintf(&b, "@keyframes step{0%%{visibility:visible}%s%%{visibility:hidden}100%%{visibility:hidden}}", svg.Num(share))
	fmt.Fprintf(&b, ".step{visibility:hidden;animation:step %ss step-end infinite}", svg.Num(cycle))
	b.WriteString("svg:hover .step,svg:focus .step{animation-play-state:paused}")
	b.WriteString("@media (prefers-reduced-motion:reduce){.step{animation:none}.step:last-of-type{visibility:visible}}")
	return b.String()
}

// replayFlush is how much of a replay is held before it is written out.
const replayFlush = 32 << 10

// StepCounter is the counter a replay shows on its i-th (from 0) of n steps.
func StepCounter(i, n int, seq int64) string {
	return fmt.Sprintf("Step %d of %d (entry %d)", i+1, n, seq)
}

// counted is a frame's nodes with the replay's step counter on top.
func counted(f Frame, i, n int, seq int64) []scene.Node {
	c := f.Counter
	c.Meta = scene.Meta{Class: "counter"}
	c.Bold = true
	c.Text = StepCounter(i, n, seq)
	return append(f.Nodes, c)
}

// Replay is a whole game as one animated SVG document: every position in turn, each shown for
// stepSeconds, over one board.
func (p *Picture) Replay(l Layout, title scene.Words, steps []Position, stepSeconds float64) ([]byte, error) {
	var out strings.Builder
	if err := p.WriteReplay(&out, l, title, steps, stepSeconds, nil); err != nil {
		return nil, err
	}
	return []byte(out.String()), nil
}

// ReplayLast is a replay's last step as a still scene, with its step counter and the replay's
// title: a replay for a format that cannot animate (PNG).
func (p *Picture) ReplayLast(l Layout, title scene.Words, steps []Position) (*scene.Scene, error) {
	if len(steps) == 0 {
		return nil, fmt.Errorf("a replay needs at least one step")
	}
	last := steps[len(steps)-1]
	f, err := p.Position(l, last)
	if err != nil {
		return nil, fmt.Errorf("step %d: %w", last.Seq, err)
	}
	desc := scene.Say("The last of %d steps. %s. %s", len(steps), f.Words.Title, f.Words.Desc)
	return p.scene(l, f, title, desc, counted(f, len(steps)-1, len(steps), last.Seq)), nil
}

// SayWords says a scene's words in a reader's language (the scene itself when it is English, or nil).
type SayWords func(*scene.Scene) *scene.Scene

// WriteReplay writes Replay's document to out as it draws it: it holds one step's drawing at a
// time (and at most replayFlush bytes), whatever the number of steps. An error from out stops it.
// words, when not nil, says the document's title, description and each step's words in the
// reader's language as they are drawn.
func (p *Picture) WriteReplay(out io.Writer, l Layout, title scene.Words, steps []Position, stepSeconds float64, words SayWords) error {
	if words == nil {
		words = func(sc *scene.Scene) *scene.Scene { return sc }
	}
	if len(steps) == 0 {
		return fmt.Errorf("a replay needs at least one step")
	}
	// The description names the first and the last step, so those two are drawn (in words) first.
	first, err := p.Position(l, steps[0])
	if err != nil {
		return fmt.Errorf("step %d: %w", steps[0].Seq, err)
	}
	last, err := p.Position(l, steps[len(steps)-1])
	if err != nil {
		return fmt.Errorf("step %d: %w", steps[len(steps)-1].Seq, err)
	}
	desc := scene.Say("An animation of %d steps, each shown for %s s; hovering it pauses it. First: %s. Last: %s. %s",
		len(steps), svg.Num(stepSeconds), first.Words.Title, last.Words.Title, last.Words.Desc)
	sc := words(p.scene(l, first, title, desc, nil))
	sc.Style = replayStyle(len(steps), stepSeconds)
	w := sc.Begin()
	scene.Write(w, sc.Nodes)
	for i, pos := range steps {
		f, err := p.Position(l, pos)
		if err != nil {
			return fmt.Errorf("step %d: %w", pos.Seq, err)
		}
		children := words(&scene.Scene{Nodes: counted(f, i, len(steps), pos.Seq)}).Nodes
		scene.Write(w, []scene.Node{scene.Group{Meta: scene.Meta{Class: "step", Data: []svg.Attr{scene.D("seq", fmt.Sprint(pos.Seq))}},
			Style: "animation-delay:" + svg.Num(float64(i)*stepSeconds) + "s", Children: children}})
		if w.Buffered() >= replayFlush {
			if err := w.FlushTo(out); err != nil {
				return err
			}
		}
	}
	_, err = out.Write(w.Bytes())
	return err
}
