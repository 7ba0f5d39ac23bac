package contract

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/labstack/echo/v4"

	"primegames/domain"
)

// The contract's validator says that a body is wrong, not where: an action is any of a dozen
// schemas, and it answers only that none matched. findMismatch walks the body against its schema
// again and names the deepest value that does not fit: where it is (a JSON pointer), what the
// schema takes there, and what was sent.
//
// A union is told apart by its discriminating field when its branches have one (`type` for
// actions, whichever required field with an enum every branch has otherwise): an unknown value of
// that field is the mismatch itself, and only the branches it names are followed. A union without
// one (a move's steps) follows every branch and keeps the mismatch its body went furthest into,
// and of those the one from the branch that takes most of the object's fields as they are.
//
// Cost: it runs only on a body the validator refused, which CheckJSONDocument (run by api's body
// gate) bounded to 1,000 values 32 deep; each value meets each schema of a union that applies to it, and mismatchBudget bounds the
// visits in all, whatever the nesting of unions. Past the budget it reports the deepest mismatch
// found so far.

// mismatchBudget bounds the schema-value visits of one findMismatch.
const mismatchBudget = 20_000

// gotMaxRunes bounds a string sent back as what was got.
const gotMaxRunes = 64

// mismatch is where a body departs from its schema; Got is nil when nothing was sent there.
type mismatch struct {
	Pointer  string   `json:"pointer"`
	Expected []string `json:"expected"`
	Got      any      `json:"got,omitempty"`
	// depth is how many steps into the body the pointer goes; agreeing, how many of the object's
	// fields the branch that gave it takes as they are (which tells apart branches whose
	// mismatches are equally deep: a curse keeper's card is no plus_minus_N's).
	depth, agreeing int
}

func (m *mismatch) sentence() string {
	got := "nothing"
	if m.Got != nil {
		b, _ := json.Marshal(m.Got)
		got = string(b)
	}
	return fmt.Sprintf("%s: expected %s; got %s", displayPointer(m.Pointer), strings.Join(m.Expected, " or "), got)
}

func displayPointer(p string) string {
	if p == "" {
		return "the body"
	}
	return p
}

type mismatchWalk struct{ budget int }

// findMismatch names where body departs from schema; nil when it finds nowhere (the validator and
// this walk disagree, or the budget ran out before any mismatch).
func findMismatch(schema *openapi3.Schema, body []byte) *mismatch {
	value, err := decodeForMismatch(body)
	if err != nil {
		return nil
	}
	w := &mismatchWalk{budget: mismatchBudget}
	return w.check(schema, value, nil)
}

// decodeForMismatch decodes a body keeping its numbers as they were written.
func decodeForMismatch(body []byte) (any, error) {
	var value any
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	err := dec.Decode(&value)
	return value, err
}

func pointerOf(path []string) string {
	var b strings.Builder
	for _, p := range path {
		b.WriteByte('/')
		b.WriteString(strings.ReplaceAll(strings.ReplaceAll(p, "~", "~0"), "/", "~1"))
	}
	return b.String()
}

func at(path []string, expected []string, got any) *mismatch {
	return &mismatch{Pointer: pointerOf(path), Expected: expected, Got: gotOf(got), depth: len(path)}
}

// gotOf is what was sent, as the answer shows it: a scalar as it is (a long string cut short),
// an object or array by its shape.
func gotOf(v any) any {
	switch x := v.(type) {
	case nil:
		return json.RawMessage("null") // sent as null, which is not the same as not sent

	case string:
		if utf8.RuneCountInString(x) > gotMaxRunes {
			return string([]rune(x)[:gotMaxRunes]) + "…"
		}
		return x
	case map[string]any:
		return fmt.Sprintf("an object of %d fields", len(x))
	case []any:
		return fmt.Sprintf("an array of %d items", len(x))
	}
	return v
}

