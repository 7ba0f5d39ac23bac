package i18n

import (
	"slices"
	"strings"

	"primegames/domain/scene"
)

// Scene is sc with its title and description said in l from their parts (Say), and every line of
// its text read back through the catalog (Text): a new scene when
// anything changed, sc itself when l is English. A frozen part whose words change is frozen anew.
func (l *Lang) Scene(sc *scene.Scene) *scene.Scene {
	if l == nil || l.English() || sc == nil {
		return sc
	}
	out := *sc
	out.Title, out.Desc = scene.Say("%s", l.Say(sc.Title)), scene.Say("%s", l.Say(sc.Desc))
	out.Nodes, _ = l.nodes(sc.Nodes)
	return &out
}

// nodes translates the texts of nodes, reporting whether any changed; unchanged nodes are shared.
func (l *Lang) nodes(nodes []scene.Node) ([]scene.Node, bool) {
	var out []scene.Node
	for i, n := range nodes {
		m, changed := l.node(n)
		if changed && out == nil {
			out = append(make([]scene.Node, 0, len(nodes)), nodes[:i]...)
		}
		if out != nil {
			out = append(out, m)
		}
	}
	if out == nil {
		return nodes, false
	}
	return out, true
}

func (l *Lang) node(n scene.Node) (scene.Node, bool) {
	switch n := n.(type) {
	case scene.Text:
		var t string
		switch classes := strings.Fields(n.Class); {
		case !n.Words.Zero():
			t = scene.Cut(l.Say(n.Words), n.Fit)
		case slices.Contains(classes, "class-code"), slices.Contains(classes, "sign-in-code"):
			return n, false
		case slices.Contains(classes, "name"):
			// A person's name is never a sentence of the catalog, even when it reads like one
			// ("Start"); only what the picture adds to it ("Ada (you)") is said in l.
			t = l.shallow(n.Text)
		default:
			t = l.Text(n.Text)
		}
		if t == n.Text {
			return n, false
		}
		n.Text = t
		return n, true
	case scene.Group:
		children, changed := l.nodes(n.Children)
		n.Children = children
		return n, changed
	case scene.Frozen:
		inner, changed := l.nodes(n.Nodes)
		if !changed {
			return n, false
		}
		return scene.Freeze(inner), true
	}
	return n, false
}
