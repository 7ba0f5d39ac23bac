package scene

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Words are a sentence kept in its parts, so that a reader of another language gets it said from
// translated parts (package play/i18n, Lang.Say), never by reading the English sentence back: a
// player's name inside it is never taken for a sentence.
//
// Format is an English printf format, a message id of play/i18n's catalogs ("%s to play"); each of
// Args is one of
//   - an int: a number;
//   - a string: said as it is, in every language (a person's name, "3, 5", "30 + 7 = 37");
//   - Words: said in turn;
//   - Sentence: an English sentence the domain made for its JSON (an action's effect), read back
//     through the catalogs.
//
// Words with Parts (and no Format) are the parts said in turn and joined by Sep.
type Words struct {
	Format string
	Args   []any
	Parts  []Words
	Sep    string
}

// Say is the words of format and args.
func Say(format string, args ...any) Words { return Words{Format: format, Args: args} }

// Join is parts said one after the other, sep between them ("; ", " ").
func Join(sep string, parts ...Words) Words { return Words{Parts: parts, Sep: sep} }

// Names is "Ann", "Ann and Bob" or "Ann, Bob and Cy": names (strings, said as they are, or Words)
// joined by the reader's language's "and".
func Names(names ...any) Words {
	switch len(names) {
	case 0:
		return Words{}
	case 1:
		return Say("%s", names[0])
	}
	head := make([]Words, len(names)-1)
	for i, n := range names[:len(names)-1] {
		head[i] = Say("%s", n)
	}
	return Say("%s and %s", Join(", ", head...), names[len(names)-1])
}

// Zero reports whether w says nothing.
func (w Words) Zero() bool { return w.Format == "" && len(w.Parts) == 0 }

// String is w in English.
func (w Words) String() string {
	if w.Format == "" {
		parts := make([]string, 0, len(w.Parts))
		for _, p := range w.Parts {
			parts = append(parts, p.String())
		}
		return strings.Join(parts, w.Sep)
	}
	if len(w.Args) == 0 {
		return w.Format
	}
	args := make([]any, len(w.Args))
	for i, a := range w.Args {
		switch a := a.(type) {
		case Words:
			args[i] = a.String()
		case Sentence:
			args[i] = a.String()
		default:
			args[i] = a
		}
	}
	return fmt.Sprintf(w.Format, args...)
}

// Sentence is an English sentence the domain made for its JSON (a Prime Climb card's effect),
// which names seats ("seat 2"). A reader of another language gets it read back through the
// catalogs; Names, when set, are the seats' names, said instead of "seat n" once it is translated.
type Sentence struct {
	Text  string
	Names []any // per seat: its name (a string) or Words ("Player 2")
}

// seatWords finds "seat 2" (and "seat 2's") in the domain's own sentences.
var seatWords = regexp.MustCompile(`seat (\d+)`)

// String is s in English, its seats named.
func (s Sentence) String() string {
	if s.Names == nil {
		return s.Text
	}
	return seatWords.ReplaceAllStringFunc(s.Text, func(m string) string {
		n, _ := strconv.Atoi(m[len("seat "):])
		if n < len(s.Names) {
			return fmt.Sprint(Say("%s", s.Names[n]))
		}
		return m
	})
}