func (w *mismatchWalk) check(s *openapi3.Schema, v any, path []string) *mismatch {
	w.budget--
	if w.budget < 0 || s == nil {
		return nil
	}
	if len(s.AnyOf) > 0 || len(s.OneOf) > 0 {
		if m := w.checkUnion(s, v, path); m != nil {
			return m
		}
	}
	for _, part := range s.AllOf {
		if m := w.check(part.Value, v, path); m != nil {
			return m
		}
	}
	if v == nil {
		if s.Nullable || s.Type == nil || len(s.Type.Slice()) == 0 || s.Type.Includes(openapi3.TypeNull) {
			return nil
		}
		return at(path, describe(s), nil)
	}
	if m := checkType(s, v, path); m != nil {
		return m
	}
	if len(s.Enum) > 0 && !inEnum(s.Enum, v) {
		return at(path, enumStrings(s.Enum), v)
	}
	switch x := v.(type) {
	case map[string]any:
		return w.checkObject(s, x, path)
	case []any:
		return w.checkArray(s, x, path)
	case string:
		return checkString(s, x, path)
	case json.Number:
		return checkNumber(s, x, path)
	}
	return nil
}

// checkUnion follows the branches of an anyOf or oneOf that v may be, and returns the best of
// their mismatches; nil when one branch takes v whole.
func (w *mismatchWalk) checkUnion(s *openapi3.Schema, v any, path []string) *mismatch {
	leaves := unionLeaves(s)
	if field := discriminatorOf(leaves); field != "" {
		obj, isObject := v.(map[string]any)
		if isObject {
			tag, _ := obj[field].(string)
			var named []*openapi3.Schema
			for _, leaf := range leaves {
				if inEnum(leaf.Properties[field].Value.Enum, tag) {
					named = append(named, leaf)
				}
			}
			if len(named) == 0 {
				m := at(append(slices.Clip(path), field), discriminatorValues(leaves, field), obj[field])
				if _, sent := obj[field]; !sent {
					m.Got = nil
				}
				return m
			}
			leaves = named
		}
	}
	var best *mismatch
	for _, leaf := range leaves {
		m := w.check(leaf, v, path)
		if m == nil {
			if w.budget >= 0 {
				return nil
			}
			continue
		}
		if obj, ok := v.(map[string]any); ok {
			for name, value := range obj {
				if p := leaf.Properties[name]; p != nil && w.check(p.Value, value, append(slices.Clip(path), name)) == nil {
					m.agreeing++
				}
			}
		}
		if best == nil || m.depth > best.depth || (m.depth == best.depth && m.agreeing > best.agreeing) {
			best = m
		}
	}
	return best
}

// unionLeaves flattens nested anyOf and oneOf into the schemas that are none.
func unionLeaves(s *openapi3.Schema) []*openapi3.Schema {
	var leaves []*openapi3.Schema
	for _, branch := range slices.Concat(s.AnyOf, s.OneOf) {
		if b := branch.Value; b != nil && (len(b.AnyOf) > 0 || len(b.OneOf) > 0) && len(b.Properties) == 0 {
			leaves = append(leaves, unionLeaves(b)...)
		} else if b != nil {
			leaves = append(leaves, b)
		}
	}
	return leaves
}

// discriminatorOf is the field every leaf requires with an enum of its values ("type" first); ""
// when there is none.
func discriminatorOf(leaves []*openapi3.Schema) string {
	if len(leaves) < 2 {
		return ""
	}
	var candidates []string
	for name, p := range leaves[0].Properties {
		if p.Value != nil && len(p.Value.Enum) > 0 && slices.Contains(leaves[0].Required, name) {
			candidates = append(candidates, name)
		}
	}
	slices.SortFunc(candidates, func(a, b string) int {
		if (a == "type") != (b == "type") {
			if a == "type" {
				return -1
			}
			return 1
		}
		return strings.Compare(a, b)
	})
	for _, name := range candidates {
		every := true
		for _, leaf := range leaves[1:] {
			p := leaf.Properties[name]
			if p == nil || p.Value == nil || len(p.Value.Enum) == 0 || !slices.Contains(leaf.Required, name) {
				every = false
				break
			}
		}
		if every {
			return name
		}
	}
	return ""
}

func discriminatorValues(leaves []*openapi3.Schema, field string) []string {
	var values []string
	for _, leaf := range leaves {
		for _, v := range enumStrings(leaf.Properties[field].Value.Enum) {
			if !slices.Contains(values, v) {
				values = append(values, v)
			}
		}
	}
	return values
}

