package api

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math/bits"
	"sync"

	gojson "github.com/goccy/go-json"
	"github.com/labstack/echo/v4"

	"primegames/api/openapi"
	"primegames/domain"
)

// The bodies of games, history entries and legal actions carry JSON that is encoded already (a
// state's view, the legal actions, an outcome, an action) in json.RawMessage fields. encoding/json
// checks and compacts every such field again, byte by byte, when it encodes the body around it:
// most of the time spent encoding an action's answer. The functions here write those bodies with
// their fixed fields encoded as encoding/json encodes them and their raw fields copied as they are whenever
// they already are what encoding/json would make of them, so that the bytes are the same as
// encoding/json's (TestBodiesEncodeAsEncodingJSON) at a fraction of the cost.

// bodySerializer is echo's JSON serializer, c.JSON's, with the bodies above written as
// bodyWriter writes them; everything else, and every indented (?pretty) body, as echo writes it.
type bodySerializer struct{ echo.DefaultJSONSerializer }

func (s bodySerializer) Serialize(c echo.Context, v any, indent string) error {
	if indent != "" || !isRawBody(v) {
		return s.DefaultJSONSerializer.Serialize(c, v, indent)
	}
	w := bodyWriters.Get().(*bodyWriter)
	defer w.release()
	if err := w.body(v); err != nil {
		return err
	}
	body := append(w.out, '\n') // json.Encoder ends a value with a newline
	sayLength(c, len(body))
	_, err := c.Response().Write(body)
	return err
}

// marshalBody is json.Marshal(v), faster for the bodies bodyWriter knows.
func marshalBody(v any) ([]byte, error) {
	if !isRawBody(v) {
		return json.Marshal(v)
	}
	w := bodyWriters.Get().(*bodyWriter)
	defer w.release()
	if err := w.body(v); err != nil {
		return nil, err
	}
	return append(make([]byte, 0, len(w.out)+1), w.out...), nil // room for encodeBody's newline
}

// isRawBody reports whether v is one of the bodies with raw fields that the hot requests answer
// with, which bodyWriter writes.
func isRawBody(v any) bool {
	switch v.(type) {
	case openapi.ActionResult, openapi.Game, openapi.LegalActions, openapi.HistoryEntry:
		return true
	}
	return false
}

// bodyWriter writes a body into out. Its buffers are kept for the next body (bodyWriters).
type bodyWriter struct {
	out []byte
	// fixed holds the encoding of a body's fixed fields (its base), by enc; tail, the part of a
	// game's base after its legal actions.
	fixed bytes.Buffer
	enc   *gojson.Encoder
	tail  []byte
}

var bodyWriters = sync.Pool{New: func() any {
	w := &bodyWriter{}
	w.enc = gojson.NewEncoder(&w.fixed)
	return w
}}

// release puts w back in bodyWriters, unless it grew too large to keep.
func (w *bodyWriter) release() {
	const keptBytes = 256 << 10
	if cap(w.out) <= keptBytes && w.fixed.Cap() <= keptBytes {
		w.out, w.tail = w.out[:0], w.tail[:0]
		bodyWriters.Put(w)
	}
}

// body writes v, which isRawBody.
func (w *bodyWriter) body(v any) error {
	switch body := v.(type) {
	case openapi.ActionResult:
		return w.actionResult(&body)
	case openapi.Game:
		return w.game(&body)
	case openapi.LegalActions:
		return w.legalActions(&body)
	case openapi.HistoryEntry:
		return w.historyEntry(&body)
	}
	return fmt.Errorf("api: bodyWriter cannot write a %T", v)
}

// encodeFixed encodes the fixed fields of a body, an object, as encoding/json does (with
// github.com/goccy/go-json, as marshalEngine; TestBodiesEncodeAsEncodingJSON); the result is good
// until the next call.
func (w *bodyWriter) encodeFixed(v any) ([]byte, error) {
	w.fixed.Reset()
	if err := w.enc.Encode(v); err != nil {
		return nil, err
	}
	encoded := w.fixed.Bytes()
	return encoded[:len(encoded)-1], nil // without Encode's newline
}

