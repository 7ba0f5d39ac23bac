package i18n_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"primegames/domain/scene"
	"primegames/play/i18n"
)

// Every line of text of every picture fits, in every language and both layouts: within its room
// when it has one (a keeper card's box, a column of the scores) and within the picture's width,
// measured in the fonts the pictures are drawn with (with the allowance for a browser's wider
// ones), as it is drawn (scene.FittedIn: a little smaller when it must). Only a sentence made to
// be cut (Fit) may be cut short with "…"; a label, a name, a number never is.
func TestEveryTextFitsItsBoxInEveryLanguage(t *testing.T) {
	t.Parallel()
	type key struct {
		text, words string
		fit         int
		size, x, w  float64
		room        float64
		bold        bool
		anchor      scene.Anchor
	}
	seen := map[key]bool{}
	bad := map[string]bool{}
	langs := i18n.Codes()
	measured, shrunk, wrapped, cut := 0, map[string]int{}, map[string]int{}, map[string]int{}
	check := func(code string, width float64, t scene.Text) {
		f := scene.FittedIn(t, width)
		if f.Size < t.Size {
			shrunk[code]++
		}
		if len(f.Lines()) > 1 {
			wrapped[code]++
		}
		if strings.ReplaceAll(f.Text, "\n", " ") != t.Text {
			cut[code]++
			if t.Fit <= 0 {
				bad[fmt.Sprintf("%s: %q is cut short to %q (size %.1f, room %.1f)", code, t.Text, f.Text, t.Size, f.Room)] = true
			}
		}
		for _, line := range f.Lines() {
			w := scene.Width(line, f.Size, f.Bold)
			left := f.X
			switch f.Anchor {
			case scene.Middle:
				left -= w / 2
			case scene.End:
				left -= w
			}
			const slack = 0.5
			switch {
			case t.Room > 0 && w > t.Room+slack:
				bad[fmt.Sprintf("%s: %q at size %.1f is %.1f wide, its room %.1f", code, line, f.Size, w, t.Room)] = true
			case left < -slack || left+w > width+slack:
				bad[fmt.Sprintf("%s: %q at size %.1f spans x %.1f to %.1f, the picture %.0f wide", code, line, f.Size, left, left+w, width)] = true
			}
		}
	}
	var walk func(width float64, nodes []scene.Node)
	walk = func(width float64, nodes []scene.Node) {
		for _, n := range nodes {
			switch n := n.(type) {
			case scene.Text:
				k := key{n.Text, n.Words.String(), n.Fit, n.Size, n.X, width, n.Room, n.Bold, n.Anchor}
				if seen[k] || n.Text == "" {
					continue
				}
				seen[k] = true
				measured++
				for _, code := range langs {
					said := i18n.Of(code).Scene(&scene.Scene{Width: width, Nodes: []scene.Node{n}})
					check(code, width, said.Nodes[0].(scene.Text))
				}
			case scene.Group:
				walk(width, n.Children)
			case scene.Frozen:
				walk(width, n.Nodes)
			}
		}
	}
	pictures := 0
	drawPairs(t, func(named, _ *scene.Scene) {
		pictures++
		walk(named.Width, named.Nodes)
	})
	t.Logf("%d pictures, %d different lines in %d languages; drawn smaller: %v; on two lines: %v; cut short: %v", pictures, measured, len(langs), shrunk, wrapped, cut)
	var list []string
	for b := range bad {
		list = append(list, b)
	}
	sort.Strings(list)
	for i, b := range list {
		if i == 400 {
			t.Errorf("and %d more", len(list)-i)
			break
		}
		t.Error(b)
	}
}
