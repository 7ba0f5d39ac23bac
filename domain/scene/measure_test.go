package scene

import (
	"strings"
	"testing"

	"primegames/domain/svg/svgtest"
)

func TestATextTooLongForItsRoomIsDrawnSmallerWrappedOrCut(t *testing.T) {
	label := Text{X: 0, Y: 10, Size: 12, Text: "Maldición", Room: Width("Maldición", 12, false)}
	if got := Fitted(label); got.Text != label.Text || got.Size != label.Size {
		t.Fatalf("a label that fits is changed: %+v", got)
	}
	label.Room *= 0.9
	if got := Fitted(label); got.Text != "Maldición" || got.Size >= 12 || got.Size < 12*MinShrink || Width(got.Text, got.Size, false) > label.Room+1e-6 {
		t.Fatalf("a label a little too long is %+v, not drawn a little smaller", got)
	}
	label.Room /= 2
	if got := Fitted(label); got.Size != 12 || !strings.HasSuffix(got.Text, "…") || Width(got.Text, got.Size, false) > label.Room {
		t.Fatalf("a label far too long is %+v, not cut short at its size", got)
	}
	status := Text{X: 24, Y: 40, Size: 15, Bold: true, Wrap: true, Text: "Curse hat eine spielbare Karte gezogen: spielen oder behalten"}
	status.Room = Width(status.Text, 15, true) * 0.6
	got := Fitted(status)
	if lines := got.Lines(); len(lines) != 2 || strings.Join(lines, " ") != status.Text || got.Size != 15 {
		t.Fatalf("a sentence that may wrap is %q at %.1f, not on two whole lines", lines, got.Size)
	}
	s := &Scene{Width: 600, Height: 100, Nodes: []Node{got}}
	text, _ := svgtest.Parse(t, s.SVG()).Child("text")
	if spans := text.Children; len(spans) != 2 || spans[1].Attr("dy") == "" {
		t.Fatalf("the wrapped sentence is written as %+v", text)
	}
	edge := Text{X: 560, Y: 10, Size: 12, Text: "noch übrig: 3, 3"}
	if got := FittedIn(edge, 600); Width(got.Text, got.Size, false) > 40+1e-6 || !strings.HasSuffix(got.Text, "…") {
		t.Fatalf("a text without room runs past the picture's edge: %+v", got)
	}
}
