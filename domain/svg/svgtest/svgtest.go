// Package svgtest reads an SVG picture back, for tests that check what it shows.
package svgtest

import (
	"encoding/xml"
	"strings"
	"testing"
)

// Node is one element of a picture.
type Node struct {
	XMLName  xml.Name
	Attrs    []xml.Attr `xml:",any,attr"`
	Text     string     `xml:",chardata"`
	Children []Node     `xml:",any"`
}

// Parse reads doc as XML and fails the test unless it is an SVG document.
func Parse(t testing.TB, doc []byte) Node {
	t.Helper()
	var root Node
	if err := xml.Unmarshal(doc, &root); err != nil {
		t.Fatalf("the picture is not well-formed XML: %v", err)
	}
	if root.XMLName.Local != "svg" || root.XMLName.Space != "http://www.w3.org/2000/svg" {
		t.Fatalf("the root element is %v, not an SVG document", root.XMLName)
	}
	return root
}

// Attr is the value of an attribute, "" when absent.
func (n Node) Attr(name string) string {
	for _, a := range n.Attrs {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

// HasClass reports whether the element has class among its classes.
func (n Node) HasClass(class string) bool {
	return strings.Contains(" "+n.Attr("class")+" ", " "+class+" ")
}

// All lists n and every element under it with the given class, in document order.
func (n Node) All(class string) []Node {
	var out []Node
	if n.HasClass(class) {
		out = append(out, n)
	}
	for _, c := range n.Children {
		out = append(out, c.All(class)...)
	}
	return out
}

// Texts is every text in n, in document order.
func (n Node) Texts() []string {
	var out []string
	if t := strings.TrimSpace(n.Text); t != "" {
		out = append(out, t)
	}
	for _, c := range n.Children {
		out = append(out, c.Texts()...)
	}
	return out
}

// Child is n's first child element called tag.
func (n Node) Child(tag string) (Node, bool) {
	for _, c := range n.Children {
		if c.XMLName.Local == tag {
			return c, true
		}
	}
	return Node{}, false
}
