// Package i18n speaks the service's sentences in the reader's language: it chooses the language of
// a request (Negotiate) and renders the English sentences the service builds in it (Lang.Sprintf for
// a format and its arguments, Lang.Text for a sentence already made).
//
// A catalog is one embedded file per language, locales/<language>.json, mapping each message id to
// its translation. A message id is the English printf format of the sentence ("Hints are turned off
// in game %s."), as gettext does: English is always the id itself, byte for byte, and every other
// language must hold every id of locales/en.json with the same placeholders (catalog_test.go). A
// translation may reorder its placeholders with explicit indexes (%[2]d) and may have CLDR plural
// forms ({"one": …, "many": …, "other": …, "count": 1}, count naming the argument that chooses).
//
// A sentence made elsewhere (a hint's explanation, a legal action's description, a picture's words)
// is matched against the ids as patterns, its arguments read back and translated in turn, so the
// domain keeps building English and never learns the reader's language; a sentence no id matches
// stays English.
package i18n

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
)

//go:embed locales/*.json
var files embed.FS

// Lang is one language the service speaks.
type Lang struct {
	tag  language.Tag
	code string // as Content-Language says it: "en", "pt-BR"
	cat  *catalog
}

// Code is the language's BCP 47 tag as Content-Language and the lang parameter write it.
func (l *Lang) Code() string { return l.code }

// Tag is the language's tag.
func (l *Lang) Tag() language.Tag { return l.tag }

// English reports whether l is English, the language the service's sentences are written in.
func (l *Lang) English() bool { return l == nil || l.cat == nil }

// English is the language of every sentence the service builds and of every request that names no
// language the service speaks.
var English = &Lang{tag: language.English, code: "en"}

var (
	langs   []*Lang // English first: the matcher's fallback
	byCode  = map[string]*Lang{}
	matcher language.Matcher
	// ids are the message ids of locales/en.json, in its order.
	ids []string
)

// Codes are the codes of the languages the service speaks, English first.
func Codes() []string {
	out := make([]string, len(langs))
	for i, l := range langs {
		out[i] = l.code
	}
	return out
}

// Of is the language of code ("es", "pt-BR"), or nil when the service does not speak it.
func Of(code string) *Lang { return byCode[code] }

// IDs are the message ids every catalog holds.
func IDs() []string { return append([]string(nil), ids...) }

