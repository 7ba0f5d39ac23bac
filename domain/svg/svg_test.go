package svg

import (
	"encoding/xml"
	"strings"
	"testing"
)

// Text and attribute values are escaped, so user input can never become markup.
func TestTextAndAttributesAreEscaped(t *testing.T) {
	evil := `"/><script>alert('x')</script>&`
	w := Document(10, 10, evil, evil, "")
	w.Text("text", evil, A("data-name", evil))
	doc := w.Bytes()
	if strings.Contains(string(doc), "<script") {
		t.Fatalf("markup got through: %s", doc)
	}
	var root struct {
		Title string `xml:"title"`
		Text  struct {
			Name string `xml:"data-name,attr"`
			Body string `xml:",chardata"`
		} `xml:"text"`
	}
	if err := xml.Unmarshal(doc, &root); err != nil {
		t.Fatal(err)
	}
	if root.Title != evil || root.Text.Name != evil || root.Text.Body != evil {
		t.Fatalf("the text did not survive: %+v", root)
	}
}

func TestNumRoundsToTwoDecimals(t *testing.T) {
	for v, want := range map[float64]string{1: "1", 1.006: "1.01", -2.345: "-2.35", 600.2345: "600.23", 0: "0"} {
		if got := Num(v); got != want {
			t.Errorf("Num(%v) = %s, want %s", v, got, want)
		}
	}
}