func (w *mismatchWalk) checkObject(s *openapi3.Schema, obj map[string]any, path []string) *mismatch {
	for _, name := range s.Required {
		if _, ok := obj[name]; !ok {
			var expected []string
			if p := s.Properties[name]; p != nil && p.Value != nil {
				expected = describe(p.Value)
			}
			return &mismatch{Pointer: pointerOf(append(slices.Clip(path), name)), Expected: expected, depth: len(path) + 1}
		}
	}
	names := make([]string, 0, len(obj))
	for name := range obj {
		names = append(names, name)
	}
	slices.Sort(names)
	closed := s.AdditionalProperties.Has != nil && !*s.AdditionalProperties.Has
	for _, name := range names {
		p := s.Properties[name]
		switch {
		case p != nil && p.Value != nil:
			if m := w.check(p.Value, obj[name], append(slices.Clip(path), name)); m != nil {
				return m
			}
		case s.AdditionalProperties.Schema != nil:
			if m := w.check(s.AdditionalProperties.Schema.Value, obj[name], append(slices.Clip(path), name)); m != nil {
				return m
			}
		case closed:
			return at(append(slices.Clip(path), name), []string{"no such field (" + fieldList(s) + ")"}, obj[name])
		}
	}
	if s.MaxProps != nil && uint64(len(obj)) > *s.MaxProps {
		return at(path, []string{fmt.Sprintf("at most %d fields", *s.MaxProps)}, obj)
	}
	return nil
}

func fieldList(s *openapi3.Schema) string {
	names := make([]string, 0, len(s.Properties))
	for name := range s.Properties {
		names = append(names, name)
	}
	slices.Sort(names)
	return "fields: " + strings.Join(names, ", ")
}

func (w *mismatchWalk) checkArray(s *openapi3.Schema, items []any, path []string) *mismatch {
	if n := uint64(len(items)); n < s.MinItems || (s.MaxItems != nil && n > *s.MaxItems) {
		return at(path, describe(s), items)
	}
	if s.Items != nil && s.Items.Value != nil {
		for i, item := range items {
			if m := w.check(s.Items.Value, item, append(slices.Clip(path), strconv.Itoa(i))); m != nil {
				return m
			}
		}
	}
	if s.UniqueItems {
		seen := map[string]bool{}
		for _, item := range items {
			b, _ := json.Marshal(item)
			if seen[string(b)] {
				return at(path, []string{"items all different"}, items)
			}
			seen[string(b)] = true
		}
	}
	return nil
}

func checkString(s *openapi3.Schema, x string, path []string) *mismatch {
	n := uint64(utf8.RuneCountInString(x))
	if n < s.MinLength || (s.MaxLength != nil && n > *s.MaxLength) {
		return at(path, describe(s), x)
	}
	if s.Pattern != "" {
		if re, err := regexp.Compile(s.Pattern); err == nil && !re.MatchString(x) {
			return at(path, describe(s), x)
		}
	}
	return nil
}

func checkNumber(s *openapi3.Schema, x json.Number, path []string) *mismatch {
	f, err := x.Float64()
	if err != nil {
		return nil
	}
	below := (s.Min != nil && (f < *s.Min || (s.ExclusiveMin.IsTrue() && f == *s.Min))) ||
		(s.ExclusiveMin.Value != nil && f <= *s.ExclusiveMin.Value)
	above := (s.Max != nil && (f > *s.Max || (s.ExclusiveMax.IsTrue() && f == *s.Max))) ||
		(s.ExclusiveMax.Value != nil && f >= *s.ExclusiveMax.Value)
	if below || above {
		return at(path, describe(s), x)
	}
	return nil
}

// checkType refuses a value of another JSON type than the schema's.
func checkType(s *openapi3.Schema, v any, path []string) *mismatch {
	if s.Type == nil || len(s.Type.Slice()) == 0 {
		return nil
	}
	for _, t := range s.Type.Slice() {
		if jsonTypeIs(t, v) {
			return nil
		}
	}
	return at(path, describe(s), v)
}

func jsonTypeIs(t string, v any) bool {
	switch x := v.(type) {
	case map[string]any:
		return t == openapi3.TypeObject
	case []any:
		return t == openapi3.TypeArray
	case string:
		return t == openapi3.TypeString
	case bool:
		return t == openapi3.TypeBoolean
	case json.Number:
		if t == openapi3.TypeNumber {
			return true
		}
		if t != openapi3.TypeInteger {
			return false
		}
		if !strings.ContainsAny(x.String(), ".eE") {
			return true // digits only: whole
		}
		r, ok := new(big.Rat).SetString(x.String())
		return ok && r.IsInt()
	}
	return false
}