func init() {
	raw, err := files.ReadFile("locales/en.json")
	if err != nil {
		panic(err)
	}
	if err := json.Unmarshal(raw, &ids); err != nil {
		panic(fmt.Errorf("locales/en.json: %w", err))
	}
	langs = append(langs, English)
	entries, err := files.ReadDir("locales")
	if err != nil {
		panic(err)
	}
	var names []string
	for _, e := range entries {
		if name := strings.TrimSuffix(e.Name(), ".json"); name != "en" {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		raw, err := files.ReadFile("locales/" + name + ".json")
		if err != nil {
			panic(err)
		}
		tag := language.MustParse(name)
		cat, err := parseCatalog(tag, raw)
		if err != nil {
			panic(fmt.Errorf("locales/%s.json: %w", name, err))
		}
		langs = append(langs, &Lang{tag: tag, code: name, cat: cat})
	}
	tags := make([]language.Tag, len(langs))
	for i, l := range langs {
		tags[i] = l.tag
		byCode[l.code] = l
		byCode[strings.ToLower(l.code)] = l
	}
	matcher = language.NewMatcher(tags)
	patterns = compilePatterns(ids)
}

// Match is the language of the service that best fits a list of wishes, in an Accept-Language
// header's syntax ("es-MX,es;q=0.9,en;q=0.5") or a lang parameter's ("pt-BR", "fr"); ok is false
// when none of them is a language the service speaks (then l is English).
func Match(wishes string) (l *Lang, ok bool) {
	wishes = strings.TrimSpace(wishes)
	if wishes == "" {
		return English, false
	}
	tags, _, err := language.ParseAcceptLanguage(wishes)
	if err != nil || len(tags) == 0 {
		return English, false
	}
	_, index, confidence := matcher.Match(tags...)
	if confidence == language.No {
		return English, false
	}
	return langs[index], true
}

// Choice is the language chosen for one request: from the request itself when Named, else from a
// default (a classroom's) looked up the first time a sentence is said (Fallback), else English.
type Choice struct {
	Lang  *Lang
	Named bool // the request named a language the service speaks (lang parameter or Accept-Language)
	// Fallback finds the default language when the request named none: nil for none. It is called
	// at most once, and only when something is said.
	Fallback func() *Lang
	once     sync.Once
	asked    bool
}

// Said reports whether the request's language is known without a look-up: it was named, or
// something has been said in it already; else nothing was said but in English.
func (c *Choice) Said() bool { return c.Named || c.Fallback == nil || c.asked }

func (c *Choice) lang() *Lang {
	if !c.Named && c.Fallback != nil {
		c.once.Do(func() {
			c.asked = true
			if l := c.Fallback(); l != nil {
				c.Lang = l
			}
		})
	}
	if c.Lang == nil {
		return English
	}
	return c.Lang
}

type choiceKey struct{}

// WithChoice carries the request's language choice in ctx.
func WithChoice(ctx context.Context, c *Choice) context.Context {
	return context.WithValue(ctx, choiceKey{}, c)
}

// From returns the language chosen for ctx's request, English when none was chosen.
func From(ctx context.Context) *Lang {
	if c, ok := ctx.Value(choiceKey{}).(*Choice); ok {
		return c.lang()
	}
	return English
}

// Sprintf is fmt.Sprintf of the translation of format in l; English, or a format l's catalog lacks,
// is fmt.Sprintf itself. String arguments that are sentences of the catalog are translated too.
func (l *Lang) Sprintf(format string, args ...any) string {
	if l == nil || l.cat == nil {
		return fmt.Sprintf(format, args...)
	}
	m, ok := l.cat.messages[format]
	if !ok {
		if len(args) == 0 {
			return l.Text(format)
		}
		return fmt.Sprintf(format, args...)
	}
	verbs := englishVerbs(format)
	strs := make([]string, len(args))
	for i, a := range args {
		v := "%v"
		if i < len(verbs) {
			v = verbs[i]
		}
		if s, ok := a.(string); ok && (v == "%s" || v == "%v") {
			strs[i] = l.text(s, 0)
			continue
		}
		strs[i] = fmt.Sprintf(v, a)
	}
	return m.render(l, strs)
}

// Text is s in l: s itself when l is English or no message id matches s.
func (l *Lang) Text(s string) string {
	if l == nil || l.cat == nil || s == "" {
		return s
	}
	return l.text(s, 0)
}

// maxDepth bounds how deep a sentence's arguments are translated as sentences in turn.
const maxDepth = 8

func (l *Lang) text(s string, depth int) string {
	if m, ok := l.cat.messages[s]; ok && m.args == 0 {
		return m.render(l, nil)
	}
	if depth >= maxDepth {
		return s
	}
	for _, p := range patterns {
		if len(s) < p.literal || !strings.HasPrefix(s, p.prefix) || !strings.HasSuffix(s, p.suffix) {
			continue
		}
		sub := p.re.FindStringSubmatch(s)
		if sub == nil {
			continue
		}
		m, ok := l.cat.messages[p.id]
		if !ok {
			continue
		}
		args := sub[1:]
		for i, a := range args {
			if p.verbs[i] == 's' {
				args[i] = l.text(a, depth+1)
			} else if p.verbs[i] == 'f' {
				args[i] = l.decimal(a)
			}
		}
		return m.render(l, args)
	}
	return s
}

// shallow is s in l when a message id with placeholders matches it, its arguments kept as they are.
func (l *Lang) shallow(s string) string {
	if l.English() {
		return s
	}
	for _, p := range patterns {
		if len(s) < p.literal || !strings.HasPrefix(s, p.prefix) || !strings.HasSuffix(s, p.suffix) {
			continue
		}
		if sub := p.re.FindStringSubmatch(s); sub != nil {
			if m, ok := l.cat.messages[p.id]; ok {
				return m.render(l, sub[1:])
			}
		}
	}
	return s
}

// decimal writes a decimal number as l writes it: a comma before the fraction in every language
// the service speaks but English.
func (l *Lang) decimal(s string) string {
	return strings.Replace(s, ".", ",", 1)
}

// Decimal writes f with digits after the point as l writes it ("2.5", "2,5").
func (l *Lang) Decimal(f float64, digits int) string {
	s := strconv.FormatFloat(f, 'f', digits, 64)
	if l == nil || l.cat == nil {
		return s
	}
	return l.decimal(s)
}

// catalog is one language's translations.
type catalog struct {
	messages map[string]*message
}

// message is one translation: a format per plural form ("other" always), its arguments read as
// strings (%[n]s), and which argument chooses the form.
type message struct {
	forms map[plural.Form]string
	count int // 0-based index of the argument choosing the plural form; -1 for none
	args  int // how many arguments the English id takes
}

var formNames = map[string]plural.Form{
	"zero": plural.Zero, "one": plural.One, "two": plural.Two, "few": plural.Few, "many": plural.Many, "other": plural.Other,
}

func parseCatalog(tag language.Tag, raw []byte) (*catalog, error) {
	var entries map[string]json.RawMessage
	if err := json.Unmarshal(raw, &entries); err != nil {
		return nil, err
	}
	cat := &catalog{messages: make(map[string]*message, len(entries))}
	for id, rawEntry := range entries {
		m := &message{forms: map[plural.Form]string{}, count: -1, args: len(Placeholders(id))}
		var one string
		if err := json.Unmarshal(rawEntry, &one); err == nil {
			m.forms[plural.Other] = rewrite(one)
		} else {
			var forms map[string]json.RawMessage
			if err := json.Unmarshal(rawEntry, &forms); err != nil {
				return nil, fmt.Errorf("%q: a string or an object of plural forms", id)
			}
			for name, v := range forms {
				if name == "count" {
					if err := json.Unmarshal(v, &m.count); err != nil {
						return nil, fmt.Errorf("%q: count: %w", id, err)
					}
					m.count--
					continue
				}
				form, ok := formNames[name]
				if !ok {
					return nil, fmt.Errorf("%q: %q is no plural form", id, name)
				}
				var text string
				if err := json.Unmarshal(v, &text); err != nil {
					return nil, fmt.Errorf("%q: %s: %w", id, name, err)
				}
				m.forms[form] = rewrite(text)
			}
			if _, ok := m.forms[plural.Other]; !ok {
				return nil, fmt.Errorf("%q: no \"other\" form", id)
			}
			if m.count < 0 {
				for i, v := range Placeholders(id) {
					if v == 'd' {
						m.count = i
						break
					}
				}
			}
		}
		cat.messages[id] = m
	}
	return cat, nil
}

func (m *message) render(l *Lang, args []string) string {
	text := m.forms[plural.Other]
	if m.count >= 0 && m.count < len(args) && len(m.forms) > 1 {
		if n, err := strconv.Atoi(strings.TrimPrefix(args[m.count], "-")); err == nil {
			if f, ok := m.forms[plural.Cardinal.MatchPlural(l.tag, n, 0, 0, 0, 0)]; ok {
				text = f
			}
		}
	}
	if len(args) == 0 {
		return strings.ReplaceAll(text, "%%", "%")
	}
	vals := make([]any, len(args))
	for i, a := range args {
		vals[i] = a
	}
	return fmt.Sprintf(text, vals...)
}

// verb is a printf verb of a format: an optional argument index, flags, width and precision, and
// the verb's letter.
var verb = regexp.MustCompile(`%(?:\[(\d+)\])?([-+# 0]*[0-9]*(?:\.[0-9]+)?)([a-zA-Z%])`)

// Placeholders are the verbs of format in argument order ('d', 's', 'f', …), %% left out; with
// explicit indexes, the verb of each argument.
func Placeholders(format string) []byte {
	var out []byte
	next := 0
	at := map[int]byte{}
	for _, m := range verb.FindAllStringSubmatch(format, -1) {
		if m[3] == "%" {
			continue
		}
		if m[1] != "" {
			n, _ := strconv.Atoi(m[1])
			next = n - 1
		}
		v := m[3][0]
		if v == 'v' || v == 'q' {
			v = 's'
		}
		if v == 'g' {
			v = 'f'
		}
		at[next] = v
		next++
	}
	for i := 0; i < len(at); i++ {
		v, ok := at[i]
		if !ok {
			v = '?'
		}
		out = append(out, v)
	}
	return out
}

// englishVerbs are the verbs of an English id, one per argument in order ("%q", "%d", "%.1f").
func englishVerbs(format string) []string {
	var out []string
	for _, m := range verb.FindAllStringSubmatch(format, -1) {
		if m[3] != "%" {
			out = append(out, "%"+m[2]+m[3])
		}
	}
	return out
}

// rewrite makes every verb of a translation %[n]s: the arguments arrive as the strings the English
// sentence held (or the English arguments printed), so the translation shows them as they are.
func rewrite(format string) string {
	next := 1
	return verb.ReplaceAllStringFunc(format, func(v string) string {
		m := verb.FindStringSubmatch(v)
		if m[3] == "%" {
			return v
		}
		if m[1] != "" {
			next, _ = strconv.Atoi(m[1])
		}
		out := "%[" + strconv.Itoa(next) + "]s"
		next++
		return out
	})
}

func hasLetter(s string) bool { return strings.IndexFunc(s, unicode.IsLetter) >= 0 }

// pattern is an id read as a pattern over the sentences it makes.
type pattern struct {
	id             string
	re             *regexp.Regexp
	prefix, suffix string
	literal        int    // how many bytes of the id are not placeholders
	verbs          []byte // per argument
}

var patterns []*pattern

func compilePatterns(ids []string) []*pattern {
	var out []*pattern
	for _, id := range ids {
		locs := verb.FindAllStringSubmatchIndex(id, -1)
		if len(locs) == 0 || !hasLetter(verb.ReplaceAllString(id, "")) {
			// An id of placeholders and punctuation only ("%s: %s") is said (Lang.Say), never
			// matched: it would match nearly anything.
			continue
		}
		var b strings.Builder
		b.WriteString("^")
		p := &pattern{id: id}
		last := 0
		lit := 0
		for _, loc := range locs {
			b.WriteString(regexp.QuoteMeta(id[last:loc[0]]))
			lit += loc[0] - last
			last = loc[1]
			switch id[loc[6]] {
			case '%':
				b.WriteString("%")
				lit++
				continue
			case 'd':
				b.WriteString(`(-?\d+)`)
				p.verbs = append(p.verbs, 'd')
			case 'f', 'g':
				b.WriteString(`(-?\d+(?:\.\d+)?)`)
				p.verbs = append(p.verbs, 'f')
			case 'q':
				b.WriteString(`("(?:[^"\\]|\\.)*")`)
				p.verbs = append(p.verbs, 'q')
			default:
				b.WriteString(`(.+?)`)
				p.verbs = append(p.verbs, 's')
			}
		}
		b.WriteString(regexp.QuoteMeta(id[last:]))
		lit += len(id) - last
		b.WriteString("$")
		p.re = regexp.MustCompile(b.String())
		p.literal = lit
		p.prefix = strings.ReplaceAll(id[:locs[0][0]], "%%", "%")
		p.suffix = strings.ReplaceAll(id[locs[len(locs)-1][1]:], "%%", "%")
		out = append(out, p)
	}
	// The most specific pattern first: the one with the most words of its own.
	sort.SliceStable(out, func(i, j int) bool { return out[i].literal > out[j].literal })
	return out
}
