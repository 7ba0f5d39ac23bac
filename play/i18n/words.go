package i18n

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"primegames/domain/scene"
)

// Say is w in l, said from its parts: each format translated by its message id, each name (a string
// argument) as it is, each Words argument said in turn, and each Sentence (one the domain made in
// English) read back through the catalog, its seats named. A format l's catalog lacks is said in
// English, its arguments still in l.
func (l *Lang) Say(w scene.Words) string {
	if w.Format == "" {
		parts := make([]string, 0, len(w.Parts))
		for _, p := range w.Parts {
			parts = append(parts, l.Say(p))
		}
		// A separator the catalog holds as "%s; %s" is said as the language writes it ("%s ; %s").
		if m, ok := l.joins(w.Sep); ok && len(parts) > 1 {
			out := parts[0]
			for _, p := range parts[1:] {
				out = m.render(l, []string{out, p})
			}
			return out
		}
		return strings.Join(parts, w.Sep)
	}
	if l.English() {
		return w.String()
	}
	verbs := englishVerbs(w.Format)
	args := make([]string, len(w.Args))
	for i, a := range w.Args {
		v := "%v"
		if i < len(verbs) {
			v = verbs[i]
		}
		args[i] = l.arg(a, v)
	}
	if w.Format == "%s" && len(args) == 1 {
		return args[0]
	}
	m, ok := l.cat.messages[w.Format]
	if !ok {
		vals := make([]any, len(args))
		for i, a := range args {
			vals[i] = a
		}
		return fmt.Sprintf(rewrite(w.Format), vals...)
	}
	return m.render(l, args)
}

// joins is the message that joins two parts with sep, when l's catalog has one.
func (l *Lang) joins(sep string) (*message, bool) {
	if l.English() || sep == "" {
		return nil, false
	}
	m, ok := l.cat.messages["%s"+strings.ReplaceAll(sep, "%", "%%")+"%s"]
	return m, ok
}

func (l *Lang) arg(a any, verb string) string {
	switch a := a.(type) {
	case scene.Words:
		return l.Say(a)
	case scene.Sentence:
		return l.sentence(a)
	case string:
		return a
	case float64, float32:
		return l.decimal(fmt.Sprintf(verb, a))
	}
	return fmt.Sprintf(verb, a)
}

// sentence is s read back through the catalog, then its seats ("puesto 2") named.
func (l *Lang) sentence(s scene.Sentence) string {
	t := l.Text(s.Text)
	if s.Names == nil {
		return t
	}
	re, rules := l.seatForms()
	return re.ReplaceAllStringFunc(t, func(m string) string {
		sub := re.FindStringSubmatch(m)
		for i, rule := range rules {
			if sub[i+1] == "" {
				continue
			}
			n, _ := strconv.Atoi(sub[i+1])
			if n >= len(s.Names) {
				return m
			}
			name := l.arg(s.Names[n], "%s")
			out := fmt.Sprintf(rule[1], name)
			if l.code == "fr" && strings.HasSuffix(rule[1], "de %s") && startsWithVowel(name) {
				out = strings.TrimSuffix(out, "de "+name) + "d’" + name
			}
			return out
		}
		return m
	})
}

func startsWithVowel(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return strings.ContainsRune("AEIOUÂÊÎÔÛÉÈÀaeiouâêîôûéèà", r)
}

// seatNames are how a language's translations of the domain's sentences name a seat ("del puesto
// %d"), longest first, and what a seat's name takes its place with ("de %s"); a language not listed
// has its "seat %d" replaced by the name.
var seatNames = map[string][][2]string{
	"es":    {{"del puesto %d", "de %s"}, {"el puesto %d", "%s"}, {"puesto %d", "%s"}},
	"fr":    {{"de la place %d", "de %s"}, {"à la place %d", "à %s"}, {"la place %d", "%s"}, {"place %d", "%s"}},
	"de":    {{"von Platz %d", "von %s"}, {"Platz %d", "%s"}},
	"pt-BR": {{"do lugar %d", "de %s"}, {"o lugar %d", "%s"}, {"lugar %d", "%s"}},
}

var seatRes = map[string]*regexp.Regexp{}

func init() {
	for code, rules := range seatNames {
		seatRes[code] = seatRegexp(rules)
	}
}

func seatRegexp(rules [][2]string) *regexp.Regexp {
	alts := make([]string, len(rules))
	for i, r := range rules {
		before, after, _ := strings.Cut(r[0], "%d")
		alts[i] = regexp.QuoteMeta(before) + `(\d+)` + regexp.QuoteMeta(after)
	}
	return regexp.MustCompile(strings.Join(alts, "|"))
}

func (l *Lang) seatForms() (*regexp.Regexp, [][2]string) {
	if re, ok := seatRes[l.code]; ok {
		return re, seatNames[l.code]
	}
	rules := [][2]string{{l.Sprintf("seat %d", 0), "%s"}}
	rules[0][0] = strings.Replace(rules[0][0], "0", "%d", 1)
	return seatRegexp(rules), rules
}

// Unsaid lists what of w l's catalog cannot say: formats it has no message for, and sentences no
// message id matches (a sentence without a letter, "30 + 7 = 37", needs none).
func (l *Lang) Unsaid(w scene.Words) []string {
	var out []string
	var walk func(w scene.Words)
	walk = func(w scene.Words) {
		for _, p := range w.Parts {
			walk(p)
		}
		if w.Format != "" && w.Format != "%s" && !l.English() {
			if _, ok := l.cat.messages[w.Format]; !ok {
				out = append(out, "format "+strconv.Quote(w.Format))
			}
		}
		for _, a := range w.Args {
			switch a := a.(type) {
			case scene.Words:
				walk(a)
			case scene.Sentence:
				if !l.English() && l.Text(a.Text) == a.Text && strings.IndexFunc(a.Text, unicode.IsLetter) >= 0 {
					out = append(out, "sentence "+strconv.Quote(a.Text))
				}
			}
		}
	}
	walk(w)
	return out
}
