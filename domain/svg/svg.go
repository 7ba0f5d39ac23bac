// Package svg writes SVG documents. Every attribute value and every text is escaped here, so a
// caller never builds markup from strings: player names are user input.
package svg

import (
	"bytes"
	"encoding/xml"
	"io"
	"strconv"
)

// Writer builds one SVG document in memory.
type Writer struct {
	buf  bytes.Buffer
	open []string
	// Width is the document's width (Document), 0 for a part written alone.
	Width float64
}

// Attr is one attribute; its value is escaped when written.
type Attr struct{ Name, Value string }

// A makes an attribute.
func A(name, value string) Attr { return Attr{name, value} }

// N makes an attribute with a number value, written with at most two decimals.
func N(name string, value float64) Attr { return Attr{name, Num(value)} }

// Num formats a coordinate with at most two decimals.
func Num(v float64) string {
	return strconv.FormatFloat(float64(int64(v*100+sign(v)*0.5))/100, 'f', -1, 64)
}

func sign(v float64) float64 {
	if v < 0 {
		return -1
	}
	return 1
}

// Open starts an element that later elements nest in, until Close.
func (w *Writer) Open(tag string, attrs ...Attr) {
	w.start(tag, attrs)
	w.buf.WriteByte('>')
	w.open = append(w.open, tag)
}

// Close ends the element opened last.
func (w *Writer) Close() {
	tag := w.open[len(w.open)-1]
	w.open = w.open[:len(w.open)-1]
	w.buf.WriteString("</" + tag + ">")
}

// Empty writes an element without content.
func (w *Writer) Empty(tag string, attrs ...Attr) {
	w.start(tag, attrs)
	w.buf.WriteString("/>")
}

// Text writes an element holding text.
func (w *Writer) Text(tag, text string, attrs ...Attr) {
	w.start(tag, attrs)
	w.buf.WriteByte('>')
	w.Chars(text)
	w.buf.WriteString("</" + tag + ">")
}

// Chars writes escaped text inside the element that is open.
func (w *Writer) Chars(text string) { _ = xml.EscapeText(&w.buf, []byte(text)) }

func (w *Writer) start(tag string, attrs []Attr) {
	w.buf.WriteString("<" + tag)
	for _, a := range attrs {
		w.buf.WriteString(" " + a.Name + `="`)
		_ = xml.EscapeText(&w.buf, []byte(a.Value))
		w.buf.WriteByte('"')
	}
}

// Bytes ends every element still open and returns the document.
func (w *Writer) Bytes() []byte {
	for len(w.open) > 0 {
		w.Close()
	}
	return w.buf.Bytes()
}

// Document begins an SVG document of the given size with its accessible title and description, and
// a style sheet (CSS, written as text, so it must not contain "<").
func Document(width, height float64, title, desc, style string) *Writer {
	w := &Writer{Width: width}
	w.buf.Grow(32 << 10)
	w.buf.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	w.Open("svg", A("xmlns", "http://www.w3.org/2000/svg"), A("viewBox", "0 0 "+Num(width)+" "+Num(height)),
		N("width", width), N("height", height), A("role", "img"), A("aria-labelledby", "title desc"),
		A("font-family", "Verdana, DejaVu Sans, sans-serif"))
	w.Text("title", title, A("id", "title"))
	w.Text("desc", desc, A("id", "desc"))
	if style != "" {
		w.Text("style", style)
	}
	return w
}

// Buffered is how many bytes the Writer holds that FlushTo has not written yet.
func (w *Writer) Buffered() int { return w.buf.Len() }

// FlushTo writes what the Writer holds so far to out and forgets it, leaving the elements that are
// open open: a long document is written in parts, and only the part being drawn is held.
func (w *Writer) FlushTo(out io.Writer) error {
	_, err := out.Write(w.buf.Bytes())
	w.buf.Reset()
	return err
}

// Raw appends what another Writer wrote, which must be complete elements.
func (w *Writer) Raw(part *Writer) { w.buf.Write(part.Bytes()) }

// Drawing is a finished part of a picture, drawn once and written as it is into many documents.
type Drawing []byte

// Draw records what draw writes, to reuse it.
func Draw(draw func(w *Writer)) Drawing {
	w := &Writer{}
	draw(w)
	return Drawing(w.Bytes())
}

// Put writes a recorded drawing.
func (w *Writer) Put(d Drawing) { w.buf.Write(d) }
