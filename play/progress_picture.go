package play

import (
	"fmt"
	"strconv"
	"time"

	"primegames/domain/scene"
)

// The progress picture (issue 42 item 3): a phone's width (ProgressPictureWidth units), a small
// chart for the class and then one per student, each over the same buckets. It reads in grey
// scale: games finished are outlined bars, wins the solid bars inside them, hints a line of square
// markers and missed opportunities a dashed line of round markers, each named in the legend, and
// every chart has its own scale written on it.

// ProgressPictureWidth is the picture's width: a phone held upright.
const ProgressPictureWidth = 360

// ProgressPictureStudents bounds the students' charts in one picture (the first by name); the
// picture says how many more there are, each of whom has their own (student_id).
const ProgressPictureStudents = 40

const (
	progressBackground = "#fbf7ef" // the boards' paper
	progressInk        = "#222222"
	progressFaint      = "#8a8a8a"
	progressBarFill    = "#d9d9d9"
	progressChartH     = 64.0
	progressPanelH     = 124.0
	progressMarginX    = 16.0
	progressLegendH    = 78.0
)

// ProgressPicture draws a classroom's progress as a scene.
func ProgressPicture(p *ClassroomProgress, className string) *scene.Scene {
	w := float64(ProgressPictureWidth)
	unit := map[string]string{BucketDay: "day", BucketWeek: "week"}[p.Bucket]
	nodes := []scene.Node{
		scene.Rect{Meta: scene.Meta{Class: "background"}, Paint: scene.Paint{Fill: progressBackground}, W: w, H: 0},
		scene.Said(scene.Text{Meta: scene.Meta{Class: "title"}, X: progressMarginX, Y: 24, Size: 16, Bold: true}, scene.Say("%s", className), 34),
		scene.Text{Meta: scene.Meta{Class: "range"}, X: progressMarginX, Y: 42, Size: 11, Fill: progressFaint,
			Text: fmt.Sprintf("%s to %s, by %s (UTC)", p.From.Format("2 Jan 2006"), p.To.Format("2 Jan 2006"), unit)},
	}
	nodes = append(nodes, progressLegend(52)...)
	y := progressLegendH
	nodes = append(nodes, progressChart("class", scene.Say("Class"), "", p.Class, y)...)
	y += progressPanelH
	for i, st := range p.Students {
		if i == ProgressPictureStudents {
			nodes = append(nodes, scene.Text{Meta: scene.Meta{Class: "more"}, X: progressMarginX, Y: y + 16, Size: 12, Fill: progressFaint,
				Text: fmt.Sprintf("and %d more students: one picture each with student_id", len(p.Students)-i)})
			y += 28
			break
		}
		nodes = append(nodes, progressChart("student", scene.Say("%s", st.Name), st.StudentID, st.Buckets, y)...)
		y += progressPanelH
	}
	h := y + 8
	nodes[0] = scene.Rect{Meta: scene.Meta{Class: "background"}, Paint: scene.Paint{Fill: progressBackground}, W: w, H: h}
	return &scene.Scene{Width: w, Height: h, Title: scene.Say("Progress of %s", className),
		Desc: scene.Say("Games finished and won, hints asked and missed opportunities per %s of the class and of each of its %d students, from %s to %s.",
			scene.Say(unit), len(p.Students), p.From.Format(time.DateOnly), p.To.Format(time.DateOnly)),
		Nodes: nodes}
}

// progressLegend names the marks, each drawn as in the charts.
func progressLegend(y float64) []scene.Node {
	x := progressMarginX
	item := func(label string, mark []scene.Node, width float64) []scene.Node {
		out := append(mark, scene.Text{Meta: scene.Meta{Class: "legend"}, X: x + 16, Y: y + 10, Size: 11, Text: label})
		x += width
		return out
	}
	var out []scene.Node
	out = append(out, item("finished", []scene.Node{scene.Rect{Paint: scene.Paint{Fill: progressBarFill, Stroke: progressInk, StrokeWidth: 1}, X: x, Y: y, W: 10, H: 12}}, 76)...)
	out = append(out, item("won", []scene.Node{scene.Rect{Paint: scene.Paint{Fill: progressInk}, X: x + 2, Y: y + 4, W: 6, H: 8}}, 52)...)
	out = append(out, item("hints", []scene.Node{hintMark(x+5, y+6)}, 60)...)
	missed := []scene.Node{scene.Path{Paint: scene.Paint{Stroke: progressInk, StrokeWidth: 1.5, Dash: []float64{3, 2}}, Steps: []scene.Step{scene.MoveTo(x-2, y+6), scene.LineTo(x+12, y+6)}},
		missedMark(x+5, y+6)}
	out = append(out, item("missed opportunities", missed, 0)...)
	return out
}

func hintMark(x, y float64) scene.Node {
	return scene.Rect{Meta: scene.Meta{Class: "hint-mark"}, Paint: scene.Paint{Fill: "#ffffff", Stroke: progressInk, StrokeWidth: 1.5}, X: x - 3, Y: y - 3, W: 6, H: 6}
}

