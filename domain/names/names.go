// Package names is the rule for the names people type: players' and students' names and
// classrooms' names. It follows the nickname profile of RFC 8266 (PRECIS): a name is normalised
// (NFKC, spaces folded and trimmed) and refused when it holds control, format (invisible),
// unassigned or direction-changing characters. On top of the profile a name must show something,
// must not begin with a combining mark, and must not mix alphabets, so that two names a teacher
// sees as the same are the same.
//
// Not caught: a name written wholly in another alphabet that looks like a Latin one ("АВЕ" in
// Cyrillic beside "ABE"), and look-alikes within one alphabet ("l" and "I").
package names

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/secure/precis"

	"primegames/domain"
)

// Rule is what one kind of name may be.
type Rule struct {
	what      string // how a sentence names it
	maxLength int    // in characters, after normalisation
}

var (
	// Person is a player's or a student's name.
	Person = Rule{what: "A name", maxLength: 40}
	// Classroom is a classroom's name.
	Classroom = Rule{what: "A classroom's name", maxLength: 80}
)

// Enforce returns name as it is to be stored, or an invalid_name error that says what is wrong.
func (r Rule) Enforce(name string) (string, error) {
	if !utf8.ValidString(name) {
		return "", r.refuse("%s must be valid UTF-8 text.", r.what)
	}
	out, err := precis.Nickname.String(name)
	if err != nil {
		return "", r.explain(name)
	}
	first, _ := utf8.DecodeRuneInString(out)
	switch {
	case !strings.ContainsFunc(out, visible):
		return "", r.refuse("%s must show at least one letter, digit or symbol; %+q shows none.", r.what, name)
	case unicode.Is(unicode.M, first):
		return "", r.refuse("%s may not begin with a combining mark (%U); put it after the letter it belongs to.", r.what, first)
	case utf8.RuneCountInString(out) > r.maxLength:
		return "", r.refuse("%s may have at most %d characters; this one has %d.", r.what, r.maxLength, utf8.RuneCountInString(out))
	}
	if a, b, mixed := mixedScripts(out); mixed {
		return "", r.refuse("%s may not mix letters of different alphabets (%s and %s in %q): letters that look alike would make two names look the same.", r.what, a, b, out)
	}
	return out, nil
}

// Key is the form in which names are compared: two names with the same key are the same name
// (the profile's comparison form, which also ignores case).
func Key(enforced string) string {
	key, err := precis.Nickname.CompareKey(enforced)
	if err != nil {
		// Only a name stored before this rule can fail it; compare it as it was compared then.
		return strings.ToLower(enforced)
	}
	return key
}

// explain names the first character that the profile refuses.
func (r Rule) explain(name string) error {
	for _, c := range name {
		switch {
		case unicode.Is(unicode.Bidi_Control, c):
			return r.refuse("%s may not contain %U, which changes the direction of the text around it.", r.what, c)
		case unicode.In(c, unicode.Cc, unicode.Cf, unicode.Variation_Selector, unicode.Other_Default_Ignorable_Code_Point, unicode.Zl, unicode.Zp):
			return r.refuse("%s may not contain %U, an invisible or control character.", r.what, c)
		case !unicode.IsSpace(c) && refusedAlone(c):
			return r.refuse("%s may not contain %U, a character that is unassigned or not used in names.", r.what, c)
		}
	}
	return r.refuse("%s must show at least one letter, digit or symbol; %+q shows none.", r.what, name)
}

func refusedAlone(c rune) bool {
	_, err := precis.Nickname.String(string(c))
	return err != nil
}

func (r Rule) refuse(format string, args ...any) error {
	return domain.Invalid("invalid_name", format, args...)
}

func visible(c rune) bool { return unicode.In(c, unicode.L, unicode.N, unicode.P, unicode.S) }

// cjk are the scripts that Chinese, Japanese and Korean names mix by nature.
var cjk = map[string]bool{"Han": true, "Hiragana": true, "Katakana": true, "Bopomofo": true, "Hangul": true}

// mixedScripts reports the first two scripts that letters of name come from, counting the CJK
// scripts as one. Digits, punctuation and symbols belong to no script here.
func mixedScripts(name string) (string, string, bool) {
	seen := ""
	for _, c := range name {
		if !unicode.IsLetter(c) {
			continue
		}
		script := scriptOf(c)
		if cjk[script] {
			script = "Chinese, Japanese or Korean"
		}
		switch {
		case script == "" || script == seen:
		case seen == "":
			seen = script
		default:
			return seen, script, true
		}
	}
	return "", "", false
}

func scriptOf(c rune) string {
	for name, table := range unicode.Scripts {
		if name != "Common" && name != "Inherited" && unicode.Is(table, c) {
			return name
		}
	}
	return ""
}