func (w *bodyWriter) actionResult(r *openapi.ActionResult) error {
	w.out = append(w.out, `{"entry":`...)
	if err := w.historyEntry(&r.Entry); err != nil {
		return err
	}
	w.out = append(w.out, `,"game":`...)
	if err := w.game(&r.Game); err != nil {
		return err
	}
	w.out = append(w.out, '}')
	return nil
}

func (w *bodyWriter) historyEntry(e *openapi.HistoryEntry) error {
	base, err := w.encodeFixed(e.HistoryEntryBase)
	if err != nil {
		return err
	}
	w.openObject(base)
	return w.kindFields(e.Game, rawField{`"action":`, e.Action}, rawField{`"outcome":`, e.Outcome})
}

func (w *bodyWriter) legalActions(l *openapi.LegalActions) error {
	base, err := w.encodeFixed(l.LegalActionsBase)
	if err != nil {
		return err
	}
	w.openObject(base)
	return w.kindFields(l.Game, rawField{`"actions":`, l.Actions})
}

// game writes GameBase with its legal actions, which hold raw actions, written apart: they are
// encoded first as legalActionsSlot, which is then replaced by their own encoding.
func (w *bodyWriter) game(g *openapi.Game) error {
	base := g.GameBase
	legal := base.LegalActions
	if legal != nil {
		base.LegalActions = &legalActionsSlot
	}
	encoded, err := w.encodeFixed(base)
	if err != nil {
		return err
	}
	if legal != nil {
		// A key with its quotes bare is a key: within a string every quote is escaped.
		at := bytes.Index(encoded, legalActionsSlotJSON)
		if at < 0 {
			return errors.New("api: the legal actions' slot is missing from a game's encoding")
		}
		w.out = append(w.out, encoded[:at+len(legalActionsKey)]...)
		w.tail = append(w.tail[:0], encoded[at+len(legalActionsSlotJSON):]...)
		if err := w.legalActions(legal); err != nil {
			return err
		}
		encoded = w.tail
	}
	w.openObject(encoded)
	return w.kindFields(g.Game, rawField{`"options":`, g.Options}, rawField{`"state":`, g.State})
}

const legalActionsKey = `"legal_actions":`

var (
	legalActionsSlot     = openapi.LegalActions{Actions: json.RawMessage(`0`)}
	legalActionsSlotJSON = func() []byte {
		encoded, err := json.Marshal(legalActionsSlot)
		if err != nil {
			panic(err)
		}
		return append([]byte(legalActionsKey), encoded...)
	}()
)

// openObject writes an encoded object, or the rest of one, without its closing brace, and a comma
// when it has members, for more members to follow.
func (w *bodyWriter) openObject(object []byte) {
	w.out = append(w.out, object[:len(object)-1]...)
	if w.out[len(w.out)-1] != '{' {
		w.out = append(w.out, ',')
	}
}

// rawField is a raw member of a body: its key (quoted, with the colon) and its value.
type rawField struct {
	key   string
	value json.RawMessage
}

// kindFields writes the members that every body with raw fields ends with, its kind and then those
// fields, and closes the object.
func (w *bodyWriter) kindFields(kind openapi.GameKind, fields ...rawField) error {
	w.out = domain.AppendJSONString(append(w.out, `"game":`...), string(kind))
	var err error
	for _, f := range fields {
		w.out = append(append(w.out, ','), f.key...)
		if w.out, err = appendRaw(w.out, f.value); err != nil {
			return err
		}
	}
	w.out = append(w.out, '}')
	return nil
}