func inEnum(enum []any, v any) bool {
	want := enumString(v)
	for _, e := range enum {
		if enumString(e) == want {
			return true
		}
	}
	return false
}

func enumString(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func enumStrings(enum []any) []string {
	out := make([]string, len(enum))
	for i, e := range enum {
		out[i] = enumString(e)
	}
	return out
}

// describe says in a few words what a schema takes: its values when it lists them, else its type
// with its bounds.
func describe(s *openapi3.Schema) []string {
	if len(s.Enum) > 0 {
		return enumStrings(s.Enum)
	}
	if len(s.AnyOf) > 0 || len(s.OneOf) > 0 {
		leaves := unionLeaves(s)
		if field := discriminatorOf(leaves); field != "" {
			return []string{"an object whose " + field + " is " + strings.Join(discriminatorValues(leaves, field), ", ")}
		}
		var out []string
		for _, leaf := range leaves {
			for _, d := range describe(leaf) {
				if !slices.Contains(out, d) {
					out = append(out, d)
				}
			}
		}
		return out
	}
	if s.Type == nil || len(s.Type.Slice()) == 0 {
		return []string{"any value"}
	}
	t := s.Type.Slice()[0]
	var bounds []string
	switch t {
	case openapi3.TypeInteger, openapi3.TypeNumber:
		bounds = append(bounds, rangeOf(s.Min, s.Max, ""))
	case openapi3.TypeString:
		bounds = append(bounds, countRange(s.MinLength, s.MaxLength, " characters"))
		if s.Pattern != "" {
			bounds = append(bounds, "matching "+s.Pattern)
		}
		if s.Format != "" {
			bounds = append(bounds, "in the format "+s.Format)
		}
	case openapi3.TypeArray:
		bounds = append(bounds, countRange(s.MinItems, s.MaxItems, " items"))
	}
	bounds = slices.DeleteFunc(bounds, func(b string) bool { return b == "" })
	if len(bounds) == 0 {
		return []string{t}
	}
	return []string{t + ", " + strings.Join(bounds, ", ")}
}

// explainBody turns the validator's refusal of a request's body into one that names the field:
// 400 invalid with facts {pointer, expected, got}. Other refusals pass as they are.
func explainBody(err *echo.HTTPError, req *http.Request, explain func(error) error) error {
	var reqErr *openapi3filter.RequestError
	var se *openapi3.SchemaError
	if !errors.As(err.Internal, &reqErr) || reqErr.RequestBody == nil || !errors.As(reqErr.Err, &se) || req.GetBody == nil {
		return err
	}
	if explain != nil {
		if explained := explain(se); explained != nil {
			return explained
		}
	}
	media := reqErr.RequestBody.Content.Get(echo.MIMEApplicationJSON)
	if media == nil || media.Schema == nil {
		return err
	}
	body, rerr := req.GetBody()
	if rerr != nil {
		return err
	}
	defer body.Close()
	raw, rerr := io.ReadAll(body)
	if rerr != nil {
		return err
	}
	m := findMismatch(media.Schema.Value, raw)
	if m == nil {
		return err
	}
	field := "body" + strings.ReplaceAll(m.Pointer, "/", ".")
	return &domain.Error{
		Kind: domain.KindInvalid, Code: "invalid", Message: m.sentence(), Facts: m,
		Fields: []domain.FieldError{{Field: field, Message: m.sentence()}},
	}
}

// countRange words bounds on a length (characters, items); "" for none.
func countRange(min uint64, max *uint64, unit string) string {
	if min == 0 && max == nil {
		return ""
	}
	low := float64(min)
	var high *float64
	if max != nil {
		high = ptr(float64(*max))
	}
	return rangeOf(&low, high, unit)
}

// rangeOf words bounds: "from 1 to 6", "at least 1", "at most 40 characters"; "" for none.
func rangeOf(min, max *float64, unit string) string {
	n := func(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
	switch {
	case min != nil && max != nil:
		return "from " + n(*min) + " to " + n(*max) + unit
	case min != nil:
		return "at least " + n(*min) + unit
	case max != nil:
		return "at most " + n(*max) + unit
	}
	return ""
}

func ptr[T any](v T) *T { return &v }