func missedMark(x, y float64) scene.Node {
	return scene.Circle{Meta: scene.Meta{Class: "missed-mark"}, Paint: scene.Paint{Fill: progressInk}, CX: x, CY: y, R: 2.5}
}

// progressChart is one panel: a name, its totals, and the buckets' bars and lines over a baseline.
func progressChart(class string, name scene.Words, id string, buckets []ProgressFigures, top float64) []scene.Node {
	var total ProgressFigures
	most := 1
	for _, b := range buckets {
		total.plus(b)
		most = max(most, b.Finished, b.Hints, b.Missed, b.Played)
	}
	meta := scene.Meta{Class: class, Data: []scene.Attr{scene.D("finished", strconv.Itoa(total.Finished)), scene.D("won", strconv.Itoa(total.Won)),
		scene.D("hints", strconv.Itoa(total.Hints)), scene.D("missed", strconv.Itoa(total.Missed))}}
	if id != "" {
		meta.Data = append(meta.Data, scene.D("student-id", id))
	}
	summary := fmt.Sprintf("%d finished, %d won, %d hints, %d missed", total.Finished, total.Won, total.Hints, total.Missed)
	if ms := total.MSPerMove(); ms != nil {
		summary += fmt.Sprintf(", %s a move", secondsText(*ms))
	}
	left, right := progressMarginX+18, float64(ProgressPictureWidth)-progressMarginX
	base := top + 38 + progressChartH
	children := []scene.Node{
		scene.Said(scene.Text{X: progressMarginX, Y: top + 12, Size: 13, Bold: true}, name, 40),
		scene.Text{X: progressMarginX, Y: top + 25, Size: 10, Fill: progressFaint, Text: summary},
		// the scale: the baseline, and the top's value
		scene.Path{Paint: scene.Paint{Stroke: progressFaint, StrokeWidth: 1}, Steps: []scene.Step{scene.MoveTo(left, base), scene.LineTo(right, base)}},
		scene.Path{Paint: scene.Paint{Stroke: progressFaint, StrokeWidth: 0.5, Dash: []float64{1, 3}},
			Steps: []scene.Step{scene.MoveTo(left, base-progressChartH), scene.LineTo(right, base-progressChartH)}},
		scene.Text{X: left - 4, Y: base - progressChartH + 4, Size: 9, Anchor: scene.End, Fill: progressFaint, Text: strconv.Itoa(most)},
		scene.Text{X: left - 4, Y: base, Size: 9, Anchor: scene.End, Fill: progressFaint, Text: "0"},
	}
	n := len(buckets)
	slot := (right - left) / float64(max(n, 1))
	yOf := func(v int) float64 { return base - progressChartH*float64(v)/float64(most) }
	var hints, missed []scene.Step
	for i, b := range buckets {
		x := left + slot*float64(i)
		bar := max(slot*0.7, 0.5)
		if b.Finished > 0 {
			children = append(children, scene.Rect{Meta: scene.Meta{Class: "finished"}, Paint: scene.Paint{Fill: progressBarFill, Stroke: progressInk, StrokeWidth: min(1, bar/4)},
				X: x + (slot-bar)/2, Y: yOf(b.Finished), W: bar, H: base - yOf(b.Finished)})
		}
		if b.Won > 0 {
			inner := bar * 0.6
			children = append(children, scene.Rect{Meta: scene.Meta{Class: "won"}, Paint: scene.Paint{Fill: progressInk},
				X: x + (slot-inner)/2, Y: yOf(b.Won), W: inner, H: base - yOf(b.Won)})
		}
		cx := x + slot/2
		step := scene.LineTo
		if i == 0 {
			step = scene.MoveTo
		}
		hints = append(hints, step(cx, yOf(b.Hints)))
		missed = append(missed, step(cx, yOf(b.Missed)))
	}
	if n > 1 {
		children = append(children,
			scene.Path{Meta: scene.Meta{Class: "hints"}, Paint: scene.Paint{Stroke: progressInk, StrokeWidth: 1}, Steps: hints},
			scene.Path{Meta: scene.Meta{Class: "missed"}, Paint: scene.Paint{Stroke: progressInk, StrokeWidth: 1.5, Dash: []float64{3, 2}}, Steps: missed})
	}
	if slot >= 6 { // markers where there is room for them
		for i, b := range buckets {
			cx := left + slot*float64(i) + slot/2
			children = append(children, hintMark(cx, yOf(b.Hints)), missedMark(cx, yOf(b.Missed)))
		}
	}
	first, last := buckets[0].Start, buckets[n-1].Start
	children = append(children,
		scene.Text{X: left, Y: base + 12, Size: 9, Fill: progressFaint, Text: first.Format("2 Jan")},
		scene.Text{X: right, Y: base + 12, Size: 9, Anchor: scene.End, Fill: progressFaint, Text: last.Format("2 Jan")})
	return []scene.Node{scene.Group{Meta: meta, Children: children}}
}

// secondsText is a time in milliseconds as people read it: "4.2 s", "2 min".
func secondsText(ms int64) string {
	if ms < 60_000 {
		return strconv.FormatFloat(float64(ms)/1000, 'f', 1, 64) + " s"
	}
	return strconv.FormatInt((ms+30_000)/60_000, 10) + " min"
}