// appendRaw appends raw as encoding/json writes a json.RawMessage: nil as null; otherwise compacted
// and with <, >, &, U+2028 and U+2029 escaped, which raw values that encoding/json wrote already
// are, and that are then copied as they are. Raw values are valid JSON: encoding/json wrote them,
// Postgres kept them or bodyGate let them in (a value that needs work is checked as it is worked).
func appendRaw(dst, raw json.RawMessage) ([]byte, error) {
	switch {
	case raw == nil:
		return append(dst, "null"...), nil
	case len(raw) > 0 && isCompactAndEscaped(raw):
		return append(dst, raw...), nil
	}
	encoded, err := json.Marshal(raw)
	return append(dst, encoded...), err
}

// isCompactAndEscaped reports whether JSON has no space outside its strings and none of the
// characters that encoding/json escapes for HTML: whether compacting it would leave it as it is.
// It looks at eight bytes at a time, and byte by byte only at a backslash, a first byte of U+2028
// or U+2029, and the end.
func isCompactAndEscaped(raw []byte) bool {
	var inString uint64 // 1 within a string
	for i := 0; i < len(raw); {
		stop := len(raw) // where to look at eight bytes at a time again
		if i+8 <= len(raw) {
			word := binary.LittleEndian.Uint64(raw[i:])
			rare := bytesEqual(word, '\\') | bytesEqual(word, 0xE2) | bytesEqual(word, '<') | bytesEqual(word, '>') | bytesEqual(word, '&')
			if rare == 0 {
				quotes := bitsOf(bytesEqual(word, '"'))
				if bitsOf(bytesAtMost(word, ' '))&^(prefixXOR(quotes)^-inString) != 0 {
					return false // a space outside a string
				}
				inString ^= uint64(bits.OnesCount64(quotes) & 1)
				i += 8
				continue
			}
			stop = i + bits.TrailingZeros64(rare)/8 + 1
		}
		for ; i < stop; i++ {
			switch c := raw[i]; rawClasses[c] {
			case rawQuote:
				inString ^= 1
			case rawSpace:
				if inString == 0 {
					return false
				}
			case rawHTML:
				return false
			case rawRare:
				if c == '\\' {
					i++ // only in a string: the escaped character is not its end
				} else if i+2 < len(raw) && raw[i+1] == 0x80 && raw[i+2]&^1 == 0xA8 { // U+2028, U+2029
					return false
				}
			}
		}
	}
	return inString == 0
}

// Bytes of a word, eight at a time: bytesEqual and bytesAtMost mark each byte of x that is c, that
// is at most c (below 0x80), with its high bit; bitsOf gathers those high bits, the first byte's
// into the lowest bit.
const (
	lowBits  = 0x0101010101010101
	highBits = 0x8080808080808080
)

func bytesEqual(x uint64, c byte) uint64 {
	y := x ^ lowBits*uint64(c)
	return ^((y&^highBits + ^uint64(highBits)) | y) & highBits
}

func bytesAtMost(x uint64, c byte) uint64 {
	return ^((x&^highBits + lowBits*uint64(0x7F-c)) | x) & highBits
}

func bitsOf(marks uint64) uint64 { return marks * 0x0002040810204081 >> 56 }

// prefixXOR sets each of eight bits to the parity of the bits up to it: for the quotes' bits, the
// bytes within a string that began in the word.
func prefixXOR(b uint64) uint64 {
	b ^= b << 1
	b ^= b << 2
	b ^= b << 4
	return b & 0xFF
}

// The bytes that isCompactAndEscaped looks at, as bits.
const (
	rawQuote = 1 << iota
	rawSpace // and the other control characters, which only a string may hold
	rawHTML  // <, > and &
	rawRare  // a backslash, and the first byte of U+2028 and U+2029 in UTF-8
)

var rawClasses = func() (classes [256]byte) {
	for c := range ' ' + 1 {
		classes[c] = rawSpace
	}
	classes['"'], classes['\\'], classes[0xE2] = rawQuote, rawRare, rawRare
	classes['<'], classes['>'], classes['&'] = rawHTML, rawHTML, rawHTML
	return classes
}()
