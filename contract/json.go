package contract

import (
	"encoding/json"
	"errors"
	"unicode/utf16"
	"unicode/utf8"

	"primegames/domain"
)

// A request body's shape is bounded, because decoding and validating it against the contract costs
// far more than its size suggests for a deep body and for one of many small values (every anyOf
// branch of the validator copies the whole value). The contract needs five levels and a few dozen
// values.
const (
	maxJSONDepth   = 32   // objects and arrays nested in one another
	maxJSONEntries = 1000 // object members and array elements in all
)

// CheckJSONDocument says why body is not one JSON document in valid UTF-8, within maxJSONDepth
// and maxJSONEntries, whose strings hold no NUL and no half of a surrogate pair; nil when it is.
// It allocates nothing for a body it refuses for its shape, however deep or wide.
func CheckJSONDocument(body []byte) error {
	if !utf8.Valid(body) {
		return domain.Invalid("invalid", "The request body is not valid UTF-8 text.")
	}
	// The shape first: json.Valid keeps a stack as deep as the body nests.
	if err := checkShapeAndEscapes(body); err != nil {
		return err
	}
	if !json.Valid(body) {
		var syntax *json.SyntaxError
		if err := json.Unmarshal(body, new(json.RawMessage)); errors.As(err, &syntax) {
			return domain.Invalid("invalid", "The request body is not one JSON document: %v (at byte %d).", syntax, syntax.Offset)
		}
		return domain.Invalid("invalid", "The request body is not one JSON document.")
	}
	return nil
}

// checkShapeAndEscapes walks the body once, tracking strings so that what is inside them does not
// count. Syntax is left to json.Valid. Entries are counted as commas and opening brackets: at least
// one per member or element.
func checkShapeAndEscapes(body []byte) error {
	depth, entries, inString := 0, 0, false
	for i := 0; i < len(body); i++ {
		switch b := body[i]; {
		case inString && b == '"':
			inString = false
		case inString && b == '\\':
			n, err := checkEscape(body[i:], i)
			if err != nil {
				return err
			}
			i += n - 1
		case inString:
		case b == '"':
			inString = true
		case b == '{' || b == '[':
			if depth++; depth > maxJSONDepth {
				return domain.Invalid("invalid", "The request body nests objects and arrays more than %d deep; no request of this API needs more than a few levels.", maxJSONDepth)
			}
			entries++
		case b == ',':
			entries++
		case b == '}' || b == ']':
			depth--
		}
		if entries > maxJSONEntries {
			return domain.Invalid("invalid", "The request body holds more than %d values; no request of this API needs more than a few dozen.", maxJSONEntries)
		}
	}
	return nil
}

// checkEscape looks at the escape at the start of s (a backslash) and returns its length. It refuses
// \u0000, which Postgres cannot store and no field has a use for, and a \uD800–\uDFFF escape that
// is not half of a high-low pair, which stands for no character at all.
func checkEscape(s []byte, offset int) (int, error) {
	r, ok := hex4(s)
	if !ok {
		return min(2, len(s)), nil // a one-letter escape, or one json.Valid will refuse
	}
	switch {
	case r == 0:
		return 0, domain.Invalid("invalid", "The request body contains a NUL character (\\u0000), which no field accepts.")
	case !utf16.IsSurrogate(r):
		return 6, nil
	}
	if low, ok := hex4(s[6:]); ok && utf16.DecodeRune(r, low) != utf8.RuneError {
		return 12, nil
	}
	return 0, domain.Invalid("invalid", "The request body contains %s at byte %d, half of a UTF-16 surrogate pair without its other half; text must be whole Unicode characters.", s[:6], offset)
}

// hex4 reads the code unit of a \uXXXX escape at the start of s.
func hex4(s []byte) (rune, bool) {
	if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
		return 0, false
	}
	var r rune
	for _, c := range s[2:6] {
		var d byte
		switch {
		case '0' <= c && c <= '9':
			d = c - '0'
		case 'a' <= c && c <= 'f':
			d = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			d = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(d)
	}
	return r, true
}
