package domain

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"primegames/domain/svg"
)

// Picture draws a kind's positions as SVG. It draws from views only, the JSON a viewer may see
// (View(viewer)), never from a state, so a picture can show no hidden card the JSON view hides
// (PR-8, G-1).
type Picture struct {
	Width, Height float64
	// Style is CSS shared by the kind's pictures (no "<" in it).
	Style string
	// Board draws what every position shares, under the pieces (Prime Climb's spiral); nil when the
	// kind has no board.
	Board func(w *svg.Writer)
	// Legend explains the board's colours, drawn with it when the board is shown alone.
	Legend func(w *svg.Writer)
	// Position draws one position over the board and says it in words.
	Position func(w *svg.Writer, p Position) (Words, error)
}

// Position is one step of a game as one viewer may see it.
type Position struct {
	View json.RawMessage // the view, as GET /v1/games/{id}/states/{seq} gives it
	// Last is the outcome of the action that led here, redacted for the same viewer; nil at the start.
	Last    json.RawMessage
	Players []string // the seats' names, in seat order
	Seq     int64
}

// Words is a position in words: a short title and a longer description, for <title> and <desc>.
type Words struct{ Title, Desc string }

// Still is one position as a whole SVG document.
func (p *Picture) Still(pos Position) ([]byte, error) {
	body := &svg.Writer{}
	words, err := p.Position(body, pos)
	if err != nil {
		return nil, err
	}
	w := svg.Document(p.Width, p.Height, words.Title, words.Desc, p.Style)
	if p.Board != nil {
		p.Board(w)
	}
	w.Raw(body)
	return w.Bytes(), nil
}

// BoardAlone is the kind's board with its legend as a whole SVG document; ok is false when the kind
// has no board.
func (p *Picture) BoardAlone(title, desc string) (doc []byte, ok bool) {
	if p.Board == nil {
		return nil, false
	}
	w := svg.Document(p.Width, p.Height, title, desc, p.Style)
	p.Board(w)
	if p.Legend != nil {
		p.Legend(w)
	}
	return w.Bytes(), true
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

// Replay is a whole game as one animated SVG document: every position in turn, each shown for
// stepSeconds, over one board.
func (p *Picture) Replay(title string, steps []Position, stepSeconds float64) ([]byte, error) {
	var out bytes.Buffer
	if err := p.WriteReplay(&out, title, steps, stepSeconds); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// WriteReplay writes Replay's document to out as it draws it: it holds one step's drawing at a
// time (and at most replayFlush bytes), whatever the number of steps. An error from out stops it.
func (p *Picture) WriteReplay(out io.Writer, title string, steps []Position, stepSeconds float64) error {
	if len(steps) == 0 {
		return fmt.Errorf("a replay needs at least one step")
	}
	// The description names the first and the last step, so those two are drawn (in words) first.
	var first, last Words
	var err error
	if first, err = p.Position(&svg.Writer{}, steps[0]); err != nil {
		return fmt.Errorf("step %d: %w", steps[0].Seq, err)
	}
	if last, err = p.Position(&svg.Writer{}, steps[len(steps)-1]); err != nil {
		return fmt.Errorf("step %d: %w", steps[len(steps)-1].Seq, err)
	}
	desc := fmt.Sprintf("An animation of %d steps, each shown for %s s; hovering it pauses it. First: %s. Last: %s. %s",
		len(steps), svg.Num(stepSeconds), first.Title, last.Title, last.Desc)
	w := svg.Document(p.Width, p.Height, title, desc, p.Style+replayStyle(len(steps), stepSeconds))
	if p.Board != nil {
		p.Board(w)
	}
	for i, pos := range steps {
		w.Open("g", svg.A("class", "step"), svg.A("data-seq", fmt.Sprint(pos.Seq)),
			svg.A("style", "animation-delay:"+svg.Num(float64(i)*stepSeconds)+"s"))
		if _, err := p.Position(w, pos); err != nil {
			return fmt.Errorf("step %d: %w", pos.Seq, err)
		}
		w.Close()
		if w.Buffered() >= replayFlush {
			if err := w.FlushTo(out); err != nil {
				return err
			}
		}
	}
	_, err = out.Write(w.Bytes())
	return err
}
